#ifndef SC_VERDICT_H
#define SC_VERDICT_H
/* TauCeti's CPU thresholds, as integer-millisecond arithmetic.
 *
 * Samples carry seconds with three decimals (GNU time resolves 10 ms), so
 * every quantity is rounded to the nearest millisecond first and compared
 * exactly: a head of exactly 1.5 x base, or exactly base + 30 s, or exactly
 * 150 s, sits on the boundary and is flagged (boundaries are inclusive).
 * Doing this in doubles would let 1.5 * 60.01 land a hair off 90.015.
 *
 *   modified: flagged iff head >= ratio * base  AND  head - base >= delta
 *   added:    flagged iff head >= added
 *   removed:  never flagged (listed only)
 *
 * A base of 0 ms makes the ratio undefined: the ratio condition holds
 * (head >= ratio * 0 for any head), so the delta decides; the ratio is
 * reported as absent (has_ratio = 0) rather than as infinity. */
#include "contract/plan.h"
#include "contract/sample.h"
#include "util/strbuf.h"

struct sc_thresholds {
	long long ratio_milli; /* 1.5 -> 1500 */
	long long delta_ms;    /* 30 s -> 30000 */
	long long added_ms;    /* 150 s -> 150000 */
};

#define SC_DEFAULT_RATIO_MILLI 1500
/* The largest ratio threshold: 1000x. */
#define SC_MAX_RATIO_MILLI 1000000
#define SC_DEFAULT_DELTA_MS 30000
#define SC_DEFAULT_ADDED_MS 150000

void sc_thresholds_default(struct sc_thresholds *t);
int sc_thresholds_are_default(const struct sc_thresholds *t);


struct sc_verdict {
	int flagged;
	int ratio_met;  /* modified only: head >= ratio * base */
	int delta_met;  /* modified only: head - base >= delta */
	int has_ratio;  /* 0 when base is 0 or the change is not "modified" */
	long long ratio_milli; /* head / base in thousandths, truncated */
	long long delta_ms;    /* head - base (modified only) */
};

/* Pure: base_ms is ignored for added, head_ms for removed. */
void sc_verdict_compute(enum sc_change change, long long base_ms, long long head_ms,
                        const struct sc_thresholds *t, struct sc_verdict *v);
/* One sentence for a person, e.g. "head ≥ 1.5× base and ≥ +30 s". */
void sc_verdict_reason(enum sc_change change, const struct sc_verdict *v,
                       const struct sc_thresholds *t, struct strbuf *out);

/* Figures shown to a person are truncated toward minus infinity at a
 * precision at which every threshold is exact (at least 2 decimals): a shown
 * figure then sits on the same side of each threshold as the exact one, so
 * the display never contradicts the verdict (ratio 1.49998 shows "1.49",
 * never "1.50" beside "below 1.5×"). */
struct sc_display {
	int sec_decimals;   /* CPU seconds and deltas */
	int ratio_decimals; /* ratios */
};
void sc_display_init(const struct sc_thresholds *t, struct sc_display *d);
/* Milliseconds at that many decimals (0-3), truncated: -50, 1 -> "-0.1". */
void sc_format_ms_floor(long long ms, int decimals, struct strbuf *out);
/* head / base (base > 0) at that many decimals, truncated. */
void sc_format_ratio_floor(long long head_ms, long long base_ms, int decimals,
                           struct strbuf *out);
/* Wall time bears on no verdict: tenths, rounded. */
void sc_format_wall(long long ms, struct strbuf *out);
/* (head - base) / base in percent (base > 0), one decimal, truncated, with
 * its sign: "+50.0", "-33.4", "+0.0". */
void sc_format_pct_floor(long long head_ms, long long base_ms, struct strbuf *out);

#endif
