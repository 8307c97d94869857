/* The sides' measurement, read top-down, in one of two modes that the
 * command chooses: the sides in turn, or (with --confirm or --attribute)
 * both layer by layer.  A side opens (its tree handed over, the preflight
 * and the checks of T's configuration: preflight.c), then each layer is
 * prebuilt and its selected files sampled, each sample recorded or why
 * not; confirmation repeats follow a layer, and a full disk makes every
 * later step disk_full.  Each mode numbers its own progress steps. */
#include "porcelain/side.h"
#include "contract/rawsample.h"
#include "porcelain/attribute.h"
#include "porcelain/order.h"
#include "porcelain/prebuild.h"
#include "porcelain/schedule.h"
#include "porcelain/seal.h"
#include "util/die.h"
#include "util/spawn.h"

#include <stdlib.h>

/* Both sides' import orders, read before anything runs so that the
 * progress lines count every step, each prebuild layer too, once. */
struct sides {
	size_t on[2]; /* the side's selected files */
	struct sc_order order[2];
	int n_layers[2];
	int layers; /* the larger side's, at least 1 */
};

/* One side's measurement under way. */
struct side_state {
	const struct sc_order *order;
	struct sc_prebuilt pb;
	char *sampled; /* per plan file: its first sample of this side is done */
	enum sc_prebuild_outcome built; /* what the latest prebuild layer came to */
};

static void sides_read(const struct sc_measure *m, struct sides *sd);
static void sides_free(const struct sc_measure *m, struct sides *sd);
static void side_open(const struct sc_measure *m, int side, struct side_state *ss,
                      int *config_checked);
static double side_layer(const struct sc_measure *m, int side, struct side_state *ss, int layer,
                         double phase_used);
static void side_close(const struct sc_measure *m, int side, struct side_state *ss);
static int give_back(const struct sc_steps *steps, int side);
static double confirm_layer(const struct sc_measure *m, struct side_state ss[2], const int open[2],
                            int layer, double phase_used);
static void all_disk_full(const struct sc_measure *m, int side, const struct sc_order *order);
static void checked_sample(const struct sc_measure *m, int side, const struct sc_plan_file *f,
                           unsigned repeat, const char *violated, double left);

static int layers_of(const struct sides *sd, int side)
{
	return sd->n_layers[side] ? sd->n_layers[side] : 1;
}

int sc_measure_in_turn(const struct sc_measure *m)
{
	struct sides sd;
	sides_read(m, &sd);
	int config_checked = 0, kept = 0;
	double phase_used = 0;
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		if (!sd.on[side])
			continue;
		sc_progress_next(m->rec->progress); /* the prebuild's step, its preflight first */
		if (m->steps->disk_full) {
			all_disk_full(m, side, &sd.order[side]);
			continue;
		}
		struct side_state ss = {.order = &sd.order[side]};
		side_open(m, side, &ss, &config_checked);
		for (int layer = 0; layer < layers_of(&sd, side); layer++)
			phase_used = side_layer(m, side, &ss, layer, phase_used);
		side_close(m, side, &ss);
		kept |= give_back(m->steps, side);
	}
	sides_free(m, &sd);
	return kept;
}

/* Both trees stay open to the end, so that a file near a threshold is
 * sampled again right after both its first samples, before any later
 * prebuild runs candidate code that could leave something its repeats
 * would find (Documentation/measurement.txt "Confirmation"), and the
 * attribution runs come after every first sample. */
int sc_measure_in_lockstep(const struct sc_measure *m, struct sc_attr_list *attr)
{
	struct sides sd;
	sides_read(m, &sd);
	struct side_state ss[2] = {{.order = &sd.order[0]}, {.order = &sd.order[1]}};
	int open[2] = {0, 0}, config_checked = 0, kept = 0;
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		if (!sd.on[side])
			continue;
		if (m->steps->disk_full) {
			sc_progress_next(m->rec->progress); /* its first layer's step */
			all_disk_full(m, side, &sd.order[side]);
			continue;
		}
		side_open(m, side, &ss[side], &config_checked);
		open[side] = 1;
	}
	double phase_used = 0;
	for (int layer = 0; layer < sd.layers; layer++) {
		for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
			if (open[side] && layer < layers_of(&sd, side)) {
				if (layer == 0)
					sc_progress_next(m->rec->progress);
				phase_used = side_layer(m, side, &ss[side], layer, phase_used);
			}
		if (m->o->confirm)
			phase_used = confirm_layer(m, ss, open, layer, phase_used);
	}
	if (m->o->attribute)
		phase_used = sc_attribute_flagged(m, open, phase_used, attr);
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
		if (open[side]) {
			side_close(m, side, &ss[side]);
			kept |= give_back(m->steps, side);
		}
	sides_free(m, &sd);
	return kept;
}

static void sides_read(const struct sc_measure *m, struct sides *sd)
{
	*sd = (struct sides){.layers = 1};
	sc_schedule_sides(m->plan, sd->on);
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
		if (sd->on[side]) {
			sc_order_side(m->plan, m->steps->tree[side], side, &sd->order[side]);
			sd->n_layers[side] = sd->order[side].n_layers;
			if (sd->n_layers[side] > sd->layers)
				sd->layers = sd->n_layers[side];
		}
	m->rec->progress->steps = sc_schedule_steps(sd->on, sd->n_layers);
}

static void sides_free(const struct sc_measure *m, struct sides *sd)
{
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
		if (sd->on[side])
			sc_order_free(&sd->order[side], m->plan->n_files);
}

/* The side's tree goes to the sandbox user, Lake loads it (preflight), and
 * T's configuration is asked once for both sides (CONFIG_CHECKED). */
static void side_open(const struct sc_measure *m, int side, struct side_state *ss,
                      int *config_checked)
{
	sc_seal_prepare_tree(m->steps, side);
	sc_preflight_side(m->steps, side, m->pf);
	if (!*config_checked) {
		sc_preflight_check_config(m->steps, side, m->pf);
		*config_checked = 1;
	}
	ss->pb = (struct sc_prebuilt){.side = side, .order = ss->order};
	ss->sampled = xcalloc(m->plan->n_files + 1, 1);
}

/* One selected file of the side, its prebuild layer done (BUILT as
 * prebuild returns it): sampled between two checks of the tree, or why
 * not. */
static void measure_file(const struct sc_measure *m, int side, const struct sc_plan_file *f,
                         const struct side_state *ss, double phase_start, const char *violated)
{
	sc_progress_next(m->rec->progress);
	if (!m->steps->disk_full && ss->built != SC_PREBUILD_BUILT) {
		int late = ss->built == SC_PREBUILD_TIMED_OUT;
		const char *name = *ss->pb.failed ? ss->pb.failed : "prebuild";
		char *hint = sc_step_output_hint(m->steps, side, name);
		char *detail = xasprintf("lake build of this side's selected modules %s (%s)",
		                         late ? "ran out of time" : "failed", hint);
		sc_recorder_unmeasured(m->rec, side, f,
		                       late ? SC_ERR_PREBUILD_TIMEOUT : SC_ERR_PREBUILD_FAILED, detail,
		                       late ? "not run (prebuild_timeout)" : "not run (prebuild failed)");
		free(detail);
		free(hint);
		return;
	}
	double left = sc_phase_left(m->o->phase_timeout, phase_start, sc_monotonic_now());
	checked_sample(m, side, f, 0, violated, left);
}

/* One layer: its imports built (prebuild), then each of its selected files
 * sampled between two checks of the tree.  The phase budget covers timed
 * samples only, never the prebuilds; its clock runs on across layers and
 * sides.  Returns the budget used so far. */
static double side_layer(const struct sc_measure *m, int side, struct side_state *ss, int layer,
                         double phase_used)
{
	const struct sc_order *order = ss->order;
	const char *tree = m->steps->tree[side];
	struct strbuf violated = STRBUF_INIT;
	ss->built = sc_prebuild_layer(m, &ss->pb, layer);
	double phase_start = sc_phase_resume(phase_used, sc_monotonic_now());
	for (size_t i = 0; i < m->plan->n_files; i++) {
		if (order->layer[i] != layer)
			continue;
		sb_reset(&violated);
		sc_order_violated(m->plan, order, tree, side, layer, ss->sampled, &violated);
		measure_file(m, side, &m->plan->files[i], ss, phase_start,
		             violated.len ? violated.buf : NULL);
		ss->sampled[i] = 1;
	}
	sb_release(&violated);
	return sc_monotonic_now() - phase_start;
}

/* The side's prebuild sample, and a line for each file whose import cone
 * could not be read from the headers: the order that keeps it from being
 * elaborated before its sample is unknown, so it is not measured (never
 * guessed). */
static void side_close(const struct sc_measure *m, int side, struct side_state *ss)
{
	sc_prebuild_record(m->rec, &ss->pb);
	for (size_t i = 0; i < m->plan->n_files; i++) {
		const char *why = ss->order->unreadable[i];
		if (!why)
			continue;
		sc_progress_next(m->rec->progress);
		char *detail = xasprintf("its import order cannot be read: %s", why);
		char *line = xasprintf("not run (imports_unreadable: %s)", why);
		sc_recorder_unmeasured(m->rec, side, &m->plan->files[i], SC_ERR_IMPORTS_UNREADABLE,
		                       detail, line);
		free(line);
		free(detail);
	}
	free(ss->sampled);
}

/* The tree given back to the operator: 0, or -1 when it could not be (the
 * measurement stands and its report is written; the run exits 1 and says
 * what is left, which rm -rf removes). */
static int give_back(const struct sc_steps *steps, int side)
{
	struct strbuf why = STRBUF_INIT;
	int rc = sc_seal_give_back(steps, side, &why);
	if (rc < 0)
		sc_warning("%s; remove the workspace with rm -rf", why.buf);
	sb_release(&why);
	return rc < 0 ? -1 : 0;
}

/* ---- each selected file ---- */

/* Candidate code ran in the tree (the prebuild, earlier samples, this
 * sample): the file measured and the Lake configuration must still be the
 * plan's blobs, WHEN ("before" or "after") the sample.  1 if they are;
 * else S is the error source_changed, and LINE says so. */
static int tree_unchanged(const char *tree, int side, const struct sc_plan *plan,
                          const struct sc_plan_file *f, const char *when, struct sc_sample *s,
                          struct strbuf *line)
{
	struct strbuf why = STRBUF_INIT;
	int same = sc_seal_unchanged(tree, side, plan, f, &why);
	if (!same) {
		char *detail = xasprintf("%s its sample: %s", when, why.buf);
		sc_sample_unmeasured(s, SC_ERR_SOURCE_CHANGED, detail);
		sb_addf(line, "not measured (source changed %s its sample: %s)", when, why.buf);
		free(detail);
	}
	sb_release(&why);
	return same;
}

/* The counters of a sample that ran, into S; its progress line: the
 * figures, or how it failed. */
static void sample_ran(const struct sc_measure *m, int side, const struct sc_plan_file *f,
                       const struct sc_step *st, struct sc_sample *s, struct strbuf *line)
{
	sc_step_fill(st, s);
	if (s->ok) {
		sc_sample_figures(m->rec->display, s, line);
		return;
	}
	char *hint = m->steps->o->keep_logs ? sc_step_output_hint(m->steps, side, f->id) : xstrdup("");
	sb_addf(line, "FAILED (%s%s%s)", sc_sample_error_name(s->error), *hint ? "; " : "", hint);
	free(hint);
}

/* One timed sample into S and LINE: `lake lean` passes the package's
 * leanOptions (CLI/Help.lean helpLean); `lake env lean` would drop them.
 * What it measured counts only when the file and the Lake configuration
 * are still the plan's blobs afterwards. */
static void time_file_once(const struct sc_measure *m, int side, const struct sc_plan_file *f,
                           double timeout, struct sc_sample *s, struct strbuf *line)
{
	const char *cmd[] = {"lake", "lean", f->path, "--", "-j1", NULL};
	struct sc_step st;
	/* a repeat's raw files apart from the first's: '@' is in no module name */
	unsigned repeat = s->repeat;
	char *name = repeat ? xasprintf("%s@%u", f->id, repeat) : xstrdup(f->id);
	char *what = repeat ? xasprintf("%s, repeat %u", f->path, repeat) : xstrdup(f->path);
	int rc = sc_steps_run(m->steps, side, &st, name, what, timeout, cmd, NULL, m->o->confirm > 0);
	free(name);
	free(what);
	if (m->steps->disk_full) {
		sc_step_disk_full(s, line);
	} else if (sc_step_outcome_of(rc) == SC_STEP_NOT_RUN) {
		sc_sample_unmeasured(s, SC_ERR_SANDBOX_FAILED, "sc-sandbox-exec could not run the sample");
		sb_adds(line, "sandbox did not run");
	} else if (tree_unchanged(m->steps->tree[side], side, m->plan, f, "after", s, line)) {
		sample_ran(m, side, f, &st, s, line);
	}
	sc_step_release(&st);
}

/* What every sample, first or REPEAT, passes before it runs, in order: a
 * full disk, the import order (VIOLATED, or NULL: measurement.txt "Import
 * order", never a verdict then), the phase budget (LEFT), the tree still
 * the plan's; then it is timed.  Whichever way it ends, the sample is
 * bound once, decided, then recorded and said in one place. */
static void checked_sample(const struct sc_measure *m, int side, const struct sc_plan_file *f,
                           unsigned repeat, const char *violated, double left)
{
	struct sc_sample s;
	struct strbuf line = STRBUF_INIT;
	sc_samples_bind(m->rec->samples, side, f->id, repeat, &s);
	if (m->steps->disk_full) {
		sc_step_disk_full(&s, &line);
	} else if (violated) {
		sc_sample_unmeasured(&s, SC_ERR_ORDER_VIOLATED, violated);
		sb_addf(&line, "not run (order_violated: %s)", violated);
	} else if (!sc_phase_can_start(left)) {
		sc_sample_unmeasured(&s, SC_ERR_DEADLINE_EXCEEDED,
		                     repeat ? "the timed phase budget was spent before this repeat"
		                            : "the timed phase budget was spent");
		sb_adds(&line, "not run (phase budget spent)");
	} else if (tree_unchanged(m->steps->tree[side], side, m->plan, f, "before", &s, &line)) {
		time_file_once(m, side, f, sc_sample_timeout(left, m->o->sample_timeout), &s, &line);
	}
	sc_recorder_said(m->rec, side, f->path, &s, line.buf);
	sb_release(&line);
}

/* ---- confirmation (--confirm) ---- */

/* Is F, by its first samples, flagged or within 10 % of being flagged
 * (flagged were its head 10 % dearer; an added file at 90 % of its
 * threshold)?  Documentation/measurement.txt "Confirmation". */
static int near_threshold(const struct sc_samples *samples, const struct sc_thresholds *th,
                          const struct sc_plan_file *f)
{
	const struct sc_file_cpu *first = sc_samples_cpu(samples, f);
	int base = sc_change_on_side(f->change, SC_SIDE_BASE), head = sc_change_on_side(f->change, SC_SIDE_HEAD);
	if (!head || (base && !first->ok[SC_SIDE_BASE]) || !first->ok[SC_SIDE_HEAD])
		return 0; /* removed files are never flagged; a failed side has no verdict */
	long long b = base ? first->ms[SC_SIDE_BASE] : 0, h = first->ms[SC_SIDE_HEAD];
	if (f->change == SC_CHANGE_ADDED)
		return h * 10 >= th->added_ms * 9;
	struct sc_verdict v;
	sc_verdict_compute(f->change, b, h + h / 10, th, &v);
	return v.flagged;
}

/* One file's repeats, the sides taking turns (base, head, base, head...)
 * so that a drift of the machine falls on both; each checked and bound as
 * a first sample is, .lake read-only.  What the phase budget cannot hold
 * is deadline_exceeded, said and kept. */
static double repeat_file(const struct sc_measure *m, struct side_state ss[2],
                          const struct sc_plan_file *f, double phase_used)
{
	double phase_start = sc_phase_resume(phase_used, sc_monotonic_now());
	size_t i = (size_t)(f - m->plan->files);
	for (unsigned k = 1; k <= m->o->confirm; k++)
		for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
			if (!sc_change_on_side(f->change, side))
				continue;
			sc_progress_next(m->rec->progress);
			double left = sc_phase_left(m->o->phase_timeout, phase_start, sc_monotonic_now());
			struct strbuf violated = STRBUF_INIT;
			sc_order_violated(m->plan, ss[side].order, m->steps->tree[side], side,
			                  ss[side].order->layer[i], ss[side].sampled, &violated);
			checked_sample(m, side, f, k, violated.len ? violated.buf : NULL, left);
			sb_release(&violated);
		}
	return sc_monotonic_now() - phase_start;
}

/* After both sides' first samples of LAYER: each of its files near a
 * threshold sampled again, changed files before importers. */
static double confirm_layer(const struct sc_measure *m, struct side_state ss[2], const int open[2],
                            int layer, double phase_used)
{
	if (!open[SC_SIDE_HEAD])
		return phase_used; /* nothing is flagged without a head */
	for (int importers = 0; importers < 2; importers++)
		for (size_t i = 0; i < m->plan->n_files; i++) {
			const struct sc_plan_file *f = &m->plan->files[i];
			int on_base = sc_change_on_side(f->change, SC_SIDE_BASE);
			/* its later layer of the two: both first samples are in */
			int at = ss[SC_SIDE_HEAD].order->layer[i];
			if (on_base && open[SC_SIDE_BASE] && ss[SC_SIDE_BASE].order->layer[i] > at)
				at = ss[SC_SIDE_BASE].order->layer[i];
			if ((f->change == SC_CHANGE_IMPORTER) != importers || at != layer ||
			    (on_base && !open[SC_SIDE_BASE]) ||
			    !near_threshold(m->rec->samples, &m->o->th, f))
				continue;
			m->rec->progress->steps += (int)m->o->confirm * (on_base ? 2 : 1);
			sc_progress_say(m->rec->progress, "confirming %s: %u more sample%s a side", f->path,
			                m->o->confirm, m->o->confirm == 1 ? "" : "s");
			phase_used = repeat_file(m, ss, f, phase_used);
		}
	return phase_used;
}

/* ---- a full disk ---- */

/* A side that starts on a full disk: every step of it is disk_full. */
static void all_disk_full(const struct sc_measure *m, int side, const struct sc_order *order)
{
	struct sc_prebuilt pb = {.side = side, .order = order};
	for (int layer = 0; layer < order->n_layers || layer == 0; layer++)
		(void)sc_prebuild_layer(m, &pb, layer); /* each: disk_full */
	sc_prebuild_record(m->rec, &pb);
	for (size_t i = 0; i < m->plan->n_files; i++) {
		const struct sc_plan_file *f = &m->plan->files[i];
		if (!sc_change_on_side(f->change, side))
			continue;
		sc_progress_next(m->rec->progress);
		struct sc_sample s;
		struct strbuf line = STRBUF_INIT;
		sc_samples_bind(m->rec->samples, side, f->id, 0, &s);
		sc_step_disk_full(&s, &line);
		sc_recorder_said(m->rec, side, f->path, &s, line.buf);
		sb_release(&line);
	}
}
