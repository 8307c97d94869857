/* sc-profile-run (run as "sphereceti profile-run"): the whole measurement
 * (porcelain/profile.h): its option table and one call, sc_profile_run. */
#include "contract/limits.h"
#include "porcelain/profile.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/options.h"

static const char *const usage[] = {
	"usage: sphereceti profile-run --repo DIR --tooling T --base B --head H [--merge-of P]",
	"         [--importers N] [--profiler-commit C] [--confirm N] [--attribute]",
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

#define STR_(x) #x
#define STR(x) STR_(x) /* the limits' defaults, spelled once in contract/limits.h */

int main(int argc, char **argv)
{
	sc_set_progname("sc-profile-run");
	sc_check_stdout_at_exit();
	static struct sc_profile_request rq;
	static const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "repo", &rq.o.repo, "DIR", "the repository, read with plumbing only"),
		SC_OPT_REQUIRED_STRING(0, "tooling", &rq.o.tooling, "T", "the trusted tooling commit"),
		SC_OPT_REQUIRED_STRING(0, "base", &rq.o.base, "B", "the base branch tip"),
		SC_OPT_REQUIRED_STRING(0, "head", &rq.o.head, "H", "the candidate head"),
		SC_OPT_STRING(0, "merge-of", &rq.o.merge_of, "P",
		              "H is the merge of P (a pull request's head) into B"),
		SC_OPT_STRING(0, "importers", &rq.o.importers, "N",
		              "also measure up to N unchanged importers of a changed module (0-32)"),
		SC_OPT_STRING(0, "profiler-commit", &rq.o.profiler_commit, "C",
		              "this profiler must be the build of sphereceti's commit C"),
		SC_OPT_STRING(0, "confirm", &rq.confirm, "N",
		              "N more base/head samples of a file near a threshold (0-4; default 0)"),
		SC_OPT_BOOL(0, "attribute", &rq.o.attribute,
		            "each flagged file's time by declaration, from Lean's own profiler (advisory)"),
		SC_OPT_REQUIRED_STRING(0, "workspace", &rq.o.workspace, "NEWDIR",
		                       "the run's directory; must not exist"),
		SC_OPT_REQUIRED_STRING(0, "toolchain", &rq.o.toolchain, "DIR", "the Lean toolchain: bin/lean, bin/lake"),
		SC_OPT_REQUIRED_STRING(0, "dependencies", &rq.o.deps, "DIR",
		                       "prepared checkouts of the manifest's packages"),
		SC_OPT_STRING(0, "cache", &rq.o.lake_cache, "DIR",
		              "a trusted Lake artifact cache, read-only in the sandbox"),
		SC_OPT_STRING(0, "prebuild-timeout", &rq.prebuild_timeout, "S", "per side (default " STR(SC_LIMIT_PREBUILD_S) ")"),
		SC_OPT_STRING(0, "sample-timeout", &rq.sample_timeout, "S", "per sample (default " STR(SC_LIMIT_SAMPLE_S) ")"),
		SC_OPT_STRING(0, "phase-timeout", &rq.phase_timeout, "S", "all samples (default " STR(SC_LIMIT_PHASE_S) ")"),
		SC_OPT_STRING(0, "sandbox-user", &rq.sandbox_user, "USER|UID:GID", "who the sandbox runs as"),
		SC_OPT_STRING(0, "tmp-size", &rq.o.tmp_size, "BYTES", "the sandbox's /tmp and /dev/shm (K, M, G)"),
		SC_OPT_STRING(0, "max-procs", &rq.o.max_procs, "N", "the sandbox's processes (default 4096)"),
		SC_OPT_STRING(0, "bwrap", &rq.o.bwrap, "PATH", "bubblewrap to run (its pin is checked)"),
		SC_OPT_BOOL(0, "keep-logs", &rq.o.keep_logs, "keep Lake's output in NEWDIR/logs/"),
		SC_OPT_STRING(0, "progress-every", &rq.progress_every, "S",
		              "a step still running says so every S seconds (default " STR(SC_PROGRESS_EVERY_S) ")"),
		SC_OPT_BOOL('q', "quiet", &rq.o.quiet, "no progress lines"),
		SC_OPT_STRING(0, "threshold-ratio", &rq.o.thr_ratio, "R", "flag above R times the base"),
		SC_OPT_STRING(0, "threshold-delta", &rq.o.thr_delta, "S", "and S seconds more"),
		SC_OPT_STRING(0, "threshold-added", &rq.o.thr_added, "S", "flag an added file above S seconds"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	return sc_profile_run(&rq);
}
