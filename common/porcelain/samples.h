#ifndef SC_PORCELAIN_SAMPLES_H
#define SC_PORCELAIN_SAMPLES_H
/* The samples of one profile run (Documentation/measurement.txt
 * "Measurement"): each bound to the run (its run ID, the plan's digest,
 * the side's revision) and recorded as the line sc-parse-time would print
 * for it, in the order they were decided; samples.jsonl is these lines. */
#include "contract/plan.h"
#include "contract/sample.h"
#include "util/strbuf.h"

/* One plan file's compared CPU on each side (contract/sample.h
 * sc_sample_compared_ms), as its ok samples are recorded: what --confirm
 * and --attribute judge it by. */
struct sc_file_cpu {
	long long ms[2];         /* its first sample's, when OK */
	unsigned char ok[2];     /* its first sample was ok */
	long long all[2][SC_MAX_REPEATS + 1]; /* every ok sample's, first and repeats */
	unsigned char n[2];
};

struct sc_samples {
	const struct sc_plan *plan;
	const char *run_id, *digest;
	unsigned shard;      /* the plan's shard this run measures; 0 unsharded */
	struct strbuf lines; /* samples.jsonl so far */
	struct sc_file_cpu *cpu; /* per plan file */
	int failed;          /* an error sample was recorded (a repeat's never counts) */
};

void sc_samples_init(struct sc_samples *sm, const struct sc_plan *plan, const char *run_id,
                     const char *digest);
void sc_samples_release(struct sc_samples *sm);

/* S, emptied, bound as the sample "<side>:<id>" (ID a file's, or
 * SC_PREBUILD_ID), its REPEAT (0 the first sample; k the k-th repeat of
 * --confirm). */
void sc_samples_bind(const struct sc_samples *sm, int side, const char *id, unsigned repeat,
                     struct sc_sample *s);
/* S recorded, its detail bounded first so that S is what its line says;
 * an ok sample of a plan file adds to its CPU.  Returns S->ok. */
int sc_samples_record(struct sc_samples *sm, struct sc_sample *s);
/* What the ok samples of plan file F recorded so far came to. */
const struct sc_file_cpu *sc_samples_cpu(const struct sc_samples *sm, const struct sc_plan_file *f);

#endif
