/* report.json, schema "sphereceti.report/1" (see sc-report(1)). */
#include "util/json.h"
#include "contract/limits.h"
#include "report/mdescape.h"
#include "util/safefile.h"
#include "report/report_json.h"
#include "report/report_attr.h"
#include "report/headline.h"
#include "report/report.h"
#include "version.h"

#include <stdlib.h>

static void kv_ms(yajl_gen g, const char *key, long long ms)
{
	sc_json_kv_fixed(g, key, (double)ms / 1000.0, 3);
}

static const char *slot_name(enum sc_slot s)
{
	static const char *const names[] = {"unused", "missing", "ok", "error", "rejected"};
	return names[s];
}

/* A side's slot under key; null when the side measures nothing. */
static void gen_side(yajl_gen g, const char *key, const struct sc_report_side *sd)
{
	if (sd->state == SC_SLOT_UNUSED) {
		sc_json_kv_null(g, key);
		return;
	}
	sc_json_kv_map_open(g, key);
	sc_json_kv_str(g, "status", slot_name(sd->state));
	if (sd->in)
		sc_json_kv_str(g, "source", sd->in->source);
	if (sd->state == SC_SLOT_OK) {
		const char *keys[] = {"cpu_s", "cpu_user_s", "cpu_sys_s", "wall_s"};
		const long long ms[] = {sd->cpu_ms, sd->user_ms, sd->sys_ms, sd->wall_ms};
		for (int i = 0; i < 4; i++)
			kv_ms(g, keys[i], ms[i]);
		sc_json_kv_int(g, "max_rss_kib", sd->in->s.max_rss_kib);
	} else if (sd->state == SC_SLOT_ERROR && sd->in) {
		sc_json_kv_str(g, "error", sd->in->s.ok ? "out_of_range" : sc_sample_error_name(sd->in->s.error));
		sc_json_kv_str_or_null(g, "detail", sd->in->s.detail);
	}
	sc_json_map_close(g);
}

/* Every sample of a confirmed file (profile-run --confirm): per side the
 * compared CPU of each ok sample, the first one first, and the failed
 * repeats; the verdict of the first samples alone. */
static void gen_confirmation(yajl_gen g, const struct sc_report_file *rf)
{
	sc_json_kv_map_open(g, "confirmation");
	sc_json_kv_str(g, "statistic", "median");
	for (int s = 0; s < 2; s++) {
		const struct sc_report_side *sd = &rf->side[s];
		if (sd->state != SC_SLOT_OK) {
			sc_json_kv_null(g, sc_side_name(s));
			continue;
		}
		sc_json_kv_map_open(g, sc_side_name(s));
		sc_json_kv_array_open(g, "cpu_s");
		for (size_t i = 0; i < sd->n_samples; i++)
			sc_json_fixed(g, (double)sd->samples_ms[i] / 1000.0, 3);
		sc_json_array_close(g);
		sc_json_kv_int(g, "repeats_failed", (long long)sd->n_rep_failed);
		sc_json_map_close(g);
	}
	sc_json_kv_str(g, "first_verdict", rf->first.flagged ? "flagged" : "not_flagged");
	sc_json_kv_bool(g, "overturned", rf->first.flagged != rf->v.flagged);
	sc_json_kv_bool(g, "disputed", rf->disputed);
	sc_json_kv_bool(g, "first_kept", rf->first_kept);
	sc_json_map_close(g);
}

static void gen_file(yajl_gen g, const struct sc_report *r, const struct sc_report_file *rf)
{
	const struct sc_plan_file *f = rf->f;
	sc_json_map_open(g);
	sc_plan_file_ident_to_json(g, f);
	if (f->change == SC_CHANGE_IMPORTER) {
		sc_json_kv_array_open(g, "imports");
		for (size_t i = 0; i < f->n_imports; i++)
			sc_json_str(g, f->imports[i]);
		sc_json_array_close(g);
	}
	gen_side(g, "base", &rf->side[SC_SIDE_BASE]);
	gen_side(g, "head", &rf->side[SC_SIDE_HEAD]);

	if (rf->compared && rf->v.has_ratio)
		sc_json_kv_fixed(g, "ratio", (double)rf->v.ratio_milli / 1000.0, 3);
	else
		sc_json_kv_null(g, "ratio");
	if (rf->compared && (f->change == SC_CHANGE_MODIFIED || f->change == SC_CHANGE_IMPORTER))
		kv_ms(g, "delta_s", rf->v.delta_ms);
	else
		sc_json_kv_null(g, "delta_s");
	if (rf->compared)
		sc_json_kv_bool(g, "flagged", rf->v.flagged);
	else
		sc_json_kv_null(g, "flagged");
	sc_json_kv_str(g, "verdict",
	               !rf->compared ? "not_compared" : rf->v.flagged ? "flagged" : "not_flagged");
	struct strbuf reason = STRBUF_INIT;
	if (rf->compared)
		sc_verdict_reason(f->change, &rf->v, &r->th, &reason);
	else
		sc_report_not_compared_reason(rf, &reason);
	sc_json_kv_str(g, "reason", reason.buf);
	sb_release(&reason);
	if (rf->compared && rf->confirmed)
		gen_confirmation(g, rf);
	sc_json_map_close(g);
}

static void gen_thresholds(yajl_gen g, const struct sc_thresholds *th)
{
	sc_json_kv_map_open(g, "thresholds");
	kv_ms(g, "ratio", th->ratio_milli);
	kv_ms(g, "delta_s", th->delta_ms);
	kv_ms(g, "added_s", th->added_ms);
	sc_json_kv_bool(g, "default", sc_thresholds_are_default(th));
	sc_json_map_close(g);
}

static void gen_env(yajl_gen g, const struct sc_report_env *e, int task_clock)
{
	sc_json_kv_map_open(g, "environment");
	sc_json_kv_str(g, "platform", e->platform);
	sc_json_kv_str(g, "machine", e->machine);
	sc_json_kv_str_or_null(g, "sandbox_user", e->sandbox_user);
	sc_json_kv_str_or_null(g, "lean_version", e->lean_version);
	sc_json_kv_str_or_null(g, "lean_sha256", e->lean_sha256);
	sc_json_kv_str_or_null(g, "lake_sha256", e->lake_sha256);
	sc_json_kv_str(g, "server_url", e->server_url);
	sc_json_kv_str_or_null(g, "ci_repository", e->ci_repository);
	sc_json_kv_str_or_null(g, "ci_run_id", e->ci_run_id);
	if (e->bwrap_sha256) /* a shard's: reports of one runner stay as they were */
		sc_json_kv_str(g, "bwrap_sha256", e->bwrap_sha256);
	sc_json_kv_str(g, "dependencies", "operator prepared");
	sc_json_kv_str_or_null(g, "cpu_counter", task_clock == 1   ? "task_clock_and_rusage"
	                                         : task_clock == 0 ? "rusage_only"
	                                                           : NULL);
	sc_json_kv_str(g, "lake_artifact_cache", e->lake_cache ? "operator prepared, read-only" : "none");
	sc_json_map_close(g);
}

static void gen_limits(yajl_gen g, const struct sc_report *r)
{
	sc_json_kv_map_open(g, "limits");
	sc_json_kv_int(g, "max_modules", sc_plan_max_files(r->plan));
	sc_json_kv_int(g, "prebuild_timeout_s", SC_LIMIT_PREBUILD_S);
	sc_json_kv_int(g, "sample_timeout_s", SC_LIMIT_SAMPLE_S);
	sc_json_kv_int(g, "phase_timeout_s", SC_LIMIT_PHASE_S);
	sc_json_kv_int(g, "threads", SC_LIMIT_THREADS);
	struct strbuf text = STRBUF_INIT;
	sc_report_limits_text(r, &text);
	sc_json_kv_str(g, "text", text.buf);
	sb_release(&text);
	sc_json_map_close(g);
}

/* A shard's report says which shard it is; a merged one, its runners:
 * each one's shard, run ID, files, prebuild and wall time.  Neither
 * member in an unsharded report. */
static void gen_shards(yajl_gen g, const struct sc_report *r)
{
	if (r->shard_n > 1) {
		sc_json_kv_map_open(g, "shard");
		sc_json_kv_int(g, "index", r->shard_k);
		sc_json_kv_int(g, "count", r->shard_n);
		sc_json_map_close(g);
	}
	if (!r->n_runners)
		return;
	sc_json_kv_array_open(g, "runners");
	for (size_t i = 0; i < r->n_runners; i++) {
		const struct sc_report_runner *rn = &r->runners[i];
		sc_json_map_open(g);
		sc_json_kv_int(g, "shard", rn->shard);
		sc_json_kv_str(g, "run_id", rn->run_id);
		sc_json_kv_array_open(g, "files");
		for (size_t k = 0; k < r->n_files; k++)
			if (r->files[k].f->shard == rn->shard)
				sc_json_str(g, r->files[k].f->id);
		sc_json_array_close(g);
		sc_json_kv_map_open(g, "prebuild");
		for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
			gen_side(g, sc_side_name(side), &rn->prebuild[side]);
		sc_json_map_close(g);
		kv_ms(g, "wall_s", rn->wall_ms);
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
}

/* The run: schema, status, headline, revisions, ids. */
static void gen_head(yajl_gen g, const struct sc_report *r)
{
	sc_json_kv_str(g, "schema", SC_REPORT_SCHEMA);
	sc_json_kv_str(g, "profiler_version", SC_VERSION);
	sc_json_kv_str(g, "status", sc_report_status(r));
	struct strbuf headline = STRBUF_INIT;
	sc_report_headline(r, 0, &headline);
	sc_json_kv_str(g, "headline", headline.buf);
	sb_release(&headline);
	sc_plan_rebuild_to_json(g, r->plan);
	sc_plan_revisions_to_json(g, r->plan);
	sc_json_kv_str_or_null(g, "github", r->plan->github);
	sc_json_kv_str_or_null(g, "run_id", r->run_id);
	sc_json_kv_str(g, "plan_digest", r->plan_digest);
	gen_shards(g, r);
	if (!r->plan->importers_limit)
		return;
	size_t measured = 0;
	for (size_t i = 0; i < r->n_files; i++)
		measured += r->files[i].f->change == SC_CHANGE_IMPORTER;
	sc_json_kv_map_open(g, "importers");
	sc_json_kv_int(g, "limit", r->plan->importers_limit);
	sc_json_kv_int(g, "qualified", (long long)r->plan->importers_qualified);
	sc_json_kv_int(g, "measured", (long long)measured);
	sc_json_map_close(g);
}

/* What was measured: the prebuilds, the files, the summary, the problems. */
static void gen_results(yajl_gen g, const struct sc_report *r)
{
	sc_json_kv_map_open(g, "prebuild");
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
		gen_side(g, sc_side_name(side), &r->prebuild[side]);
	sc_json_map_close(g);

	sc_json_kv_array_open(g, "files");
	for (size_t i = 0; i < r->n_files; i++)
		gen_file(g, r, &r->files[i]);
	sc_json_array_close(g);

	sc_json_kv_map_open(g, "summary");
	sc_json_kv_int(g, "files", (long long)r->n_files);
	sc_json_kv_int(g, "compared", (long long)r->n_compared);
	sc_json_kv_int(g, "flagged", (long long)r->n_flagged);
	sc_json_kv_int(g, "errors", (long long)r->n_problems);
	sc_json_map_close(g);

	sc_json_kv_array_open(g, "errors");
	for (size_t i = 0; i < r->n_problems; i++) {
		const struct sc_problem *p = &r->problems[i];
		sc_json_map_open(g);
		sc_json_kv_str(g, "sample", p->sample);
		sc_json_kv_str_or_null(g, "source", p->source);
		sc_json_kv_str(g, "problem", p->kind);
		sc_json_kv_str(g, "detail", p->detail);
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
}

/* One side of an attribution run; null when the file has no such side. */
static void gen_attr_side(yajl_gen g, const struct sc_report_file *rf, int side)
{
	const struct sc_report_attr_side *sd = &rf->attr[side];
	if (!sd->ran) {
		sc_json_kv_null(g, sc_side_name(side));
		return;
	}
	sc_json_kv_map_open(g, sc_side_name(side));
	if (sd->has_figures) {
		kv_ms(g, "cpu_s", sd->cpu_ms);
		kv_ms(g, "wall_s", sd->wall_ms);
	} else {
		sc_json_kv_null(g, "cpu_s");
		sc_json_kv_null(g, "wall_s");
	}
	if (sd->summed) {
		sc_json_kv_fixed(g, "profile_ms", sd->a.total_ms, 1);
		sc_json_kv_fixed(g, "outside_declarations_ms", sd->a.outside_ms, 1);
	} else {
		sc_json_kv_null(g, "profile_ms");
		sc_json_kv_null(g, "outside_declarations_ms");
	}
	sc_json_kv_str_or_null(g, "note", sd->note);
	sc_json_map_close(g);
}

static void gen_attr_rows(yajl_gen g, const struct sc_report_file *rf, int cats)
{
	struct sc_report_attr_row *rows;
	size_t n, grown;
	sc_report_attr_rows(rf, cats, &rows, &n, &grown);
	sc_json_kv_array_open(g, cats ? "categories" : "declarations");
	for (size_t i = 0; i < n; i++) {
		sc_json_map_open(g);
		sc_json_kv_str(g, "name", rows[i].name);
		sc_json_kv_fixed(g, "base_ms", rows[i].base_ms, 1);
		sc_json_kv_fixed(g, "head_ms", rows[i].head_ms, 1);
		if (!cats)
			sc_json_kv_str(g, "change", !rows[i].on_base ? "new" : !rows[i].on_head ? "removed"
			                                                                          : "grown");
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	free(rows);
}

/* profile-run --attribute's figures: apart from every verdict. */
static void gen_attribution(yajl_gen g, const struct sc_report *r)
{
	sc_json_kv_map_open(g, "attribution");
	sc_json_kv_str(g, "source", "Lean's own profiler (trace.profiler), run once more per side "
	                            "in the sandbox: the candidate's figures, forgeable, in no verdict");
	sc_json_kv_array_open(g, "files");
	for (size_t i = 0; i < r->n_files; i++) {
		const struct sc_report_file *rf = &r->files[i];
		if (!rf->attributed)
			continue;
		sc_json_map_open(g);
		sc_json_kv_str(g, "path", rf->f->path);
		gen_attr_side(g, rf, SC_SIDE_BASE);
		gen_attr_side(g, rf, SC_SIDE_HEAD);
		gen_attr_rows(g, rf, 0);
		gen_attr_rows(g, rf, 1);
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	sc_json_map_close(g);
}

void sc_report_to_json(const struct sc_report *r, struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(1);
	sc_json_map_open(g);
	gen_head(g, r);
	gen_thresholds(g, &r->th);
	gen_env(g, &r->env, sc_report_task_clock(r));
	gen_limits(g, r);
	gen_results(g, r);
	if (r->attribution)
		gen_attribution(g, r);
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
