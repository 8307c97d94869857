#include "porcelain/samples.h"
#include "contract/rawsample.h"
#include "porcelain/workspace.h"
#include "util/die.h"
#include "util/safefile.h"

#include <stdlib.h>
#include <string.h>

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

/* Record one sample of this run as the line sc-parse-time would print
 * for it; S becomes that line parsed back (its detail bounded). */
static int add_sample(struct sc_run *r, struct sc_sample *s)
{
	struct strbuf line = STRBUF_INIT, err = STRBUF_INIT;
	sc_run_stop_if_interrupted(r);
	sc_sample_to_json(s, &line);
	sc_sample_free(s);
	if (sc_sample_from_json(line.buf, line.len, s, &err) < 0)
		sc_die_sys("internal: a sample fails its own validation: %s", err.buf);
	sb_release(&err);
	sb_add(&r->samples, line.buf, line.len);
	sb_release(&line);
	if (!s->ok)
		r->measurement_failed = 1;
	return s->ok;
}

/* A sample bound to this run: run ID, plan digest, the side's commit. */
static void bind(const struct sc_run *r, int side, const char *sample, struct sc_sample *s)
{
	memset(s, 0, sizeof *s);
	s->run_id = xstrdup(r->run_id);
	s->plan_digest = xstrdup(r->digest);
	s->revision = xstrdup(sc_plan_side_rev(&r->plan, side));
	s->sample = xstrdup(sample);
}

static void unmeasured_sample(struct sc_run *r, int side, const char *sample, const char *reason,
                              const char *detail)
{
	struct sc_sample s;
	bind(r, side, sample, &s);
	sc_sample_unmeasured(&s, reason, detail);
	add_sample(r, &s);
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
	struct strbuf st = STRBUF_INIT;
	if (sc_read_file(status_file, &st, SC_RAW_INPUT_MAX) < 0)
		sc_die_path_errno("cannot read the status line (%s)", status_file);
	bind(r, side, sample, s);
	sc_sample_from_raw(s, st.buf, st.len, time_file);
	sb_release(&st);
	return add_sample(r, s);
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
