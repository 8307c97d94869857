#ifndef SC_PORCELAIN_SAMPLES_H
#define SC_PORCELAIN_SAMPLES_H
/* The samples of one profile run (Documentation/measurement.txt
 * "Measurement"): each bound to the run (its run ID, the plan's digest,
 * the side's revision) and recorded as the line sc-parse-time would print
 * for it, in the order they were decided; samples.jsonl is these lines. */
#include "contract/plan.h"
#include "contract/sample.h"
#include "util/strbuf.h"

struct sc_samples {
	const struct sc_plan *plan;
	const char *run_id, *digest;
	struct strbuf lines; /* samples.jsonl so far */
	int failed;          /* an error sample was recorded (a repeat's never counts) */
	unsigned repeat;     /* while a repeat is measured (--confirm): its number, bound to
	                        every sample made meanwhile; else 0 */
};

void sc_samples_init(struct sc_samples *sm, const struct sc_plan *plan, const char *run_id,
                     const char *digest);
void sc_samples_release(struct sc_samples *sm);

/* S, emptied, bound as the sample "<side>:<id>" (ID a file's, or
 * SC_PREBUILD_ID), the repeat under way with it. */
void sc_samples_bind(const struct sc_samples *sm, int side, const char *id, struct sc_sample *s);
/* S recorded, its detail bounded first so that S is what its line says.
 * Returns S->ok. */
int sc_samples_record(struct sc_samples *sm, struct sc_sample *s);
/* The sample "<side>:<id>" recorded as REASON (an error of the sample
 * schema) with DETAIL: nothing measured. */
void sc_samples_unmeasured(struct sc_samples *sm, int side, const char *id, const char *reason,
                           const char *detail);

#endif
