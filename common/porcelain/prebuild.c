/* The side's prebuild, layer by layer (Documentation/measurement.txt
 * "Import order"). */
#include "porcelain/prebuild.h"
#include "contract/rawsample.h"
#include "porcelain/step.h"
#include "util/die.h"
#include "util/spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void prebuild_progress(struct sc_run *r, int side, const char *name, int layer, int n_layers,
                              size_t nmod, enum sc_step_outcome out, int late, double wall)
{
	const char *s = nmod == 1 ? "" : "s";
	char *what = n_layers > 1 ? xasprintf("prebuild, layer %d of %d", layer + 1, n_layers)
	                          : xstrdup("prebuild");
	if (out == SC_STEP_OK) {
		sc_progress_say(&r->progress, "%s %s (%zu module%s): %.1f s wall",
		                sc_side_name(side), what, nmod, s, wall);
		free(what);
		return;
	}
	char *hint = sc_step_output_hint(&r->steps, side, name);
	sc_progress_say(&r->progress, "%s %s (%zu module%s): FAILED (%s; %s)", sc_side_name(side),
	                what, nmod, s,
	                out == SC_STEP_NOT_RUN ? "sandbox did not run" :
	                late                   ? "prebuild_timeout" : "lake build failed",
	                hint);
	free(hint);
	free(what);
}

/* Whole milliseconds of a sample's counter (validated on the way in). */
static long long ms_of(double s)
{
	long long ms = 0;
	(void)sc_seconds_to_ms(s, &ms);
	return ms;
}

static void add_counters(struct sc_sample *sum, const struct sc_sample *s)
{
	long long user = ms_of(sum->cpu_user_s) + ms_of(s->cpu_user_s);
	long long sys = ms_of(sum->cpu_sys_s) + ms_of(s->cpu_sys_s);
	sum->cpu_user_s = (double)user / 1000;
	sum->cpu_sys_s = (double)sys / 1000;
	sum->cpu_s = (double)(user + sys) / 1000;
	sum->wall_s = (double)(ms_of(sum->wall_s) + ms_of(s->wall_s)) / 1000;
	if (s->max_rss_kib > sum->max_rss_kib)
		sum->max_rss_kib = s->max_rss_kib;
	sum->has_task_clock = sum->has_task_clock && s->has_task_clock;
	sum->task_clock_s = (double)(ms_of(sum->task_clock_s) + ms_of(s->task_clock_s)) / 1000;
}

/* One layer's sample joins the side's prebuild sample. */
static void prebuild_take(struct sc_prebuilt *pb, struct sc_sample *s)
{
	if (!pb->have) {
		pb->sum = *s;
		pb->have = 1;
		memset(s, 0, sizeof *s);
		return;
	}
	if (pb->sum.ok && !s->ok) {
		sc_sample_free(&pb->sum);
		pb->sum = *s;
		memset(s, 0, sizeof *s);
		return;
	}
	if (pb->sum.ok)
		add_counters(&pb->sum, s);
	sc_sample_free(s);
}

/* The side's prebuild sample is the error REASON (a layer that never ran
 * to its counters), unless an earlier layer failed first. */
static void prebuild_error(struct sc_run *r, int side, struct sc_prebuilt *pb, const char *reason,
                           const char *detail)
{
	struct sc_sample s;
	sc_samples_bind(&r->samples, side, SC_PREBUILD_ID, 0, &s);
	sc_sample_unmeasured(&s, reason, detail);
	prebuild_take(pb, &s);
}

void sc_prebuild_record(struct sc_run *r, struct sc_prebuilt *pb)
{
	if (pb->have) {
		sc_run_record(r, &pb->sum);
		sc_sample_free(&pb->sum);
	}
}

/* 1 built, 0 failed, -1 ran out of time.  `+Mod:deps` builds each selected
 * module's import cone but not the module (Build/Facets.lean); layer by
 * layer, so that every selected module in a cone has had its own sample
 * first (Documentation/measurement.txt "Import order").  The first layer's
 * build is the side's prebuild step; the others share its timeout. */
int sc_prebuild_layer(struct sc_run *r, int side, const struct sc_order *o, int layer,
                      struct sc_prebuilt *pb)
{
	if (layer > 0) /* each layer is a step; the first began with the side */
		sc_progress_next(&r->progress);
	if (r->steps.disk_full) {
		if (layer == 0) {
			prebuild_error(r, side, pb, "disk_full", SC_DISK_FULL_DETAIL);
			sc_progress_say(&r->progress, "%s prebuild: not run (disk_full)", sc_side_name(side));
		} else {
			sc_progress_say(&r->progress, "%s prebuild, layer %d of %d: not run (disk_full)",
			                sc_side_name(side), layer + 1, o->n_layers);
		}
		return 0;
	}
	if (!o->n_layers) {
		prebuild_error(r, side, pb, "imports_unreadable",
		               "no selected module's import order could be read: nothing was built");
		sc_progress_say(&r->progress, "%s prebuild: not run (imports_unreadable)",
		                sc_side_name(side));
		return 0;
	}
	if (pb->have && !pb->sum.ok) { /* an earlier layer failed: its failure is the prebuild's */
		sc_progress_say(&r->progress, "%s prebuild, layer %d of %d: not run (%s failed)",
		                sc_side_name(side), layer + 1, o->n_layers, pb->failed);
		return strcmp(pb->sum.error, "timeout") == 0 || strcmp(pb->sum.error, "prebuild_timeout") == 0
		           ? -1 : 0;
	}
	double budget = r->o.prebuild_timeout - pb->used;
	if (budget <= 0) {
		prebuild_error(r, side, pb, "prebuild_timeout", "the prebuild's layers spent its time");
		sc_progress_say(&r->progress, "%s prebuild, layer %d of %d: not run (prebuild_timeout)",
		                sc_side_name(side), layer + 1, o->n_layers);
		return -1;
	}
	struct sc_argv cmd = SC_ARGV_INIT;
	sc_argv_push(&cmd, "lake");
	sc_argv_push(&cmd, "build");
	size_t nmod = sc_order_push_targets(&r->plan, o, layer, &cmd);
	struct sc_step st;
	char *name = layer ? xasprintf("prebuild-%d", layer + 1) : xstrdup("prebuild");
	double t0 = sc_monotonic_now();
	char *what = o->n_layers > 1 ? xasprintf("prebuild, layer %d of %d", layer + 1, o->n_layers)
	                             : xstrdup("prebuild");
	int rc = sc_steps_run(&r->steps, side, &st, name, what, budget, cmd.v, NULL, 0);
	free(what);
	double wall = sc_monotonic_now() - t0;
	pb->used += wall;
	enum sc_step_outcome out = sc_step_outcome_of(rc);
	int built = 0;
	if (r->steps.disk_full) {
		if (layer == 0) {
			prebuild_error(r, side, pb, "disk_full", SC_DISK_FULL_DETAIL);
			sc_progress_say(&r->progress, "%s prebuild: not run (disk_full)", sc_side_name(side));
		} else {
			prebuild_error(r, side, pb, "disk_full", "a layer of the prebuild left the disk full");
			sc_progress_say(&r->progress,
			                "%s prebuild, layer %d of %d: not run (disk_full)",
			                sc_side_name(side), layer + 1, o->n_layers);
		}
	} else {
		if (out != SC_STEP_NOT_RUN) {
			struct sc_sample s;
			sc_samples_bind(&r->samples, side, SC_PREBUILD_ID, 0, &s);
			sc_step_fill(&st, &s);
			prebuild_take(pb, &s);
		} else {
			prebuild_error(r, side, pb, "sandbox_failed", "sc-sandbox-exec could not run the prebuild");
		}
		int late = out == SC_STEP_FAILED && sc_step_timed_out(&st);
		prebuild_progress(r, side, name, layer, o->n_layers, nmod, out, late, wall);
		built = out == SC_STEP_OK ? 1 : late ? -1 : 0;
		if (built != 1)
			snprintf(pb->failed, sizeof pb->failed, "%s", name);
	}
	free(name);
	sc_argv_release(&cmd);
	sc_step_release(&st);
	return built;
}

