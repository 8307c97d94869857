/* One side's measurement, read top-down: sc_run_measure takes the sides in
 * turn (or, with --confirm or --attribute, both layer by layer); a side
 * opens (its tree handed over, the preflight and the checks of T's
 * configuration: preflight.c), then each layer is prebuilt and its
 * selected files sampled, each sample recorded or why not; confirmation
 * repeats follow a layer, and a full disk makes every later step
 * disk_full. */
#include "porcelain/side.h"
#include "contract/rawsample.h"
#include "porcelain/attribute.h"
#include "porcelain/order.h"
#include "porcelain/prebuild.h"
#include "porcelain/preflight.h"
#include "porcelain/schedule.h"
#include "porcelain/seal.h"
#include "porcelain/step.h"
#include "util/die.h"
#include "util/spawn.h"

#include <stdlib.h>

/* One side's measurement under way. */
struct side_state {
	const struct sc_order *order;
	struct sc_prebuilt pb;
	char *sampled; /* per plan file: its first sample of this side is done */
	int built;     /* what the latest prebuild layer made: sc_prebuild_layer's answer */
};

static int side_open(struct sc_run *r, int side, struct side_state *ss, int lockstep);
static double side_layer(struct sc_run *r, int side, struct side_state *ss, int layer,
                         double phase_used);
static void side_close(struct sc_run *r, int side, struct side_state *ss);
static void give_back(struct sc_run *r, int side);
static double confirm_layer(struct sc_run *r, struct side_state ss[2], const int open[2], int layer,
                            double phase_used);
static void measure_file(struct sc_run *r, int side, const struct sc_plan_file *f, int built,
                         const char *failed, double phase_start, const char *violated);
static void imports_unreadable(struct sc_run *r, int side, const struct sc_plan_file *f,
                               const char *why);
static void checked_sample(struct sc_run *r, int side, const struct sc_plan_file *f,
                           unsigned repeat, const char *violated, double left);
static void time_file_once(struct sc_run *r, int side, const struct sc_plan_file *f, double timeout,
                           struct sc_sample *s, struct strbuf *line);
static void all_disk_full(struct sc_run *r, int side, const struct sc_order *order);
static void not_built(struct sc_run *r, int side, const struct sc_plan_file *f, int built,
                      const char *name);
static int tree_unchanged(struct sc_run *r, int side, const struct sc_plan_file *f,
                          const char *when, struct sc_sample *s, struct strbuf *line);
static void record_said(struct sc_run *r, int side, const struct sc_plan_file *f,
                        struct sc_sample *s, const char *line);
static void record_unmeasured(struct sc_run *r, int side, const struct sc_plan_file *f,
                              const char *reason, const char *detail, const char *line);

/* The import order of each side is read first, so that the progress
 * lines count every step, each prebuild layer too, once.  Without
 * --confirm the sides are measured one after the other.  With it, layer
 * by layer, both sides' trees open at once: a file near a threshold is
 * sampled again right after both its first samples, before any later
 * prebuild runs candidate code that could leave something its repeats
 * would find (Documentation/measurement.txt "Confirmation"). */
void sc_run_measure(struct sc_run *r)
{
	size_t on_side[2];
	struct sc_order order[2] = {{0}, {0}};
	int n_layers[2] = {0, 0}, open[2] = {0, 0}, layers = 1;
	sc_schedule_sides(&r->plan, on_side);
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
		if (on_side[side]) {
			sc_order_side(&r->plan, r->steps.tree[side], side, &order[side]);
			n_layers[side] = order[side].n_layers;
			layers = n_layers[side] > layers ? n_layers[side] : layers;
		}
	r->progress.steps = sc_schedule_steps(on_side, n_layers);
	struct side_state ss[2] = {{.order = &order[0]}, {.order = &order[1]}};
	/* both trees stay open to the end: repeats and attribution runs come
	 * after both sides' first samples */
	int lockstep = r->o.confirm || r->o.attribute;
	double phase_used = 0;
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		if (!on_side[side])
			continue;
		if (!lockstep)
			sc_progress_next(&r->progress); /* the prebuild's step, its preflight first */
		open[side] = side_open(r, side, &ss[side], lockstep);
		for (int layer = 0; open[side] && !lockstep && layer < (n_layers[side] ? n_layers[side] : 1);
		     layer++)
			phase_used = side_layer(r, side, &ss[side], layer, phase_used);
		if (open[side] && !lockstep) {
			side_close(r, side, &ss[side]);
			give_back(r, side);
		}
	}
	for (int layer = 0; lockstep && layer < layers; layer++) {
		for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
			if (open[side] && layer < (n_layers[side] ? n_layers[side] : 1)) {
				if (layer == 0)
					sc_progress_next(&r->progress);
				phase_used = side_layer(r, side, &ss[side], layer, phase_used);
			}
		if (r->o.confirm)
			phase_used = confirm_layer(r, ss, open, layer, phase_used);
	}
	if (r->o.attribute)
		phase_used = sc_attribute_flagged(r, open, phase_used);
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		if (open[side] && lockstep) {
			side_close(r, side, &ss[side]);
			give_back(r, side);
		}
		if (on_side[side])
			sc_order_free(&order[side], r->plan.n_files);
	}
}

/* The side's tree goes to the sandbox user, Lake loads it (preflight), and
 * T's configuration is asked once for both sides.  0 when the disk was
 * full already: every step of the side is disk_full then. */
static int side_open(struct sc_run *r, int side, struct side_state *ss, int lockstep)
{
	if (r->steps.disk_full) {
		if (lockstep) /* its first layer's step: numbered here, not by the caller */
			sc_progress_next(&r->progress);
		all_disk_full(r, side, ss->order);
		return 0;
	}
	sc_seal_prepare_tree(&r->steps, side);
	const struct sc_preflight pf = {&r->plan, &r->manifest, r->tc.version_line,
	                                r->o.prebuild_timeout};
	sc_preflight_side(&r->steps, side, &pf);
	if (!r->deps_checked) {
		sc_preflight_check_config(&r->steps, side, &pf);
		r->deps_checked = 1;
	}
	ss->sampled = xcalloc(r->plan.n_files + 1, 1);
	return 1;
}

/* One layer: its imports built (prebuild), then each of its selected files
 * sampled between two checks of the tree.  The phase budget covers timed
 * samples only, never the prebuilds; its clock runs on across layers and
 * sides.  Returns the budget used so far. */
static double side_layer(struct sc_run *r, int side, struct side_state *ss, int layer,
                         double phase_used)
{
	const struct sc_order *order = ss->order;
	const char *tree = r->steps.tree[side];
	struct strbuf violated = STRBUF_INIT;
	ss->built = sc_prebuild_layer(r, side, order, layer, &ss->pb);
	double phase_start = sc_phase_resume(phase_used, sc_monotonic_now());
	for (size_t i = 0; i < r->plan.n_files; i++) {
		if (order->layer[i] != layer)
			continue;
		sb_reset(&violated);
		sc_order_violated(&r->plan, order, tree, side, layer, ss->sampled, &violated);
		measure_file(r, side, &r->plan.files[i], ss->built, ss->pb.failed, phase_start,
		             violated.len ? violated.buf : NULL);
		ss->sampled[i] = 1;
	}
	sb_release(&violated);
	return sc_monotonic_now() - phase_start;
}

/* The side's prebuild sample, and a line for each file whose import order
 * could not be read. */
static void side_close(struct sc_run *r, int side, struct side_state *ss)
{
	sc_prebuild_record(r, &ss->pb);
	for (size_t i = 0; i < r->plan.n_files; i++)
		if (ss->order->unreadable[i])
			imports_unreadable(r, side, &r->plan.files[i], ss->order->unreadable[i]);
	free(ss->sampled);
}

static void give_back(struct sc_run *r, int side)
{
	struct strbuf why = STRBUF_INIT;
	if (sc_seal_give_back(&r->steps, side, &why) < 0) {
		/* the measurement stands and its report is written; the run
		 * exits 1 and says what is left (rm -rf removes it) */
		sc_warning("%s; remove the workspace with rm -rf", why.buf);
		r->measurement_failed = 1;
	}
	sb_release(&why);
}

/* One selected file of the side, its prebuild layer done (BUILT as
 * prebuild returns it): sampled between two checks of the tree, or why
 * not. */
static void measure_file(struct sc_run *r, int side, const struct sc_plan_file *f, int built,
                         const char *failed, double phase_start, const char *violated)
{
	sc_progress_next(&r->progress);
	if (!r->steps.disk_full && built != 1) {
		not_built(r, side, f, built, *failed ? failed : "prebuild");
		return;
	}
	double left = sc_phase_left(r->o.phase_timeout, phase_start, sc_monotonic_now());
	checked_sample(r, side, f, 0, violated, left);
}

/* What every sample, first or REPEAT, passes before it runs, in order: a
 * full disk, the import order (VIOLATED, or NULL: measurement.txt "Import
 * order", never a verdict then), the phase budget (LEFT), the tree still
 * the plan's; then it is timed.  Whichever way it ends, the sample is
 * bound once, decided, then recorded and said in one place. */
static void checked_sample(struct sc_run *r, int side, const struct sc_plan_file *f,
                           unsigned repeat, const char *violated, double left)
{
	struct sc_sample s;
	struct strbuf line = STRBUF_INIT;
	sc_samples_bind(&r->samples, side, f->id, repeat, &s);
	if (r->steps.disk_full) {
		sc_sample_unmeasured(&s, "disk_full", SC_DISK_FULL_DETAIL);
		sb_adds(&line, "not run (disk_full)");
	} else if (violated) {
		sc_sample_unmeasured(&s, "order_violated", violated);
		sb_addf(&line, "not run (order_violated: %s)", violated);
	} else if (!sc_phase_can_start(left)) {
		sc_sample_unmeasured(&s, "deadline_exceeded",
		                     repeat ? "the timed phase budget was spent before this repeat"
		                            : "the timed phase budget was spent");
		sb_adds(&line, "not run (phase budget spent)");
	} else if (tree_unchanged(r, side, f, "before", &s, &line)) {
		time_file_once(r, side, f, sc_sample_timeout(left, r->o.sample_timeout), &s, &line);
	}
	record_said(r, side, f, &s, line.buf);
	sb_release(&line);
}

/* A selected file whose import cone could not be read from the headers:
 * the order that keeps it from being elaborated before its sample is
 * unknown, so it is not measured (never guessed). */
static void imports_unreadable(struct sc_run *r, int side, const struct sc_plan_file *f,
                               const char *why)
{
	sc_progress_next(&r->progress);
	char *detail = xasprintf("its import order cannot be read: %s", why);
	char *line = xasprintf("not run (imports_unreadable: %s)", why);
	record_unmeasured(r, side, f, "imports_unreadable", detail, line);
	free(line);
	free(detail);
}

/* ---- each selected file ---- */

/* The counters of a sample that ran, into S; its progress line: the
 * figures, or how it failed. */
static void sample_ran(struct sc_run *r, int side, const struct sc_plan_file *f,
                       const struct sc_step *st, struct sc_sample *s, struct strbuf *line)
{
	sc_step_fill(st, s);
	if (s->ok) {
		sc_run_sample_figures(&r->o.display, s, line);
		return;
	}
	char *hint = r->o.sandbox.keep_logs ? sc_step_output_hint(&r->steps, side, f->id) : xstrdup("");
	sb_addf(line, "FAILED (%s%s%s)", s->error, *hint ? "; " : "", hint);
	free(hint);
}

/* One timed sample into S and LINE: `lake lean` passes the package's
 * leanOptions (CLI/Help.lean helpLean); `lake env lean` would drop them.
 * What it measured counts only when the file and the Lake configuration
 * are still the plan's blobs afterwards. */
static void time_file_once(struct sc_run *r, int side, const struct sc_plan_file *f, double timeout,
                           struct sc_sample *s, struct strbuf *line)
{
	const char *cmd[] = {"lake", "lean", f->path, "--", "-j1", NULL};
	struct sc_step st;
	/* a repeat's raw files apart from the first's: '@' is in no module name */
	unsigned repeat = s->repeat;
	char *name = repeat ? xasprintf("%s@%u", f->id, repeat) : xstrdup(f->id);
	char *what = repeat ? xasprintf("%s, repeat %u", f->path, repeat) : xstrdup(f->path);
	int rc = sc_steps_run(&r->steps, side, &st, name, what, timeout, cmd, NULL, r->o.confirm > 0);
	free(name);
	free(what);
	if (r->steps.disk_full) {
		sc_sample_unmeasured(s, "disk_full", SC_DISK_FULL_DETAIL);
		sb_adds(line, "not run (disk_full)");
	} else if (sc_step_outcome_of(rc) == SC_STEP_NOT_RUN) {
		sc_sample_unmeasured(s, "sandbox_failed", "sc-sandbox-exec could not run the sample");
		sb_adds(line, "sandbox did not run");
	} else if (tree_unchanged(r, side, f, "after", s, line)) {
		sample_ran(r, side, f, &st, s, line);
	}
	sc_step_release(&st);
}

/* ---- confirmation (--confirm) ---- */

/* Is F, by its first samples, flagged or within 10 % of being flagged
 * (flagged were its head 10 % dearer; an added file at 90 % of its
 * threshold)?  Documentation/measurement.txt "Confirmation". */
static int near_threshold(const struct sc_run *r, const struct sc_plan_file *f)
{
	const struct sc_file_cpu *first = sc_samples_cpu(&r->samples, f);
	int base = sc_change_on_side(f->change, SC_SIDE_BASE), head = sc_change_on_side(f->change, SC_SIDE_HEAD);
	if (!head || (base && !first->ok[SC_SIDE_BASE]) || !first->ok[SC_SIDE_HEAD])
		return 0; /* removed files are never flagged; a failed side has no verdict */
	long long b = base ? first->ms[SC_SIDE_BASE] : 0, h = first->ms[SC_SIDE_HEAD];
	if (f->change == SC_CHANGE_ADDED)
		return h * 10 >= r->o.th.added_ms * 9;
	struct sc_verdict v;
	sc_verdict_compute(f->change, b, h + h / 10, &r->o.th, &v);
	return v.flagged;
}

/* One file's repeats, the sides taking turns (base, head, base, head...)
 * so that a drift of the machine falls on both; each checked and bound as
 * a first sample is, .lake read-only.  What the phase budget cannot hold
 * is deadline_exceeded, said and kept. */
static double repeat_file(struct sc_run *r, struct side_state ss[2], const struct sc_plan_file *f,
                          double phase_used)
{
	double phase_start = sc_phase_resume(phase_used, sc_monotonic_now());
	for (unsigned k = 1; k <= r->o.confirm; k++)
		for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
			if (!sc_change_on_side(f->change, side))
				continue;
			sc_progress_next(&r->progress);
			double left = sc_phase_left(r->o.phase_timeout, phase_start, sc_monotonic_now());
			struct strbuf violated = STRBUF_INIT;
			size_t i = (size_t)(f - r->plan.files);
			sc_order_violated(&r->plan, ss[side].order, r->steps.tree[side], side,
			                  ss[side].order->layer[i], ss[side].sampled, &violated);
			checked_sample(r, side, f, k, violated.len ? violated.buf : NULL, left);
			sb_release(&violated);
		}
	return sc_monotonic_now() - phase_start;
}

/* After both sides' first samples of LAYER: each of its files near a
 * threshold sampled again, changed files before importers. */
static double confirm_layer(struct sc_run *r, struct side_state ss[2], const int open[2], int layer,
                            double phase_used)
{
	if (!open[SC_SIDE_HEAD])
		return phase_used; /* nothing is flagged without a head */
	for (int importers = 0; importers < 2; importers++)
		for (size_t i = 0; i < r->plan.n_files; i++) {
			const struct sc_plan_file *f = &r->plan.files[i];
			int on_base = sc_change_on_side(f->change, SC_SIDE_BASE);
			/* its later layer of the two: both first samples are in */
			int at = ss[SC_SIDE_HEAD].order->layer[i];
			if (on_base && open[SC_SIDE_BASE] && ss[SC_SIDE_BASE].order->layer[i] > at)
				at = ss[SC_SIDE_BASE].order->layer[i];
			if ((f->change == SC_CHANGE_IMPORTER) != importers || at != layer ||
			    (on_base && !open[SC_SIDE_BASE]) || !near_threshold(r, f))
				continue;
			r->progress.steps += (int)r->o.confirm * (on_base ? 2 : 1);
			sc_progress_say(&r->progress, "confirming %s: %u more sample%s a side", f->path,
			                r->o.confirm, r->o.confirm == 1 ? "" : "s");
			phase_used = repeat_file(r, ss, f, phase_used);
		}
	return phase_used;
}

/* Candidate code ran in the tree (the prebuild, earlier samples, this
 * sample): the file measured and the Lake configuration must still be the
 * plan's blobs, WHEN ("before" or "after") the sample.  1 if they are;
 * else S is the error source_changed, and LINE says so. */
static int tree_unchanged(struct sc_run *r, int side, const struct sc_plan_file *f,
                          const char *when, struct sc_sample *s, struct strbuf *line)
{
	struct strbuf why = STRBUF_INIT;
	int same = sc_seal_unchanged(r->steps.tree[side], side, &r->plan, f, &why);
	if (!same) {
		char *detail = xasprintf("%s its sample: %s", when, why.buf);
		sc_sample_unmeasured(s, "source_changed", detail);
		sb_addf(line, "not measured (source changed %s its sample: %s)", when, why.buf);
		free(detail);
	}
	sb_release(&why);
	return same;
}

/* A selected file of a side whose prebuild did not build (BUILT 0 failed,
 * -1 ran out of time) is not run. */
static void not_built(struct sc_run *r, int side, const struct sc_plan_file *f, int built,
                      const char *name)
{
	char *hint = sc_step_output_hint(&r->steps, side, name);
	char *detail = xasprintf("lake build of this side's selected modules %s (%s)",
	                         built ? "ran out of time" : "failed", hint);
	record_unmeasured(r, side, f, built ? "prebuild_timeout" : "prebuild_failed", detail,
	                  built ? "not run (prebuild_timeout)" : "not run (prebuild failed)");
	free(detail);
	free(hint);
}

/* ---- a full disk ---- */

/* A side that starts on a full disk: every step of it is disk_full. */
static void all_disk_full(struct sc_run *r, int side, const struct sc_order *order)
{
	struct sc_prebuilt pb = {0};
	for (int layer = 0; layer < order->n_layers || layer == 0; layer++)
		(void)sc_prebuild_layer(r, side, order, layer, &pb); /* each: disk_full */
	sc_prebuild_record(r, &pb);
	for (size_t i = 0; i < r->plan.n_files; i++) {
		const struct sc_plan_file *f = &r->plan.files[i];
		if (!sc_change_on_side(f->change, side))
			continue;
		sc_progress_next(&r->progress);
		record_unmeasured(r, side, f, "disk_full", SC_DISK_FULL_DETAIL, "not run (disk_full)");
	}
}

/* The end of one sample of F: S (bound, ok or an error) recorded, and
 * its progress line "<side> <path>[, repeat K]: LINE". */
static void record_said(struct sc_run *r, int side, const struct sc_plan_file *f,
                        struct sc_sample *s, const char *line)
{
	unsigned repeat = s->repeat;
	sc_run_record(r, s);
	if (repeat)
		sc_progress_say(&r->progress, "%s %s, repeat %u: %s", sc_side_name(side), f->path, repeat,
		                line);
	else
		sc_progress_say(&r->progress, "%s %s: %s", sc_side_name(side), f->path, line);
	sc_sample_free(s);
}

/* A first sample of F that never ran: REASON with DETAIL, recorded, and
 * its progress line LINE. */
static void record_unmeasured(struct sc_run *r, int side, const struct sc_plan_file *f,
                              const char *reason, const char *detail, const char *line)
{
	struct sc_sample s;
	sc_samples_bind(&r->samples, side, f->id, 0, &s);
	sc_sample_unmeasured(&s, reason, detail);
	record_said(r, side, f, &s, line);
}
