#ifndef SC_PORCELAIN_SAMPLES_H
#define SC_PORCELAIN_SAMPLES_H
/* A profile run's samples (DESIGN.md "Measurement"): every measurement,
 * or the reason there is none, becomes one line of samples.jsonl, decided
 * in-process by the contract layer (contract/rawsample, what sc-parse-time
 * prints) and bound to this run (run ID, plan digest, revision). */
#include "porcelain/state.h"

/* Seconds as the progress lines show them: 2 decimals below 10, else 1
 * (allocated). */
char *sc_run_fmt_seconds(double s);
/* Where --keep-logs keeps one sandboxed invocation's output:
 * WS/logs/<side>-<name>.log (allocated). */
char *sc_run_log_path(const struct sc_run *r, int side, const char *name);
/* What a failure line says about Lake's output (allocated). */
char *sc_run_output_hint(const struct sc_run *r, int side, const char *name);

/* The sample "<side>:<file id>" is REASON (an error of the sample schema),
 * with DETAIL; no measurement. */
void sc_run_unmeasured(struct sc_run *r, int side, const struct sc_plan_file *f,
                       const char *reason, const char *detail);
/* SAMPLE from one raw time file and its status line; recorded, and
 * returned parsed in S.  Returns S->ok. */
int sc_run_parse_raw(struct sc_run *r, int side, const char *sample, const char *time_file,
                     const char *status_file, struct sc_sample *s);
/* The side's prebuild "<side>:@prebuild" is REASON with DETAIL. */
void sc_run_prebuild_unmeasured(struct sc_run *r, int side, const char *reason, const char *detail);
/* The prebuild's own counters as "<side>:@prebuild"; RC is sc-sandbox-exec's
 * (0 and 1 left a status line and a time file). */
void sc_run_prebuild_sample(struct sc_run *r, int side, int rc, const char *time_file,
                            const char *status_file);

#endif
