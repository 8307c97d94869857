#ifndef SC_PORCELAIN_SIDE_H
#define SC_PORCELAIN_SIDE_H
/* 5. The measurement (Documentation/measurement.txt "Measurement"): sides one at a time; per
 * side the tree goes to the sandbox user, Lake loads the workspace
 * read-only (preflight), the selected modules' imports are built
 * (prebuild), then each selected file is timed once, in the phase budget,
 * between two checks of the tree (seal.h).  Every step, or the reason it
 * did not run, becomes one line of samples.jsonl, decided in-process by
 * the contract layer (contract/rawsample, what sc-parse-time prints) and
 * bound to this run (run ID, plan digest, revision). */
#include "porcelain/state.h"

void sc_run_measure(struct sc_run *r);

/* What sc-sandbox-exec's exit code RC makes of a sandboxed step: 0 ran
 * and succeeded, 1 ran and failed (its status line says how), 2 did not
 * run; 3 or a signal (sc-sandbox-exec itself was killed: its sandbox ends
 * with it and leaves no status line) did not run either, and the run ends
 * with SC_EXIT_SYSTEM once its report is written. */
enum sc_step_outcome { SC_STEP_OK, SC_STEP_FAILED, SC_STEP_NOT_RUN };
enum sc_step_outcome sc_run_step_outcome(struct sc_run *r, int rc);

/* Seconds as the progress lines show them: 2 decimals below 10, else 1
 * (allocated). */
char *sc_run_fmt_seconds(double s);
/* Where --keep-logs keeps one sandboxed invocation's output:
 * WS/logs/<side>-<name>.log (allocated). */
char *sc_run_log_path(const struct sc_run *r, int side, const char *name);
/* What a failure line says about Lake's output (allocated). */
char *sc_run_output_hint(const struct sc_run *r, int side, const char *name);

#endif
