/* sc-merge (run as "sphereceti merge"): one report of the workspaces of a
 * plan's shards, each "profile-run --shard K/N"'s (Documentation/
 * measurement.txt "Shards").  In order: the workspaces read and checked
 * (porcelain/merge.h) before anything is written, the output folder
 * claimed, sc-report run on every shard's samples with each shard's run
 * ID, the headline printed.  This file owns the options and the order. */
#include "porcelain/merge.h"
#include "porcelain/stage.h"
#include "report/report_json.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/execdir.h"
#include "util/options.h"
#include "util/safefile.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static const char *const usage[] = {
	"usage: sphereceti merge --out-dir NEWDIR WORKSPACE...",
	"One report (report.json, report.md) of the workspaces of a plan's shards, each",
	"profile-run --shard K/N's; refused unless they are every shard once, of one plan,",
	"measured alike.  See sphereceti help merge.",
	NULL,
};

/* sc-report's arguments: the plan, every shard's samples and run ID, its
 * attribution runs, and the facts its runners recorded alike. */
static void report_args(const struct sc_shard_ws *w, size_t n, const char *out, struct sc_argv *a)
{
	char *plan = xasprintf("%s/plan.json", out);
	sc_argv_push(a, "--plan");
	sc_argv_push_owned(a, plan);
	sc_argv_push(a, "--out-dir");
	sc_argv_push(a, out);
	for (size_t i = 0; i < n; i++) {
		sc_argv_push_owned(a, xasprintf("--samples=%s/samples.jsonl", w[i].dir));
		sc_argv_push_owned(a, xasprintf("--shard-run=%u:%s", w[i].index, w[i].run_id));
		if (w[i].has_attribution)
			sc_argv_push_owned(a, xasprintf("--attribution=%s/attribution.json", w[i].dir));
	}
	const struct { const char *flag, *v; } facts[] = {
		{"--lean-version", w[0].lean_version}, {"--lean-sha256", w[0].lean_sha256},
		{"--lake-sha256", w[0].lake_sha256},   {"--bwrap-sha256", w[0].bwrap_sha256},
		{"--sandbox-user", w[0].sandbox_user}, {"--server-url", w[0].server_url},
		{"--ci-repository", w[0].ci_repository}, {"--ci-run-id", w[0].ci_run_id},
		{"--threshold-ratio", w[0].thresholds[0]}, {"--threshold-delta", w[0].thresholds[1]},
		{"--threshold-added", w[0].thresholds[2]},
	};
	for (size_t i = 0; i < sizeof facts / sizeof *facts; i++)
		if (facts[i].v)
			sc_argv_push_owned(a, xasprintf("%s=%s", facts[i].flag, facts[i].v));
	if (w[0].lake_cache)
		sc_argv_push(a, "--lake-cache");
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-merge");
	sc_check_stdout_at_exit();
	static const char *out;
	static const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "out-dir", &out, "NEWDIR",
		                       "where the merged report goes; must not exist"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	int first = sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_ARGS);
	size_t n = (size_t)(argc - first);
	if (!n)
		sc_die("no workspace to merge: name every shard's (see sphereceti help merge) (argv)");
	struct sc_shard_ws *w = xcalloc(n, sizeof *w);
	struct strbuf why = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		if (sc_shard_ws_read(argv[first + i], &w[i], &why) < 0)
			sc_die("not a finished shard's workspace: %s (%s)", why.buf, argv[first + i]);
	if (sc_shard_ws_check(w, n, &why) < 0)
		sc_die("%s", why.buf);

	if (mkdir(out, 0755) < 0)
		sc_die_path_errno("cannot create the merged report's folder (%s)", out);
	char *plan = xasprintf("%s/plan.json", out);
	sc_write_file_atomic_or_die(plan, w[0].plan.buf, w[0].plan.len, "the plan");
	struct sc_argv a = SC_ARGV_INIT;
	report_args(w, n, out, &a);
	char *dir = sc_exec_dir();
	sc_stage_init_signals();
	int rc = sc_stage_run(dir, "report", a.v, NULL);
	if (rc != 0 && rc != 1)
		sc_stage_die(rc, SC_EXIT_FAIL, "sc-report failed (exit %d); no report was written (%s)",
		             rc, out);
	char *json = xasprintf("%s/report.json", out);
	struct strbuf text = STRBUF_INIT;
	if (sc_report_read_headline(json, &text) == 0)
		printf("%s\nreport: %s/report.md\nreport: %s\n", text.buf, out, json);

	sb_release(&text);
	free(json);
	free(dir);
	free(plan);
	sc_argv_release(&a);
	for (size_t i = 0; i < n; i++)
		sc_shard_ws_free(&w[i]);
	free(w);
	sb_release(&why);
	return rc;
}
