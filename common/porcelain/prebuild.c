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

/* "prebuild" or "prebuild, layer K of N" (allocated). */
static char *layer_what(int layer, int n_layers)
{
	return n_layers > 1 ? xasprintf("prebuild, layer %d of %d", layer + 1, n_layers)
	                    : xstrdup("prebuild");
}

static void prebuild_progress(const struct sc_measure *m, const struct sc_prebuilt *pb,
                              const char *name, int layer, size_t nmod, enum sc_step_outcome out,
                              int late, double wall)
{
	const char *s = nmod == 1 ? "" : "s", *side = sc_side_name(pb->side);
	char *what = layer_what(layer, pb->order->n_layers);
	if (out == SC_STEP_OK) {
		sc_progress_say(m->rec->progress, "%s %s (%zu module%s): %.1f s wall", side, what, nmod,
		                s, wall);
		free(what);
		return;
	}
	char *hint = sc_step_output_hint(m->steps, pb->side, name);
	sc_progress_say(m->rec->progress, "%s %s (%zu module%s): FAILED (%s; %s)", side, what, nmod,
	                s,
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
	/* each layer agreed within the tolerance, whose fixed part does not
	 * add up: a sum past it is no hidden CPU, and claims no clock (the
	 * prebuild bears on no verdict) */
	if (sum->has_task_clock && !sc_cpu_agrees(user + sys, ms_of(sum->task_clock_s)))
		sum->has_task_clock = 0, sum->task_clock_s = 0;
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
 * to its counters; SC_ERR_DISK_FULL: the one detail of a full disk),
 * unless an earlier layer failed first; prebuild_not_run also says that
 * the layer was not run, and why. */
static void prebuild_error(const struct sc_measure *m, struct sc_prebuilt *pb,
                           enum sc_sample_error reason, const char *detail)
{
	struct sc_sample s;
	sc_samples_bind(m->rec->samples, pb->side, SC_PREBUILD_ID, 0, &s);
	if (reason == SC_ERR_DISK_FULL)
		sc_step_disk_full(&s, NULL);
	else
		sc_sample_unmeasured(&s, reason, detail);
	prebuild_take(pb, &s);
}

/* The line of a LAYER not run, and WHY. */
static void say_not_run(const struct sc_measure *m, const struct sc_prebuilt *pb, int layer,
                        const char *why)
{
	char *what = layer ? layer_what(layer, pb->order->n_layers) : xstrdup("prebuild");
	sc_progress_say(m->rec->progress, "%s %s: not run (%s)", sc_side_name(pb->side), what, why);
	free(what);
}

static void prebuild_not_run(const struct sc_measure *m, struct sc_prebuilt *pb, int layer,
                             enum sc_sample_error reason, const char *detail)
{
	prebuild_error(m, pb, reason, detail);
	say_not_run(m, pb, layer, sc_sample_error_name(reason));
}

void sc_prebuild_record(const struct sc_recorder *rec, struct sc_prebuilt *pb)
{
	if (pb->have) {
		sc_recorder_record(rec, &pb->sum);
		sc_sample_free(&pb->sum);
	}
}

/* The layer's `lake build`, run within BUDGET; its sample joins PB's. */
static enum sc_prebuild_outcome build_layer(const struct sc_measure *m, struct sc_prebuilt *pb,
                                            int layer, double budget)
{
	struct sc_argv cmd = SC_ARGV_INIT;
	sc_argv_push(&cmd, "lake");
	sc_argv_push(&cmd, "build");
	size_t nmod = sc_order_push_targets(m->plan, pb->order, layer, &cmd);
	struct sc_step st;
	char *name = layer ? xasprintf("prebuild-%d", layer + 1) : xstrdup("prebuild");
	double t0 = sc_monotonic_now();
	char *what = layer_what(layer, pb->order->n_layers);
	int rc = sc_steps_run(m->steps, pb->side, &st, name, what, budget, cmd.v, NULL, 0);
	free(what);
	double wall = sc_monotonic_now() - t0;
	pb->used += wall;
	enum sc_step_outcome out = sc_step_outcome_of(rc);
	enum sc_prebuild_outcome built = SC_PREBUILD_FAILED;
	if (m->steps->disk_full) {
		prebuild_not_run(m, pb, layer, SC_ERR_DISK_FULL, NULL);
	} else {
		if (out != SC_STEP_NOT_RUN) {
			struct sc_sample s;
			sc_samples_bind(m->rec->samples, pb->side, SC_PREBUILD_ID, 0, &s);
			sc_step_fill(&st, &s);
			prebuild_take(pb, &s);
		} else {
			prebuild_error(m, pb, SC_ERR_SANDBOX_FAILED,
			               "sc-sandbox-exec could not run the prebuild");
		}
		int late = out == SC_STEP_FAILED && sc_step_timed_out(&st);
		prebuild_progress(m, pb, name, layer, nmod, out, late, wall);
		built = out == SC_STEP_OK ? SC_PREBUILD_BUILT : late ? SC_PREBUILD_TIMED_OUT
		                                                     : SC_PREBUILD_FAILED;
		if (built != SC_PREBUILD_BUILT)
			snprintf(pb->failed, sizeof pb->failed, "%s", name);
	}
	free(name);
	sc_argv_release(&cmd);
	sc_step_release(&st);
	return built;
}

enum sc_prebuild_outcome sc_prebuild_layer(const struct sc_measure *m, struct sc_prebuilt *pb,
                                           int layer)
{
	const struct sc_order *o = pb->order;
	if (layer > 0) /* each layer is a step; the first began with the side */
		sc_progress_next(m->rec->progress);
	if (m->steps->disk_full) {
		if (layer == 0)
			prebuild_not_run(m, pb, layer, SC_ERR_DISK_FULL, NULL);
		else
			say_not_run(m, pb, layer, "disk_full");
		return SC_PREBUILD_FAILED;
	}
	if (!o->n_layers) {
		prebuild_not_run(m, pb, 0, SC_ERR_IMPORTS_UNREADABLE,
		                 "no selected module's import order could be read: nothing was built");
		return SC_PREBUILD_FAILED;
	}
	if (pb->have && !pb->sum.ok) { /* an earlier layer failed: its failure is the prebuild's */
		char *why = xasprintf("%s failed", pb->failed);
		say_not_run(m, pb, layer, why);
		free(why);
		return pb->sum.error == SC_ERR_TIMEOUT || pb->sum.error == SC_ERR_PREBUILD_TIMEOUT
		           ? SC_PREBUILD_TIMED_OUT : SC_PREBUILD_FAILED;
	}
	double budget = m->o->prebuild_timeout - pb->used;
	if (budget <= 0) {
		prebuild_not_run(m, pb, layer, SC_ERR_PREBUILD_TIMEOUT,
		                 "the prebuild's layers spent its time");
		return SC_PREBUILD_TIMED_OUT;
	}
	return build_layer(m, pb, layer, budget);
}
