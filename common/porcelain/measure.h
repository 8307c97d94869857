#ifndef SC_PORCELAIN_MEASURE_H
#define SC_PORCELAIN_MEASURE_H
/* What the measurement path is handed (Documentation/architecture.txt
 * "State flows forward"): the plan, the sandboxed steps, where samples go
 * (a recorder: the samples and the progress lines), what the preflight
 * needs, and the few options that shape the measurement; nothing else of
 * the run.  side.c, prebuild.c and attribute.c take it, or less. */
#include "contract/plan.h"
#include "contract/sample.h"
#include "porcelain/preflight.h"
#include "porcelain/progress.h"
#include "porcelain/samples.h"
#include "porcelain/step.h"
#include "report/verdict.h"
#include "util/strbuf.h"

struct sc_measure_opts {
	double prebuild_timeout, sample_timeout, phase_timeout;
	struct sc_display display; /* how the report will show figures: progress lines too */
	struct sc_thresholds th;   /* as the report will judge: which files --confirm repeats */
	unsigned confirm;          /* --confirm N: repeats of a file near a threshold (0-4) */
	int attribute;             /* --attribute: Lean's profile of each flagged file */
};

/* Where every sample goes: recorded, then said. */
struct sc_recorder {
	struct sc_samples *samples;
	struct sc_progress *progress;
	const struct sc_display *display; /* an ok sample's figures, as the report shows them */
	const char *workspace;            /* named when a signal stops the run */
};

/* S recorded (samples.h), unless the run was interrupted meanwhile (then
 * it dies with 128+N, naming the workspace).  Returns S->ok. */
int sc_recorder_record(const struct sc_recorder *rec, struct sc_sample *s);
/* The end of one sample of the file at PATH on SIDE: S (bound, ok or an
 * error) recorded and freed, and its progress line
 * "<side> <path>[, repeat K]: LINE". */
void sc_recorder_said(const struct sc_recorder *rec, int side, const char *path,
                      struct sc_sample *s, const char *line);
/* A first sample of F on SIDE that never ran: REASON with DETAIL,
 * recorded, and said with LINE. */
void sc_recorder_unmeasured(const struct sc_recorder *rec, int side, const struct sc_plan_file *f,
                            enum sc_sample_error reason, const char *detail, const char *line);
/* An ok sample's "C s CPU, W s wall" as the report shows them: the
 * compared CPU truncated at the report's decimals, the wall in tenths
 * (one figure everywhere). */
void sc_sample_figures(const struct sc_display *d, const struct sc_sample *s, struct strbuf *out);

struct sc_measure {
	const struct sc_plan *plan;
	const struct sc_measure_opts *o;
	struct sc_steps *steps;
	const struct sc_recorder *rec;
	const struct sc_preflight *pf;
};

#endif
