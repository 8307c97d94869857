/* report.json, schema "sphereceti.report/1" (see sc-report(1)). */
#include "util/json.h"
#include "report/mdescape.h"
#include "util/safefile.h"
#include "report/report.h"
#include "version.h"

static void ms_num(yajl_gen g, long long ms) { sc_json_fixed(g, (double)ms / 1000.0, 3); }

static const char *slot_name(enum sc_slot s)
{
	static const char *const names[] = {"unused", "missing", "ok", "error", "rejected"};
	return names[s];
}

static void gen_side(yajl_gen g, const struct sc_report_side *sd)
{
	if (sd->state == SC_SLOT_UNUSED) {
		sc_json_null(g);
		return;
	}
	sc_json_map_open(g);
	sc_json_str(g, "status");
	sc_json_str(g, slot_name(sd->state));
	if (sd->in) {
		sc_json_str(g, "source");
		sc_json_str(g, sd->in->source);
	}
	if (sd->state == SC_SLOT_OK) {
		const char *keys[] = {"cpu_s", "cpu_user_s", "cpu_sys_s", "wall_s"};
		const long long ms[] = {sd->cpu_ms, sd->user_ms, sd->sys_ms, sd->wall_ms};
		for (int i = 0; i < 4; i++) {
			sc_json_str(g, keys[i]);
			ms_num(g, ms[i]);
		}
		sc_json_str(g, "max_rss_kib");
		sc_json_int(g, sd->in->s.max_rss_kib);
	} else if (sd->state == SC_SLOT_ERROR && sd->in) {
		sc_json_str(g, "error");
		sc_json_str(g, sd->in->s.ok ? "out_of_range" : sd->in->s.error);
		sc_json_str(g, "detail");
		sc_json_str_or_null(g, sd->in->s.detail);
	}
	sc_json_map_close(g);
}

static void gen_file(yajl_gen g, const struct sc_report *r, const struct sc_report_file *rf)
{
	const struct sc_plan_file *f = rf->f;
	sc_json_map_open(g);
	sc_plan_file_ident_to_json(g, f);
	sc_json_str(g, "base");
	gen_side(g, &rf->side[SC_SIDE_BASE]);
	sc_json_str(g, "head");
	gen_side(g, &rf->side[SC_SIDE_HEAD]);

	struct strbuf reason = STRBUF_INIT;
	sc_json_str(g, "ratio");
	if (rf->compared && rf->v.has_ratio)
		sc_json_fixed(g, (double)rf->v.ratio_milli / 1000.0, 3);
	else
		sc_json_null(g);
	sc_json_str(g, "delta_s");
	if (rf->compared && f->change == SC_CHANGE_MODIFIED)
		ms_num(g, rf->v.delta_ms);
	else
		sc_json_null(g);
	sc_json_str(g, "flagged");
	if (rf->compared)
		sc_json_bool(g, rf->v.flagged);
	else
		sc_json_null(g);
	sc_json_str(g, "verdict");
	sc_json_str(g, !rf->compared ? "not_compared" : rf->v.flagged ? "flagged" : "not_flagged");
	if (rf->compared)
		sc_verdict_reason(f->change, &rf->v, &r->th, &reason);
	else
		sc_report_not_compared_reason(rf, &reason);
	sc_json_str(g, "reason");
	sc_json_str(g, reason.buf);
	sb_release(&reason);
	sc_json_map_close(g);
}

static void gen_env(yajl_gen g, const struct sc_report_env *e)
{
	sc_json_str(g, "environment");
	sc_json_map_open(g);
	sc_json_str(g, "platform");
	sc_json_str(g, e->platform);
	sc_json_str(g, "machine");
	sc_json_str(g, e->machine);
	sc_json_str(g, "sandbox_user");
	sc_json_str_or_null(g, e->sandbox_user);
	sc_json_str(g, "lean_version");
	sc_json_str_or_null(g, e->lean_version);
	sc_json_str(g, "lean_sha256");
	sc_json_str_or_null(g, e->lean_sha256);
	sc_json_str(g, "lake_sha256");
	sc_json_str_or_null(g, e->lake_sha256);
	sc_json_str(g, "dependencies");
	sc_json_str(g, "operator prepared");
	sc_json_map_close(g);
}

static void gen_limits(yajl_gen g)
{
	sc_json_str(g, "limits");
	sc_json_map_open(g);
	sc_json_str(g, "max_modules");
	sc_json_int(g, SC_MAX_CHANGED_FILES);
	sc_json_str(g, "prebuild_timeout_s");
	sc_json_int(g, SC_LIMIT_PREBUILD_S);
	sc_json_str(g, "sample_timeout_s");
	sc_json_int(g, SC_LIMIT_SAMPLE_S);
	sc_json_str(g, "phase_timeout_s");
	sc_json_int(g, SC_LIMIT_PHASE_S);
	sc_json_str(g, "threads");
	sc_json_int(g, SC_LIMIT_THREADS);
	sc_json_str(g, "text");
	sc_json_str(g, sc_report_limits_text);
	sc_json_map_close(g);
}

void sc_report_to_json(const struct sc_report *r, struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(1);
	sc_json_map_open(g);
	sc_json_str(g, "schema");
	sc_json_str(g, SC_REPORT_SCHEMA);
	sc_json_str(g, "profiler_version");
	sc_json_str(g, SC_VERSION);
	sc_json_str(g, "status");
	sc_json_str(g, sc_report_status(r));
	struct strbuf headline = STRBUF_INIT;
	sc_report_headline(r, 0, &headline);
	sc_json_str(g, "headline");
	sc_json_str(g, headline.buf);
	sb_release(&headline);
	sc_plan_revisions_to_json(g, r->plan);
	sc_json_str(g, "github");
	sc_json_str_or_null(g, r->plan->github);
	sc_json_str(g, "run_id");
	sc_json_str_or_null(g, r->run_id);
	sc_json_str(g, "plan_digest");
	sc_json_str(g, r->plan_digest);

	sc_json_str(g, "thresholds");
	sc_json_map_open(g);
	sc_json_str(g, "ratio");
	ms_num(g, r->th.ratio_milli);
	sc_json_str(g, "delta_s");
	ms_num(g, r->th.delta_ms);
	sc_json_str(g, "added_s");
	ms_num(g, r->th.added_ms);
	sc_json_str(g, "default");
	sc_json_bool(g, sc_thresholds_are_default(&r->th));
	sc_json_map_close(g);

	gen_env(g, &r->env);
	gen_limits(g);

	sc_json_str(g, "prebuild");
	sc_json_map_open(g);
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		sc_json_str(g, sc_side_name(side));
		gen_side(g, &r->prebuild[side]);
	}
	sc_json_map_close(g);

	sc_json_str(g, "files");
	sc_json_array_open(g);
	for (size_t i = 0; i < r->n_files; i++)
		gen_file(g, r, &r->files[i]);
	sc_json_array_close(g);

	sc_json_str(g, "summary");
	sc_json_map_open(g);
	sc_json_str(g, "files");
	sc_json_int(g, (long long)r->n_files);
	sc_json_str(g, "compared");
	sc_json_int(g, (long long)r->n_compared);
	sc_json_str(g, "flagged");
	sc_json_int(g, (long long)r->n_flagged);
	sc_json_str(g, "errors");
	sc_json_int(g, (long long)r->n_problems);
	sc_json_map_close(g);

	sc_json_str(g, "errors");
	sc_json_array_open(g);
	for (size_t i = 0; i < r->n_problems; i++) {
		const struct sc_problem *p = &r->problems[i];
		sc_json_map_open(g);
		sc_json_str(g, "sample");
		sc_json_str(g, p->sample);
		sc_json_str(g, "source");
		sc_json_str_or_null(g, p->source);
		sc_json_str(g, "problem");
		sc_json_str(g, p->kind);
		sc_json_str(g, "detail");
		sc_json_str(g, p->detail);
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	sc_json_map_close(g);
	sc_json_finish(g, out);
}

int sc_report_read_headline(const char *json_path, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT, err = STRBUF_INIT;
	int rc = -1;
	if (sc_read_file(json_path, &raw, 1u << 24) == 0) {
		yajl_val v = sc_json_parse(raw.buf, raw.len, &err);
		const char *line;
		if (v && sc_json_get_str(v, "headline", &line, &err) == 0 &&
		    sc_is_printable_utf8(line)) {
			sb_adds(out, line);
			rc = 0;
		}
		if (v)
			yajl_tree_free(v);
	}
	sb_release(&raw);
	sb_release(&err);
	return rc;
}
