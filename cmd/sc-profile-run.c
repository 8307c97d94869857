/* sc-profile-run (run as "sphereceti profile-run"): the whole measurement
 * (Documentation/architecture.txt "Shape"), read top to bottom in run():
 * the host checked, the plan made, the preconditions checked while the
 * self-test runs, the workspace claimed, both trees written, both sides
 * measured, the report.  This file owns the options and their checks; the
 * phases are porcelain/'s, on typed values. */
#include "contract/limits.h"
#include "planning/compose.h"
#include "porcelain/precheck.h"
#include "porcelain/profile.h"
#include "porcelain/side.h"
#include "porcelain/stage.h"
#include "porcelain/workspace.h"
#include "report/report_args.h"
#include "sandbox/sandbox_args.h"
#include "sandbox/sandbox_opts.h"
#include "sandbox/user.h"
#include "util/closeout.h"
#include "util/decimal.h"
#include "util/die.h"
#include "util/execdir.h"
#include "util/options.h"
#include "util/seconds.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage[] = {
	"usage: sphereceti profile-run --repo DIR --tooling T --base B --head H [--merge-of P]",
	"         [--importers N] [--profiler-commit C] [--confirm N] [--attribute] [--shard K/N]",
	"         --workspace NEWDIR --toolchain DIR --dependencies DIR [--cache DIR]",
	"         [--prebuild-timeout S] [--sample-timeout S] [--phase-timeout S]",
	"         [--sandbox-user USER|UID:GID] [--tmp-size BYTES] [--max-procs N] [--bwrap PATH]",
	"         [--keep-logs] [--progress-every S] [--quiet]",
	"         [--threshold-ratio R] [--threshold-delta S] [--threshold-added S]",
	"T, B, H: full commit object IDs.  Thresholds (defaults 1.5, 30 s, 150 s) are",
	"for scaled-down demonstrations;",
	"the report states them.  See sphereceti help profile-run.",
	NULL,
};

/* What the option table fills in: the run's options as given (O), and the
 * text that check_options converts into O. */
struct request {
	struct sc_run_opts o;
	const char *prebuild_timeout, *sample_timeout, *phase_timeout; /* seconds */
	const char *progress_every;                                    /* seconds */
	const char *confirm;                                           /* 0-4 */
	const char *shard;                                             /* K/N */
};

static double seconds(const char *s, const char *flag, double dflt)
{
	double v = dflt;
	if (s && sc_parse_seconds(s, &v) < 0)
		sc_die("%s wants seconds above 0, at most %d (%s %s)", flag, SC_SECONDS_MAX, flag, s);
	return v;
}

static const char *env_fact(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* In GitHub Actions the report links to the run and to the server the
 * repository lives on (GitHub Enterprise has its own). */
static void links(struct sc_run_opts *o, struct strbuf *err)
{
	static const char *const names[3] = {"GITHUB_SERVER_URL", "GITHUB_REPOSITORY",
	                                     "GITHUB_RUN_ID"};
	o->server_url = env_fact(names[0]);
	o->ci_repository = env_fact(names[1]);
	o->ci_run_id = env_fact(names[2]);
	if (sc_report_links_check(o->server_url, o->ci_repository, o->ci_run_id, names, err) < 0)
		sc_die("%s", err->buf);
}

/* The options, checked before anything runs, each with the words its own
 * stage uses (sc-report's, sc-sandbox-exec's), converted into RQ->o. */
static void check_options(struct request *rq)
{
	struct sc_run_opts *o = &rq->o;
	struct sc_measure_opts *mo = &o->measure;
	mo->prebuild_timeout = seconds(rq->prebuild_timeout, "--prebuild-timeout", SC_LIMIT_PREBUILD_S);
	mo->sample_timeout = seconds(rq->sample_timeout, "--sample-timeout", SC_LIMIT_SAMPLE_S);
	mo->phase_timeout = seconds(rq->phase_timeout, "--phase-timeout", SC_LIMIT_PHASE_S);
	o->sandbox.progress_every = seconds(rq->progress_every, "--progress-every", SC_PROGRESS_EVERY_S);
	struct strbuf err = STRBUF_INIT;
	if (sc_sandbox_opts_finish(&o->sandbox.sb, &err) < 0)
		sc_die("%s", err.buf);
	o->sandbox.user = xasprintf("%u:%u", o->sandbox.sb.uid, o->sandbox.sb.gid);
	struct sc_thresholds th;
	static const char *const thresholds[3] = {"--threshold-ratio", "--threshold-delta",
	                                          "--threshold-added"};
	if (sc_report_thresholds_check(o->thr_ratio, o->thr_delta, o->thr_added, thresholds, &th,
	                               &err) < 0)
		sc_die("%s", err.buf);
	sc_display_init(&th, &mo->display);
	mo->th = th;
	if (rq->confirm && sc_decimal_uint(rq->confirm, 0, SC_MAX_REPEATS, &mo->confirm) < 0)
		sc_die("--confirm wants a count of repeats from 0 to %d (--confirm %s)", SC_MAX_REPEATS,
		       rq->confirm);
	o->shard_k = o->shard_n = 1;
	if (rq->shard && sc_shard_parse(rq->shard, &o->shard_k, &o->shard_n) < 0)
		sc_die("--shard wants K/N, 1 <= K <= N <= %d (--shard %s)", SC_MAX_SHARDS, rq->shard);
	if (o->shard_n > 1) { /* every runner makes the same plan: sc-plan deals alike */
		sc_argv_push(&o->plan_args, "--shards");
		sc_argv_push_owned(&o->plan_args, xasprintf("%u", o->shard_n));
	}
	links(o, &err);
	o->sandbox.keep_logs_hint = "rerun with --keep-logs to keep Lake's output";
	sb_release(&err);
}

/* Both sides measured, with what the measurement uses of the run; both
 * trees stay open to the end when repeats or attribution runs follow the
 * first samples (side.h). */
static int measure(struct sc_run *r)
{
	const struct sc_recorder rec = {&r->samples, &r->progress, &r->o.measure.display, r->ws};
	const struct sc_preflight pf = {&r->plan, &r->manifest, r->tc.version_line,
	                                r->o.measure.prebuild_timeout};
	const struct sc_measure m = {&r->plan, &r->o.measure, &r->steps, &rec, &pf};
	if (r->o.measure.confirm || r->o.measure.attribute)
		return sc_measure_in_lockstep(&m, &r->attr);
	return sc_measure_in_turn(&m);
}

/* Shard K's files alone measured: the plan's files of other shards are
 * other runners' (Documentation/measurement.txt "Shards"). */
static void keep_shard(struct sc_run *r)
{
	struct strbuf err = STRBUF_INIT;
	if (sc_plan_keep_shard(&r->plan, r->o.shard_k, r->o.shard_n, &err) < 0)
		sc_die("%s: sc-plan dealt its files among fewer runners (--shard %u/%u)", err.buf,
		       r->o.shard_k, r->o.shard_n);
	sb_release(&err);
}

/* The run's phases in order, with the stages in DIR.  Returns the exit
 * code (porcelain/profile.h sc_run_report); every other outcome dies: 2
 * bad input or an unmet precondition, 3 a system failure, 4 not measured
 * by policy, 128+N interrupted by signal N. */
static int run(const struct sc_run_opts *o, const char *dir)
{
	struct sc_run r = {.o = *o, .dir = dir, .plan_json = STRBUF_INIT,
	                   .progress = {.quiet = o->quiet}};
	sc_steps_init(&r.steps, &r.o.sandbox, dir, &r.progress);
	sc_stage_init_signals();

	sc_check_host(&r.o);
	sc_run_make_plan(&r);
	keep_shard(&r);
	sc_samples_init(&r.samples, &r.plan, r.run_id, r.digest);
	r.samples.shard = o->shard_n > 1 ? o->shard_k : 0;
	sc_check_sandbox(&r.o, &r.plan, dir);
	if (o->shard_n > 1)
		sc_check_bwrap_sha256(&r.o, r.bwrap_sha256);
	struct sc_stage self_test;
	sc_start_self_test(&r.o.sandbox, dir, &self_test);
	sc_check_inputs(&r.o, &r.plan, &r.tc, &r.manifest);
	/* A fresh workspace, claimed with mkdir so two runs can never share
	 * it; from here on an error line says that the folder must be
	 * removed. */
	r.ws = sc_workspace_claim(r.o.workspace, r.plan_json.buf, r.plan_json.len);
	sc_steps_set_workspace(&r.steps, r.ws);
	if (!r.plan.no_changes) {
		struct sc_stage trees[2];
		sc_run_materialize_start(&r, trees);
		/* the self-test's failure is told before a tree's */
		sc_check_finish(&self_test, r.ws, 1);
		sc_run_materialize_finish(&r, trees);
		sc_workspace_reserve(r.ws);
		sc_workspace_restrict(r.ws, geteuid() == 0 ? (long)r.o.sandbox.sb.gid : -1);
		r.measurement_failed = measure(&r) < 0;
		sc_workspace_restrict(r.ws, -1);
	} else {
		sc_check_finish(&self_test, r.ws, 1);
		/* sc-plan has already warned that the head is in the base. */
		if (!r.o.quiet && strcmp(r.plan.merge_base, r.plan.head) != 0)
			sc_say(stderr, "", "no changed library or roadmap Lean files: nothing to measure");
	}
	if (r.ws)
		sc_workspace_unreserve(r.ws); /* the report's room */
	int rc = sc_run_report(&r);
	sc_run_release(&r);
	return rc;
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-profile-run");
	sc_check_stdout_at_exit();
	static struct request rq;
	static const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "repo", &rq.o.repo, "DIR", SC_PLAN_HELP_REPO),
		SC_OPT_REQUIRED_STRING(0, "tooling", &rq.o.tooling, "T", SC_PLAN_HELP_TOOLING),
		SC_OPT_REQUIRED_STRING(0, "base", &rq.o.base, "B", SC_PLAN_HELP_BASE),
		SC_OPT_REQUIRED_STRING(0, "head", &rq.o.head, "H", SC_PLAN_HELP_HEAD),
		SC_OPT_PASSTHRU("merge-of", &rq.o.plan_args, "P", SC_PLAN_HELP_MERGE_OF),
		SC_OPT_PASSTHRU("importers", &rq.o.plan_args, "N", SC_PLAN_HELP_IMPORTERS),
		SC_OPT_PASSTHRU("profiler-commit", &rq.o.plan_args, "C", SC_PLAN_HELP_PROFILER_COMMIT),
		SC_OPT_STRING(0, "confirm", &rq.confirm, "N",
		              "N more base/head samples of a file near a threshold (0-4; default 0)"),
		SC_OPT_BOOL(0, "attribute", &rq.o.measure.attribute,
		            "each flagged file's time by declaration, from Lean's own profiler (advisory)"),
		SC_OPT_STRING(0, "shard", &rq.shard, "K/N",
		              "measure shard K of the plan sc-plan deals among N runners (default 1/1)"),
		SC_OPT_REQUIRED_STRING(0, "workspace", &rq.o.workspace, "NEWDIR",
		                       "the run's directory; must not exist"),
		SC_OPT_REQUIRED_STRING(0, "toolchain", &rq.o.sandbox.toolchain, "DIR", SC_SANDBOX_HELP_TOOLCHAIN),
		SC_OPT_REQUIRED_STRING(0, "dependencies", &rq.o.sandbox.deps, "DIR", SC_SANDBOX_HELP_DEPS),
		SC_OPT_STRING(0, "cache", &rq.o.sandbox.lake_cache, "DIR", SC_SANDBOX_HELP_CACHE),
		SC_OPT_STRING(0, "prebuild-timeout", &rq.prebuild_timeout, "S", "per side (default " SC_XSTR(SC_LIMIT_PREBUILD_S) ")"),
		SC_OPT_STRING(0, "sample-timeout", &rq.sample_timeout, "S", "per sample (default " SC_XSTR(SC_LIMIT_SAMPLE_S) ")"),
		SC_OPT_STRING(0, "phase-timeout", &rq.phase_timeout, "S", "all samples (default " SC_XSTR(SC_LIMIT_PHASE_S) ")"),
		SC_OPT_SANDBOX_USER(&rq.o.sandbox.sb),
		SC_OPT_SANDBOX_TMP_SIZE(&rq.o.sandbox.sb),
		SC_OPT_SANDBOX_MAX_PROCS(&rq.o.sandbox.sb),
		SC_OPT_STRING(0, "bwrap", &rq.o.sandbox.bwrap, "PATH", SC_SANDBOX_HELP_BWRAP),
		SC_OPT_BOOL(0, "keep-logs", &rq.o.sandbox.keep_logs, "keep Lake's output in NEWDIR/logs/"),
		SC_OPT_STRING(0, "progress-every", &rq.progress_every, "S",
		              "a step still running says so every S seconds (default " SC_XSTR(SC_PROGRESS_EVERY_S) ")"),
		SC_OPT_BOOL('q', "quiet", &rq.o.quiet, "no progress lines"),
		SC_OPT_STRING(0, "threshold-ratio", &rq.o.thr_ratio, "R", SC_REPORT_HELP_RATIO),
		SC_OPT_STRING(0, "threshold-delta", &rq.o.thr_delta, "S", SC_REPORT_HELP_DELTA),
		SC_OPT_STRING(0, "threshold-added", &rq.o.thr_added, "S", SC_REPORT_HELP_ADDED),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	check_options(&rq);
	char *dir = sc_exec_dir();
	int rc = run(&rq.o, dir);
	free((char *)rq.o.sandbox.user);
	sc_argv_release(&rq.o.plan_args);
	free(dir);
	return rc;
}
