/* sc-profile-run (run as "sphereceti profile-run"): the whole measurement
 * (run/profile.h).  This file is its option table. */
#include "contract/limits.h"
#include "contract/plan.h"
#include "report/report_args.h"
#include "porcelain/profile.h"
#include "porcelain/state.h"
#include "sandbox/sandbox_args.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/execdir.h"
#include "util/options.h"
#include "util/seconds.h"

#include <stdlib.h>

static const char *const usage[] = {
	"usage: sphereceti profile-run --repo DIR --tooling T --base B --head H",
	"         --workspace NEWDIR --toolchain DIR --dependencies DIR [--cache DIR]",
	"         [--prebuild-timeout S] [--sample-timeout S] [--phase-timeout S]",
	"         [--sandbox-user USER|UID:GID] [--tmp-size BYTES] [--max-procs N] [--bwrap PATH]",
	"         [--keep-logs] [--quiet]",
	"         [--threshold-ratio R] [--threshold-delta S] [--threshold-added S]",
	"T, B, H: full commit object IDs.  Thresholds (defaults 1.5, 30 s, 150 s) are",
	"for scaled-down demonstrations;",
	"the report states them.  See sphereceti help profile-run.",
	NULL,
};

#define STR_(x) #x
#define STR(x) STR_(x) /* the limits' defaults, spelled once in contract/limits.h */

/* What the table collects as text, validated after parsing. */
struct raw {
	const char *prebuild, *sample, *phase, *user;
};

static double seconds(const char *s, const char *flag, double dflt)
{
	double v = dflt;
	if (s && sc_parse_seconds(s, &v) < 0)
		sc_die("%s wants seconds between 0 and %d (%s %s)", flag, SC_SECONDS_MAX, flag, s);
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

static void validate(struct sc_run_opts *o, const struct raw *raw)
{
	o->prebuild_timeout = seconds(raw->prebuild, "--prebuild-timeout", SC_LIMIT_PREBUILD_S);
	o->sample_timeout = seconds(raw->sample, "--sample-timeout", SC_LIMIT_SAMPLE_S);
	o->phase_timeout = seconds(raw->phase, "--phase-timeout", SC_LIMIT_PHASE_S);
	struct strbuf err = STRBUF_INIT;
	if (sc_sandbox_user(raw->user, &o->sandbox_uid, &o->sandbox_gid, &err) < 0)
		sc_die("%s", err.buf);
	o->sandbox_user = xasprintf("%u:%u", o->sandbox_uid, o->sandbox_gid);
	struct sc_thresholds th;
	if (sc_report_thresholds_check(o->thr_ratio, o->thr_delta, o->thr_added, &th, &err) < 0)
		sc_die("%s", err.buf);
	links(o, &err);
	unsigned long long bytes;
	if (o->tmp_size && sc_sandbox_tmp_size(o->tmp_size, &bytes) < 0)
		sc_die("--tmp-size wants bytes (K, M, G suffixes allowed), at least 1M (--tmp-size %s)",
		       o->tmp_size);
	unsigned n;
	if (o->max_procs && sc_sandbox_max_procs(o->max_procs, &n) < 0)
		sc_die("--max-procs wants a count from %u to 4194304 (--max-procs %s)", SC_SANDBOX_MAX_PROCS_MIN,
		       o->max_procs);
	sb_release(&err);
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-profile-run");
	sc_check_stdout_at_exit();
	struct sc_run_opts o = {0};
	struct raw raw = {0};
	const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "repo", &o.repo, "DIR", "the repository, read with plumbing only"),
		SC_OPT_REQUIRED_STRING(0, "tooling", &o.tooling, "T", "the trusted tooling commit"),
		SC_OPT_REQUIRED_STRING(0, "base", &o.base, "B", "the base branch tip"),
		SC_OPT_REQUIRED_STRING(0, "head", &o.head, "H", "the candidate head"),
		SC_OPT_REQUIRED_STRING(0, "workspace", &o.workspace, "NEWDIR",
		                       "the run's directory; must not exist"),
		SC_OPT_REQUIRED_STRING(0, "toolchain", &o.toolchain, "DIR", "the Lean toolchain: bin/lean, bin/lake"),
		SC_OPT_REQUIRED_STRING(0, "dependencies", &o.deps, "DIR",
		                       "prepared checkouts of the manifest's packages"),
		SC_OPT_STRING(0, "cache", &o.lake_cache, "DIR",
		              "a trusted Lake artifact cache, read-only in the sandbox"),
		SC_OPT_STRING(0, "prebuild-timeout", &raw.prebuild, "S", "per side (default " STR(SC_LIMIT_PREBUILD_S) ")"),
		SC_OPT_STRING(0, "sample-timeout", &raw.sample, "S", "per sample (default " STR(SC_LIMIT_SAMPLE_S) ")"),
		SC_OPT_STRING(0, "phase-timeout", &raw.phase, "S", "all samples (default " STR(SC_LIMIT_PHASE_S) ")"),
		SC_OPT_STRING(0, "sandbox-user", &raw.user, "USER|UID:GID", "who the sandbox runs as"),
		SC_OPT_STRING(0, "tmp-size", &o.tmp_size, "BYTES", "the sandbox's /tmp and /dev/shm (K, M, G)"),
		SC_OPT_STRING(0, "max-procs", &o.max_procs, "N", "the sandbox's processes (default 4096)"),
		SC_OPT_STRING(0, "bwrap", &o.bwrap, "PATH", "bubblewrap to run (its pin is checked)"),
		SC_OPT_BOOL(0, "keep-logs", &o.keep_logs, "keep Lake's output in NEWDIR/logs/"),
		SC_OPT_BOOL('q', "quiet", &o.quiet, "no progress lines"),
		SC_OPT_STRING(0, "threshold-ratio", &o.thr_ratio, "R", "flag above R times the base"),
		SC_OPT_STRING(0, "threshold-delta", &o.thr_delta, "S", "and S seconds more"),
		SC_OPT_STRING(0, "threshold-added", &o.thr_added, "S", "flag an added file above S seconds"),
		SC_OPT_END(),
	};
	const struct sc_command cmd = {usage, NULL};
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	validate(&o, &raw);
	char *dir = sc_exec_dir();
	int rc = sc_profile_run(&o, dir);
	free((char *)o.sandbox_user);
	free(dir);
	return rc;
}
