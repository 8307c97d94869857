#include "run/samples.h"
#include "run/stage.h"
#include "run/workspace.h"
#include "util/die.h"

#include <stdlib.h>

char *sc_run_fmt_seconds(double s) { return xasprintf("%.*f", s < 10 ? 2 : 1, s); }

char *sc_run_log_path(const struct sc_run *r, int side, const char *name)
{
	char *stem = sc_workspace_stem(sc_side_name(side), name);
	char *path = xasprintf("%s/logs/%s.log", r->ws, stem);
	free(stem);
	return path;
}

char *sc_run_output_hint(const struct sc_run *r, int side, const char *name)
{
	if (!r->o.keep_logs)
		return xstrdup("rerun with --keep-logs to keep Lake's output");
	char *stem = sc_workspace_stem(sc_side_name(side), name);
	char *hint = xasprintf("Lake's output: logs/%s.log", stem);
	free(stem);
	return hint;
}

/* Record one sample line produced by sc-parse-time; returns it parsed. */
static int add_sample(struct sc_run *r, const struct strbuf *line, struct sc_sample *s)
{
	struct strbuf err = STRBUF_INIT;
	if (sc_sample_from_json(line->buf, line->len, s, &err) < 0)
		sc_die_sys("sc-parse-time wrote an invalid sample: %s", err.buf);
	sb_release(&err);
	sb_add(&r->samples, line->buf, line->len);
	if (!s->ok)
		r->measurement_failed = 1;
	return s->ok;
}

/* sc-parse-time with ARGS (bound to this run by the caller); exit 0 wrote
 * an ok sample, 1 an error sample. */
static int parse_time(struct sc_run *r, const char *const *args, const char *sample,
                      struct sc_sample *s)
{
	struct strbuf out = STRBUF_INIT;
	int rc = sc_stage_run(r->dir, "parse-time", args, &out);
	sc_run_stop_if_interrupted(r);
	if (rc != 0 && rc != 1)
		sc_stage_die(rc, SC_EXIT_FAIL, "sc-parse-time failed with exit %d (%s)", rc, sample);
	int ok = add_sample(r, &out, s);
	sb_release(&out);
	return ok;
}

static void unmeasured_sample(struct sc_run *r, int side, const char *sample, const char *reason,
                              const char *detail)
{
	const char *args[] = {"--unmeasured", reason, "--detail", detail, "--run-id", r->run_id,
	                      "--plan-digest", r->digest, "--revision",
	                      sc_plan_side_rev(&r->plan, side), "--sample", sample, NULL};
	struct sc_sample s;
	parse_time(r, args, sample, &s);
	sc_sample_free(&s);
}

void sc_run_unmeasured(struct sc_run *r, int side, const struct sc_plan_file *f,
                       const char *reason, const char *detail)
{
	char *sample = xasprintf("%s:%s", sc_side_name(side), f->id);
	unmeasured_sample(r, side, sample, reason, detail);
	free(sample);
}

int sc_run_parse_raw(struct sc_run *r, int side, const char *sample, const char *time_file,
                     const char *status_file, struct sc_sample *s)
{
	const char *args[] = {"--time-file", time_file, "--status", status_file, "--run-id",
	                      r->run_id, "--plan-digest", r->digest, "--revision",
	                      sc_plan_side_rev(&r->plan, side), "--sample", sample, NULL};
	return parse_time(r, args, sample, s);
}

void sc_run_prebuild_sample(struct sc_run *r, int side, int rc, const char *time_file,
                            const char *status_file)
{
	char *sample = xasprintf("%s:" SC_PREBUILD_ID, sc_side_name(side));
	if (rc == 0 || rc == 1) {
		struct sc_sample s;
		sc_run_parse_raw(r, side, sample, time_file, status_file, &s);
		sc_sample_free(&s);
	} else {
		unmeasured_sample(r, side, sample, "sandbox_failed",
		                  "sc-sandbox-exec could not run the prebuild");
	}
	free(sample);
}

void sc_run_prebuild_unmeasured(struct sc_run *r, int side, const char *reason, const char *detail)
{
	char *sample = xasprintf("%s:" SC_PREBUILD_ID, sc_side_name(side));
	unmeasured_sample(r, side, sample, reason, detail);
	free(sample);
}
