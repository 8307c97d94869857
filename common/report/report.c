#include "report/report.h"
#include "contract/limits.h"
#include "util/die.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMITS_TEXT \
	"Advisory only: flags never change the exit status. Each number is one noisy " \
	"sample per side. CPU is user + system time of the whole sandboxed invocation, " \
	"`lake lean FILE -- -j1` (Lake applies the package's leanOptions, as the real build " \
	"does), so it includes sandbox and Lake start-up. Results are sensitive to the host, its " \
	"load, dependency artifacts and environment; they support no comparison across " \
	"runs, only between the two sides of this report. Bounds: at most " \
	"%u changed modules, " SC_XSTR(SC_LIMIT_PREBUILD_S) \
	" s per prebuild (`lake build +Mod:deps`: the import cones, not the selected " \
	"modules), " SC_XSTR(SC_LIMIT_SAMPLE_S) " s per sample, " SC_XSTR(SC_LIMIT_PHASE_S) \
	" s for the timed phase, one " \
	"elaboration thread (lean -j1)."

/* Where the host has no task clock (perf_event_open refused), the limit it
 * would have closed stays stated. */
static const char limits_counted[] =
	LIMITS_TEXT " Every descendant's CPU is also counted on the host's perf task clock: "
	"the larger of it and rusage is compared, and a sample whose rusage disagrees "
	"with it grossly is the error cpu_hidden.";
static const char limits_rusage_only[] =
	LIMITS_TEXT " Resource-usage (rusage) accounting misses children that are "
	"reaped automatically because their parent ignores SIGCHLD, so a deliberately "
	"hostile candidate can understate its own cost: flags stay advisory.";

int sc_report_task_clock(const struct sc_report *r)
{
	if (r->n_ok == 0)
		return -1;
	return r->n_task_clock == r->n_ok;
}

void sc_report_limits_text(const struct sc_report *r, struct strbuf *out)
{
	/* one of two constant formats, each with the one %u of the bound */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	sb_addf(out, sc_report_task_clock(r) == 1 ? limits_counted : limits_rusage_only,
	        sc_plan_max_files(r->plan));
#pragma GCC diagnostic pop
}

static void problem(struct sc_report *r, const char *sample, const char *source,
                    const char *kind, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void problem(struct sc_report *r, const char *sample, const char *source,
                    const char *kind, const char *fmt, ...)
{
	if (r->n_problems == r->alloc_problems) {
		r->alloc_problems = r->alloc_problems ? 2 * r->alloc_problems : 8;
		r->problems = xrealloc(r->problems, r->alloc_problems * sizeof *r->problems);
	}
	struct sc_problem *p = &r->problems[r->n_problems++];
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&p->detail, fmt, ap) < 0)
		sc_die_sys("out of memory (vasprintf)");
	va_end(ap);
	p->sample = xstrdup(sample);
	p->source = source ? xstrdup(source) : NULL;
	p->kind = kind;
}

void sc_report_init(struct sc_report *r, const struct sc_plan *p, const char *plan_digest,
                    const char *run_id, const struct sc_thresholds *t,
                    const struct sc_report_env *env)
{
	memset(r, 0, sizeof *r);
	r->plan = p;
	snprintf(r->plan_digest, sizeof r->plan_digest, "%s", plan_digest);
	r->run_id = run_id ? xstrdup(run_id) : NULL;
	r->th = *t;
	r->env = *env;
	r->n_files = p->n_files;
	r->files = xcalloc(p->n_files ? p->n_files : 1, sizeof *r->files);
	for (size_t i = 0; i < p->n_files; i++) {
		r->files[i].f = &p->files[i];
		for (int s = 0; s < 2; s++) {
			int on = sc_change_on_side(p->files[i].change, s);
			r->files[i].side[s].state = on ? SC_SLOT_MISSING : SC_SLOT_UNUSED;
			if (on)
				r->prebuild[s].state = SC_SLOT_MISSING;
		}
	}
}

void sc_report_set_shard(struct sc_report *r, unsigned k, unsigned n)
{
	r->shard_k = k;
	r->shard_n = n;
}

void sc_report_add_runner(struct sc_report *r, unsigned k, const char *run_id)
{
	r->runners = xrealloc(r->runners, (r->n_runners + 1) * sizeof *r->runners);
	struct sc_report_runner *rn = &r->runners[r->n_runners++];
	memset(rn, 0, sizeof *rn);
	rn->shard = k;
	rn->run_id = xstrdup(run_id);
	for (size_t i = 0; i < r->n_files; i++) {
		if (r->files[i].f->shard != k)
			continue;
		rn->n_files++;
		for (int s = 0; s < 2; s++)
			if (sc_change_on_side(r->files[i].f->change, s))
				rn->prebuild[s].state = SC_SLOT_MISSING;
	}
}

struct sc_report_runner *sc_report_runner(const struct sc_report *r, unsigned k)
{
	for (size_t i = 0; i < r->n_runners; i++)
		if (r->runners[i].shard == k)
			return &r->runners[i];
	return NULL;
}

static struct sc_report_file *find_file(struct sc_report *r, const char *id)
{
	for (size_t i = 0; i < r->n_files; i++)
		if (strcmp(r->files[i].f->id, id) == 0)
			return &r->files[i];
	return NULL;
}

/* The counters of an ok sample; the CPU is the compared one
 * (contract/sample.h sc_sample_compared_ms). */
static int counters_to_ms(const struct sc_sample *s, struct sc_report_side *side)
{
	if (sc_sample_compared_ms(s, &side->cpu_ms) < 0 ||
	    sc_seconds_to_ms(s->cpu_user_s, &side->user_ms) < 0 ||
	    sc_seconds_to_ms(s->cpu_sys_s, &side->sys_ms) < 0 ||
	    sc_seconds_to_ms(s->wall_s, &side->wall_ms) < 0)
		return -1;
	return 0;
}

/* The slot a sample claims: a file's side or a side's prebuild; NULL (with
 * the problem recorded) when it names neither. */
static struct sc_report_side *find_slot(struct sc_report *r, const struct sc_sample_in *in,
                                        struct sc_report_runner *rn, int *side)
{
	const struct sc_sample *s = &in->s;
	if ((*side = sc_sample_prebuild_side(s->sample)) >= 0) {
		struct sc_report_side *pb = rn ? &rn->prebuild[*side] : &r->prebuild[*side];
		if (pb->state == SC_SLOT_UNUSED) {
			problem(r, s->sample, in->source, "unexpected",
			        "the %s side measures no file, so it has no prebuild", sc_side_name(*side));
			return NULL;
		}
		return pb;
	}
	const char *id;
	if (sc_sample_id_split(s->sample, side, &id) < 0) {
		problem(r, s->sample, in->source, "unexpected", "not a sample id");
		return NULL;
	}
	struct sc_report_file *rf = find_file(r, id);
	if (!rf) {
		problem(r, s->sample, in->source, "unexpected", "the plan has no file %s", id);
		return NULL;
	}
	if (rn && rf->f->shard != rn->shard) {
		problem(r, s->sample, in->source, "wrong_shard", "%s is dealt to shard %u, not %u",
		        rf->f->path, rf->f->shard, rn->shard);
		return NULL;
	}
	if (rf->side[*side].state == SC_SLOT_UNUSED) {
		problem(r, s->sample, in->source, "unexpected", "%s file %s has no %s sample",
		        sc_change_name(rf->f->change), rf->f->path, sc_side_name(*side));
		return NULL;
	}
	return &rf->side[*side];
}

/* A runner's wall time: each accepted ok sample's. */
static void charge(struct sc_report_runner *rn, const struct sc_sample *s)
{
	long long ms;
	if (rn && s->ok && sc_seconds_to_ms(s->wall_s, &ms) == 0)
		rn->wall_ms += ms;
}

/* Checks run in a fixed order so that each sample gets one, most basic,
 * reason: a sample of another run is "cross_run" even if its id is also
 * unknown (a sample of no runner's shard, "wrong_shard", before all). */

static void bind_one(struct sc_report *r, const struct sc_sample_in *in)
{
	const struct sc_sample *s = &in->s;
	struct sc_report_runner *rn = NULL;
	if (r->n_runners && !(rn = sc_report_runner(r, s->shard))) {
		problem(r, s->sample, in->source, "wrong_shard", "shard %u is no runner of this report",
		        s->shard);
		return;
	}
	if (!r->n_runners && s->shard != r->shard_k) {
		problem(r, s->sample, in->source, "wrong_shard", "shard %u is not this report's %u",
		        s->shard, r->shard_k);
		return;
	}
	if (!rn && !r->run_id)
		r->run_id = xstrdup(s->run_id);
	const char *run_id = rn ? rn->run_id : r->run_id;
	if (strcmp(s->run_id, run_id) != 0) {
		problem(r, s->sample, in->source, "cross_run", "run ID %s is not this run's %s",
		        s->run_id, run_id);
		return;
	}
	if (strcmp(s->plan_digest, r->plan_digest) != 0) {
		problem(r, s->sample, in->source, "wrong_plan_digest",
		        "plan digest %s is not this plan's %s", s->plan_digest, r->plan_digest);
		return;
	}
	int side;
	struct sc_report_side *sd = find_slot(r, in, rn, &side);
	if (!sd)
		return;
	const char *want = sc_plan_side_rev(r->plan, side);
	if (strcmp(s->revision, want) != 0) {
		problem(r, s->sample, in->source, "wrong_revision",
		        "revision %s is not the %s side's %s", s->revision, sc_side_name(side), want);
		return;
	}
	if (s->repeat) { /* taken once the first samples are bound (confirm) */
		if (sd->rep[s->repeat]) {
			problem(r, s->sample, in->source, "duplicate", "another repeat %u for %s was read at %s",
			        s->repeat, s->sample, sd->rep[s->repeat]->source);
			return;
		}
		sd->rep[s->repeat] = in;
		charge(rn, s);
		return;
	}
	if (sd->state != SC_SLOT_MISSING) {
		/* Two samples for one slot: neither can be trusted to be the one
		 * the runner meant, so the slot is dropped altogether. */
		problem(r, s->sample, in->source, "duplicate", "another sample for %s%s%s",
		        s->sample, sd->in ? " was read at " : "", sd->in ? sd->in->source : "");
		sd->state = SC_SLOT_REJECTED;
		return;
	}
	sd->in = in;
	if (!s->ok) {
		sd->state = SC_SLOT_ERROR;
		problem(r, s->sample, in->source, "sample_error", "%s%s%s", sc_sample_error_name(s->error),
		        s->detail ? ": " : "", s->detail ? s->detail : "");
		return;
	}
	if (counters_to_ms(s, sd) < 0) {
		sd->state = SC_SLOT_ERROR;
		problem(r, s->sample, in->source, "out_of_range", "counters out of range");
		return;
	}
	sd->state = SC_SLOT_OK;
	/* the counter the report states is the compared samples': a summed
	 * prebuild may carry none (porcelain/prebuild.c) */
	if (sc_sample_prebuild_side(s->sample) < 0) {
		r->n_ok++;
		r->n_task_clock += s->has_task_clock != 0;
	}
	charge(rn, s);
}

/* A side's repeats joined to its first sample: the ok ones count, a failed
 * one is counted apart (a repeat is extra evidence, never a problem); CPU
 * becomes their median (Documentation/measurement.txt "Confirmation").
 * Returns whether the side had repeats. */
static int take_repeats(struct sc_report_side *sd)
{
	int any = 0;
	sd->first_ms = sd->cpu_ms;
	sd->samples_ms[sd->n_samples++] = sd->cpu_ms;
	for (unsigned k = 1; k <= SC_MAX_REPEATS; k++) {
		const struct sc_sample_in *in = sd->rep[k];
		long long ms;
		if (!in)
			continue;
		any = 1;
		if (in->s.ok && sc_sample_compared_ms(&in->s, &ms) == 0)
			sd->samples_ms[sd->n_samples++] = ms;
		else
			sd->n_rep_failed++;
	}
	sd->cpu_ms = sc_sample_median_ms(sd->samples_ms, sd->n_samples);
	return any;
}

/* Does SD's first sample lie farther from its repeats' median than three
 * times their spread (at least a tenth of that median, and 100 ms), and
 * twice or half that median at least?  A repeat that disagrees with the
 * first sample that far is no noise of one runner's CPU: a sample that
 * knows it is repeated (state the kernel keeps between samples) is one way
 * to get it (Documentation/measurement.txt "Confirmation"). */
static int disputed(const struct sc_report_side *sd)
{
	if (sd->state != SC_SLOT_OK || sd->n_samples < 2)
		return 0;
	const long long *rep = sd->samples_ms + 1;
	size_t n = sd->n_samples - 1;
	long long lo = rep[0], hi = rep[0];
	for (size_t i = 1; i < n; i++) {
		lo = rep[i] < lo ? rep[i] : lo;
		hi = rep[i] > hi ? rep[i] : hi;
	}
	long long med = sc_sample_median_ms(rep, n), spread = hi - lo;
	if (spread < med / 10)
		spread = med / 10;
	if (spread < 100)
		spread = 100;
	long long d = sd->first_ms > med ? sd->first_ms - med : med - sd->first_ms;
	return d > 3 * spread && (sd->first_ms >= 2 * med || 2 * sd->first_ms <= med);
}

/* A confirmed file's verdict: the median's, unless the repeats are
 * disputed and would overturn a flag; then its first samples judge it,
 * figures and all, so that no repeat a sample could steer takes a flag
 * away. */
static void confirm_verdict(struct sc_report *r, struct sc_report_file *rf)
{
	rf->disputed = disputed(&rf->side[SC_SIDE_BASE]) || disputed(&rf->side[SC_SIDE_HEAD]);
	if (!rf->disputed || !rf->first.flagged || rf->v.flagged)
		return;
	for (int s = 0; s < 2; s++)
		if (rf->side[s].state == SC_SLOT_OK)
			rf->side[s].cpu_ms = rf->side[s].first_ms;
	rf->first_kept = 1;
	sc_verdict_compute(rf->f->change, rf->side[SC_SIDE_BASE].cpu_ms,
	                   rf->side[SC_SIDE_HEAD].cpu_ms, &r->th, &rf->v);
}

/* A merged report's prebuild of a side: its runners' summed, as a side's
 * layers are (measurement.txt "Import order"), when every runner that
 * measures the side has an ok one; else the first runner's that is not
 * ok.  The sum is a sample of the report's own (r->merged_in). */
static void sum_prebuilds(struct sc_report *r, int side)
{
	struct sc_report_side *sum = &r->prebuild[side];
	struct sc_sample_in *in = &r->merged_in[side];
	memset(sum, 0, sizeof *sum);
	sum->state = SC_SLOT_UNUSED;
	for (size_t i = 0; i < r->n_runners; i++) {
		const struct sc_report_side *pb = &r->runners[i].prebuild[side];
		if (pb->state == SC_SLOT_UNUSED || (sum->state != SC_SLOT_UNUSED && sum->state != SC_SLOT_OK))
			continue;
		if (pb->state != SC_SLOT_OK) {
			*sum = *pb;
			continue;
		}
		if (sum->state == SC_SLOT_UNUSED) {
			in->source = xasprintf("%zu runners", r->n_runners);
			in->s.ok = 1;
			sum->state = SC_SLOT_OK;
			sum->in = in;
		}
		sum->cpu_ms += pb->cpu_ms, sum->user_ms += pb->user_ms;
		sum->sys_ms += pb->sys_ms, sum->wall_ms += pb->wall_ms;
		if (pb->in->s.max_rss_kib > in->s.max_rss_kib)
			in->s.max_rss_kib = pb->in->s.max_rss_kib;
	}
}

void sc_report_bind(struct sc_report *r, const struct sc_sample_in *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		bind_one(r, &in[i]);
	for (int side = 0; r->n_runners && side < 2; side++)
		sum_prebuilds(r, side);
	for (size_t i = 0; i < r->n_files; i++) {
		struct sc_report_file *rf = &r->files[i];
		int complete = 1;
		for (int s = 0; s < 2; s++) {
			if (rf->side[s].state == SC_SLOT_MISSING) {
				char *id = xasprintf("%s:%s", sc_side_name(s), rf->f->id);
				problem(r, id, NULL, "missing", "no sample for %s at %s", rf->f->path,
				        sc_plan_side_rev(r->plan, s));
				free(id);
			}
			if (rf->side[s].state != SC_SLOT_UNUSED && rf->side[s].state != SC_SLOT_OK)
				complete = 0;
		}
		if (!complete)
			continue;
		rf->compared = 1;
		r->n_compared++;
		sc_verdict_compute(rf->f->change, rf->side[SC_SIDE_BASE].cpu_ms,
		                   rf->side[SC_SIDE_HEAD].cpu_ms, &r->th, &rf->first);
		for (int s = 0; s < 2; s++)
			if (rf->side[s].state == SC_SLOT_OK)
				rf->confirmed |= take_repeats(&rf->side[s]);
		sc_verdict_compute(rf->f->change, rf->side[SC_SIDE_BASE].cpu_ms,
		                   rf->side[SC_SIDE_HEAD].cpu_ms, &r->th, &rf->v);
		if (rf->confirmed)
			confirm_verdict(r, rf);
		r->n_flagged += rf->v.flagged;
	}
}

void sc_report_not_compared_reason(const struct sc_report_file *rf, struct strbuf *out)
{
	sb_adds(out, "not compared:");
	const char *sep = " ";
	for (int s = 0; s < 2; s++) {
		const struct sc_report_side *sd = &rf->side[s];
		if (sd->state == SC_SLOT_UNUSED || sd->state == SC_SLOT_OK)
			continue;
		sb_addf(out, "%s%s sample ", sep, sc_side_name(s));
		sep = "; ";
		if (sd->state == SC_SLOT_MISSING)
			sb_adds(out, "missing");
		else if (sd->state == SC_SLOT_REJECTED)
			sb_adds(out, "ambiguous (duplicates)");
		else if (sd->in->s.ok)
			sb_adds(out, "has out-of-range counters");
		else
			sb_addf(out, "%s%s%s%s", sc_sample_error_name(sd->in->s.error), sd->in->s.detail ? " (" : "",
			        sd->in->s.detail ? sd->in->s.detail : "", sd->in->s.detail ? ")" : "");
	}
}

const char *sc_report_status(const struct sc_report *r)
{
	if (r->n_problems)
		return "error";
	return r->plan->no_changes ? "no_changes" : "ok";
}

void sc_report_free(struct sc_report *r)
{
	for (size_t i = 0; i < r->n_problems; i++) {
		free(r->problems[i].sample);
		free(r->problems[i].source);
		free(r->problems[i].detail);
	}
	free(r->problems);
	for (size_t i = 0; i < r->n_files; i++)
		for (int side = 0; side < 2; side++) {
			free(r->files[i].attr[side].note);
			sc_attr_free(&r->files[i].attr[side].a);
		}
	free(r->files);
	free(r->run_id);
	for (size_t i = 0; i < r->n_runners; i++)
		free(r->runners[i].run_id);
	free(r->runners);
	for (int side = 0; side < 2; side++)
		free(r->merged_in[side].source);
	memset(r, 0, sizeof *r);
}
