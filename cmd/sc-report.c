/* sc-report: plan + samples -> report.json and report.md.  See
 * sc-report(1).  In order: every argument checked, then the plan and the
 * samples read, bound, judged and written as report.json and report.md in
 * the output directory.  Bad arguments or unreadable or unparseable input
 * die with 2 before anything is written; reports that cannot be written
 * die with 3.  Exit 0 for a complete report, whatever it flags; 1, with one
 * error line naming the first problem, when a sample is missing, rejected
 * or an error (the report is written all the same). */
#include "contract/limits.h"
#include "contract/plan.h"
#include "report/report_attr.h"
#include "report/report_files.h"
#include "report/report.h"
#include "report/report_args.h"
#include "report/sample_file.h"
#include "util/closeout.h"
#include "util/decimal.h"
#include "util/die.h"
#include "util/pathcheck.h"
#include "util/oid.h"
#include "util/options.h"
#include "util/safefile.h"
#include "util/seconds.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"usage: sc-report --plan FILE --samples FILE... --out-dir DIR [--run-id ID]",
	"                 [--lean-version STR] [--lean-sha256 HEX] [--lake-sha256 HEX]",
	"                 [--sandbox-user UID:GID] [--lake-cache] [--server-url URL]",
	"                 [--ci-repository OWNER/NAME --ci-run-id ID]",
	"                 [--threshold-ratio R] [--threshold-delta S] [--threshold-added S]",
	"                 [--attribution FILE... [--attribution-seconds S]]",
	"                 [--shard K/N --bwrap-sha256 HEX | --shard-run K:ID...]",
	"",
	"Binds the samples to the plan, applies the CPU thresholds and writes",
	"DIR/report.json and DIR/report.md.  See man sc-report.",
	NULL,
};

/* The exit status: 1 and one line naming the first problem when the
 * measurement is incomplete. */
static int outcome(const struct sc_report *r, const char *out_dir)
{
	if (!r->n_problems)
		return SC_EXIT_OK;
	const struct sc_problem *p = &r->problems[0];
	char *json_path = sc_path_join(out_dir, "report.json");
	sc_error("measurement incomplete: %zu problem%s, first: %s %s (%s)", r->n_problems,
	         r->n_problems == 1 ? "" : "s", p->sample, p->kind, json_path);
	free(json_path);
	return SC_EXIT_FAIL;
}

static const char *attribution_seconds; /* --attribution-seconds, as given */

/* How long reading the profiles of --attribution may take: checked with
 * the other arguments, before anything is read. */
static double attribution_limit(const struct sc_report_args *a)
{
	double limit = SC_ATTR_READ_SECONDS;
	if (attribution_seconds && !a->attribution.n)
		sc_die("--attribution-seconds goes with --attribution (see %s --help)", sc_progname());
	if (attribution_seconds && sc_parse_seconds(attribution_seconds, &limit) < 0)
		sc_die("--attribution-seconds wants seconds above 0, at most %d (--attribution-seconds %s)",
		       SC_SECONDS_MAX, attribution_seconds);
	return limit;
}

/* profile-run --attribute's runs joined to the report: their profiles
 * live beside FILE, and reading them all may take LIMIT seconds (their
 * bytes are the candidate's: past that, each left is a note). */
static void attach_attribution(struct sc_report *r, const char *file, double limit)
{
	if (limit <= 0)
		limit = 1e-9; /* spent by an earlier runner's: each profile left is a note */
	struct strbuf doc = STRBUF_INIT, why = STRBUF_INIT;
	struct sc_attr_list l;
	if (sc_read_file(file, &doc, 16u << 20) < 0)
		sc_die_path_errno("cannot read the attribution runs (%s)", file);
	if (sc_attr_list_from_json(doc.buf, doc.len, &l, &why) < 0)
		sc_die("not an attribution list: %s (%s)", why.buf, file);
	char *dir = xstrdup(file), *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	if (sc_report_attach_attribution(r, &l, slash ? dir : ".", limit, &why) < 0)
		sc_die("%s (%s)", why.buf, file);
	free(dir);
	sc_attr_list_free(&l);
	sb_release(&doc);
	sb_release(&why);
}

static const char *shard;     /* --shard K/N, as given */
static struct sc_argv shard_runs; /* --shard-run K:ID */

/* A report of a sharded plan (Documentation/measurement.txt "Shards"):
 * one runner's (--shard: its plan keeps shard K's files alone, before the
 * report is made of it), or one merging every runner's (--shard-run: a
 * runner a shard, each named once).  Neither: the plan's one runner. */
static void keep_shard(struct sc_plan *plan, unsigned k, unsigned n)
{
	struct strbuf err = STRBUF_INIT;
	if (shard && sc_plan_keep_shard(plan, k, n, &err) < 0)
		sc_die("%s (--shard %s)", err.buf, shard);
	sb_release(&err);
}

static void add_runners(const struct sc_plan *plan, struct sc_report *r)
{
	unsigned have = plan->n_shards ? plan->n_shards : 1, k;
	if (shard_runs.n && shard_runs.n != have)
		sc_die("the plan has %u shard%s, not %zu (--shard-run)", have, have == 1 ? "" : "s",
		       shard_runs.n);
	for (size_t i = 0; i < shard_runs.n; i++) {
		const char *colon = strchr(shard_runs.v[i], ':');
		char *num = colon ? xstrndup(shard_runs.v[i], (size_t)(colon - shard_runs.v[i])) : NULL;
		int ok = num && sc_decimal_uint(num, 1, have, &k) == 0 &&
		         sc_is_lower_hex(colon + 1, SC_RUN_ID_HEXSZ);
		free(num);
		if (!ok)
			sc_die("--shard-run wants K:ID, K 1 to %u and a run ID (--shard-run %s)", have,
			       shard_runs.v[i]);
		if (sc_report_runner(r, k))
			sc_die("shard %u is named twice (--shard-run %s)", k, shard_runs.v[i]);
		sc_report_add_runner(r, k, colon + 1);
	}
}

static int make_report(const struct sc_report_args *a)
{
	struct sc_thresholds th;
	struct strbuf err = STRBUF_INIT;
	static const struct sc_report_arg_names names = {
		"--run-id", "--lean-version", "--lean-sha256", "--lake-sha256", "--sandbox-user", "--samples",
		"--bwrap-sha256",
		{"--threshold-ratio", "--threshold-delta", "--threshold-added"},
		{"--server-url", "--ci-repository", "--ci-run-id"},
	};
	if (sc_report_args_check(a, &names, &th, &err) < 0)
		sc_die("%s", err.buf);
	double attr_limit = attribution_limit(a);
	unsigned shard_k = 0, shard_n = 0;
	if (shard && sc_shard_parse(shard, &shard_k, &shard_n) < 0)
		sc_die("--shard wants K/N, 1 <= K <= N <= %d (--shard %s)", SC_MAX_SHARDS, shard);
	if (shard && shard_runs.n)
		sc_die("--shard is one runner's report, --shard-run merges them: not both (--shard %s)",
		       shard);
	if (shard_runs.n && a->run_id)
		sc_die("--run-id is one runner's: with --shard-run each shard names its own (--run-id %s)",
		       a->run_id);

	struct sc_plan plan;
	struct strbuf raw = STRBUF_INIT;
	sc_plan_load_or_die(a->plan, &plan, &raw);
	char digest[65];
	sc_plan_digest(raw.buf, raw.len, digest);
	sb_release(&raw);

	struct sc_sample_set in = {0};
	sc_sample_set_load_or_die(&in, a->samples.v, a->samples.n, a->out_dir);
	struct sc_report_env env;
	if (sc_report_env_init(&env, a, &err) < 0)
		sc_die_sys("%s", err.buf);

	keep_shard(&plan, shard_k, shard_n);
	struct sc_report r;
	sc_report_init(&r, &plan, digest, a->run_id, &th, &env);
	if (shard_n > 1)
		sc_report_set_shard(&r, shard_k, shard_n);
	add_runners(&plan, &r);
	sc_report_bind(&r, in.v, in.n);
	double t0 = sc_monotonic_now();
	for (size_t i = 0; i < a->attribution.n; i++)
		attach_attribution(&r, a->attribution.v[i], attr_limit - (sc_monotonic_now() - t0));
	sc_report_write_files(&r, a->out_dir);
	int rc = outcome(&r, a->out_dir);

	sc_report_free(&r);
	sc_report_env_release(&env);
	sc_sample_set_free(&in);
	sc_plan_free(&plan);
	sb_release(&err);
	return rc;
}

int main(int argc, char **argv)
{
	static struct sc_report_args a;
	static const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "plan", &a.plan, "FILE", "the plan sc-plan wrote"),
		SC_OPT_LIST_F("samples", &a.samples, "FILE",
		              "samples files, one sample per line; - is stdin", SC_OPT_REQUIRED),
		SC_OPT_REQUIRED_STRING(0, "out-dir", &a.out_dir, "DIR",
		                       "existing directory for report.json and report.md"),
		SC_OPT_STRING(0, "run-id", &a.run_id, "ID", "the run ID every sample must carry"),
		SC_OPT_STRING(0, "lean-version", &a.lean_version, "STR", "toolchain version line"),
		SC_OPT_STRING(0, "lean-sha256", &a.lean_sha256, "HEX", "SHA-256 of bin/lean"),
		SC_OPT_STRING(0, "lake-sha256", &a.lake_sha256, "HEX", "SHA-256 of bin/lake"),
		SC_OPT_STRING(0, "sandbox-user", &a.sandbox_user, "UID:GID",
		              "the user the sandbox ran as"),
		SC_OPT_STRING(0, "server-url", &a.server_url, "URL",
		              "where links point (default " SC_DEFAULT_SERVER_URL ")"),
		SC_OPT_STRING(0, "ci-repository", &a.ci_repository, "OWNER/NAME",
		              "the repository of the CI run"),
		SC_OPT_STRING(0, "ci-run-id", &a.ci_run_id, "ID", "the CI run the report comes from"),
		SC_OPT_BOOL(0, "lake-cache", &a.lake_cache,
		            "the prebuilds read a trusted Lake artifact cache"),
		SC_OPT_STRING(0, "threshold-ratio", &a.ratio, "R", SC_REPORT_HELP_RATIO),
		SC_OPT_STRING(0, "threshold-delta", &a.delta, "S", SC_REPORT_HELP_DELTA),
		SC_OPT_STRING(0, "threshold-added", &a.added, "S", SC_REPORT_HELP_ADDED),
		SC_OPT_LIST_F("attribution", &a.attribution, "FILE",
		              "profile-run --attribute's runs (one a runner); Lean's profiles beside it", 0),
		SC_OPT_STRING(0, "shard", &shard, "K/N", "the report of shard K of a plan dealt among N runners"),
		SC_OPT_STRING(0, "bwrap-sha256", &a.bwrap_sha256, "HEX",
		              "SHA-256 of the bubblewrap a shard's runner used"),
		SC_OPT_LIST_F("shard-run", &shard_runs, "K:ID",
		              "one report of every shard: shard K's samples carry run ID ID", 0),
		SC_OPT_STRING(0, "attribution-seconds", &attribution_seconds, "S",
		              "reading Lean's profiles may take S seconds in all (default "
		              SC_XSTR(SC_ATTR_READ_SECONDS) "); past that, a note"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_set_progname("sc-report");
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	int rc = make_report(&a);
	sc_argv_release(&a.samples);
	sc_argv_release(&a.attribution);
	sc_argv_release(&shard_runs);
	return rc;
}
