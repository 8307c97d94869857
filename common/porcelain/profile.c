#include "porcelain/profile.h"
#include "report/report_json.h"
#include "report/report.h"
#include "porcelain/precheck.h"
#include "porcelain/stage.h"
#include "porcelain/workspace.h"
#include "util/die.h"
#include "util/safefile.h"
#include "util/sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* The plan, kept byte for byte: its digest binds every sample. */
void sc_run_make_plan(struct sc_run *r)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *revs[] = {"--repo", r->o.repo, "--tooling", r->o.tooling, "--base",
	                      r->o.base, "--head", r->o.head, NULL};
	struct sc_argv args = SC_ARGV_INIT;
	for (const char *const *p = revs; *p; p++)
		sc_argv_push(&args, *p);
	for (size_t i = 0; i < r->o.plan_args.n; i++)
		sc_argv_push(&args, r->o.plan_args.v[i]);
	int rc = sc_stage_run(r->dir, "plan", args.v, &out);
	sc_argv_release(&args);
	sc_run_stop_if_interrupted(r);
	if (rc != 0) /* sc-plan said why; a change it does not measure stays that */
		exit(sc_stage_exit_code(rc, rc == SC_EXIT_POLICY ? SC_EXIT_POLICY : SC_EXIT_USAGE));
	sc_plan_digest(out.buf, out.len, r->digest);
	if (sc_plan_from_json(out.buf, out.len, &r->plan, &err) < 0)
		sc_die_sys("sc-plan wrote an invalid plan: %s", err.buf);
	r->plan_json = out;
	sb_release(&err);

	unsigned char raw[SC_RUN_ID_HEXSZ / 2];
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
		sc_die_sys_errno("cannot draw a run ID (getrandom)");
	sc_hex(raw, sizeof raw, r->run_id);
}

static void make_folder(const char *ws, const char *name, const char *what)
{
	char *path = xasprintf("%s/%s", ws, name);
	if (mkdir(path, 0755) < 0)
		sc_die_sys_errno("cannot create %s (%s)", what, path);
	free(path);
}

/* Both trees from blobs, written side by side; kept in the workspace for
 * inspection. */
void sc_run_materialize_start(struct sc_run *r, struct sc_stage job[2])
{
	char *plan_path = xasprintf("%s/plan.json", r->ws);
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		const char *args[] = {"--repo", r->o.repo, "--commit", sc_plan_side_rev(&r->plan, side),
		                      "--dest", r->steps.tree[side], "--plan", plan_path, NULL};
		sc_stage_start(&job[side], r->dir, "materialize", args, SC_STAGE_ALL_OUTPUT);
	}
	free(plan_path);
}

void sc_run_materialize_finish(struct sc_run *r, struct sc_stage job[2])
{
	/* Both end before either failure is told: dying first would send the
	 * other SIGTERM mid-write, its temporary tree left in a workspace we
	 * just said stays for inspection. */
	struct strbuf out[2] = {STRBUF_INIT, STRBUF_INIT};
	int rc[2];
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
		rc[side] = sc_stage_finish(&job[side], &out[side]);
	sc_run_stop_if_interrupted(r);
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		/* Its stdout is the summary, only written on success; on failure
		 * the output is its error line. */
		if (rc[side] != 0) {
			sc_forward_lines(stderr, out[side].buf, out[side].len);
			/* a tree refused as bad input (past a bound) stays that */
			sc_stage_die(rc[side], rc[side] == SC_EXIT_USAGE ? SC_EXIT_USAGE : SC_EXIT_FAIL,
			             "could not materialize the %s tree (%s)", sc_side_name(side),
			             r->steps.tree[side]);
		}
		sb_release(&out[side]);
	}
	make_folder(r->ws, "raw", "raw counter folder");
	/* Untrusted text lives apart from raw/, which is parsed. */
	if (r->o.sandbox.keep_logs)
		make_folder(r->ws, "logs", "the log folder");
}

/* sc-report's arguments: where everything is, the toolchain, and the
 * thresholds the operator named. */
static void report_args(const struct sc_run *r, const char *plan, const char *samples,
                        const char *attribution, struct sc_argv *a)
{
	const char *fixed[] = {"--plan", plan, "--samples", samples, "--out-dir", r->ws,
	                       "--run-id", r->run_id, "--sandbox-user", r->o.sandbox.user, NULL};
	for (const char *const *p = fixed; *p; p++)
		sc_argv_push(a, *p);
	if (r->o.sandbox.lake_cache)
		sc_argv_push(a, "--lake-cache");
	if (r->o.shard_n > 1) {
		sc_argv_push(a, "--shard");
		sc_argv_push_owned(a, xasprintf("%u/%u", r->o.shard_k, r->o.shard_n));
		sc_argv_push(a, "--bwrap-sha256");
		sc_argv_push(a, r->bwrap_sha256);
	}
	if (attribution) {
		sc_argv_push(a, "--attribution");
		sc_argv_push(a, attribution);
	}
	if (r->tc.version_line) {
		const char *tc[] = {"--lean-version", r->tc.version_line, "--lean-sha256",
		                    r->tc.lean_sha256, "--lake-sha256", r->tc.lake_sha256, NULL};
		for (const char *const *p = tc; *p; p++)
			sc_argv_push(a, *p);
	}
	const struct { const char *v, *flag; } knobs[] = {
		{r->o.thr_ratio, "--threshold-ratio"},
		{r->o.thr_delta, "--threshold-delta"},
		{r->o.thr_added, "--threshold-added"},
		{r->o.server_url, "--server-url"},
		{r->o.ci_repository, "--ci-repository"},
		{r->o.ci_run_id, "--ci-run-id"},
	};
	for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++)
		if (knobs[i].v) {
			sc_argv_push(a, knobs[i].flag);
			sc_argv_push(a, knobs[i].v);
		}
}

/* The report's headline, plain text, where the person looks. */
static void print_headline(const struct sc_run *r, const char *json)
{
	struct strbuf text = STRBUF_INIT;
	if (sc_report_read_headline(json, &text) == 0)
		sc_say(stdout, "", "%s", text.buf);
	sc_say(stdout, "report: ", "%s/report.md", r->ws);
	sc_say(stdout, "report: ", "%s", json);
	sb_release(&text);
}

/* The report; sc-report's exit code is ours, unless a sandbox stage
 * failed as a system. */
int sc_run_report(struct sc_run *r)
{
	char *samples = xasprintf("%s/samples.jsonl", r->ws);
	sc_write_file_atomic_or_die(samples, r->samples.lines.buf, r->samples.lines.len, "samples");
	char *plan = xasprintf("%s/plan.json", r->ws), *attribution = NULL;
	if (r->o.measure.attribute) {
		struct strbuf doc = STRBUF_INIT;
		r->attr.run_id = xstrdup(r->run_id);
		sc_attr_list_to_json(&r->attr, &doc);
		attribution = xasprintf("%s/attribution.json", r->ws);
		sc_write_file_atomic_or_die(attribution, doc.buf, doc.len, "the attribution runs");
		sb_release(&doc);
	}
	struct sc_argv a = SC_ARGV_INIT;
	report_args(r, plan, samples, attribution, &a);
	int rc = sc_stage_run(r->dir, "report", a.v, NULL);
	sc_run_stop_if_interrupted(r);
	sc_argv_release(&a);
	free(plan);
	free(samples);
	free(attribution);
	if (rc != 0 && rc != 1)
		sc_stage_die(rc, SC_EXIT_FAIL, "sc-report failed (exit %d); no report was written (%s)",
		             rc, r->ws);
	/* report.json, written last, is what makes the report whole: an exit 1
	 * without it is not a report. */
	char *json = xasprintf("%s/report.json", r->ws);
	struct stat st;
	if (stat(json, &st) < 0)
		sc_die_fail("sc-report wrote no report.json; the workspace is incomplete (%s)", r->ws);
	sc_workspace_complete(r->ws);
	print_headline(r, json);
	free(json);
	if (r->steps.system_failed)
		return SC_EXIT_SYSTEM;
	return rc == 0 && !r->measurement_failed && !r->samples.failed ? SC_EXIT_OK : SC_EXIT_FAIL;
}

void sc_run_release(struct sc_run *r)
{
	sc_plan_free(&r->plan);
	sc_toolchain_info_free(&r->tc);
	sc_manifest_free(&r->manifest);
	sc_samples_release(&r->samples);
	sc_attr_list_free(&r->attr);
	sb_release(&r->plan_json);
	sc_steps_release(&r->steps);
	free(r->ws);
}
