/* sc-report: plan + samples -> report.json and report.md: its option table
 * and one call, sc_report_make (report/make.h).  See sc-report(1). */
#include "report/make.h"
#include "report/report.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/options.h"

static const char *const usage[] = {
	"usage: sc-report --plan FILE --samples FILE... --out-dir DIR [--run-id ID]",
	"                 [--lean-version STR] [--lean-sha256 HEX] [--lake-sha256 HEX]",
	"                 [--sandbox-user UID:GID] [--lake-cache] [--server-url URL]",
	"                 [--ci-repository OWNER/NAME --ci-run-id ID]",
	"                 [--threshold-ratio R] [--threshold-delta S] [--threshold-added S]",
	"",
	"Binds the samples to the plan, applies the CPU thresholds and writes",
	"DIR/report.json and DIR/report.md.  See man sc-report.",
	NULL,
};

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
		SC_OPT_STRING(0, "threshold-ratio", &a.ratio, "R", "head/base ratio (default 1.5)"),
		SC_OPT_STRING(0, "threshold-delta", &a.delta, "S",
		              "head - base seconds (default 30)"),
		SC_OPT_STRING(0, "threshold-added", &a.added, "S",
		              "an added file's seconds (default 150)"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_set_progname("sc-report");
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	int rc = sc_report_make(&a);
	sc_argv_release(&a.samples);
	return rc;
}
