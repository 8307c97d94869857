#ifndef SC_PORCELAIN_SIDE_H
#define SC_PORCELAIN_SIDE_H
/* The measurement (Documentation/measurement.txt "Measurement"), after
 * both trees are written: sides one at a time; per side the tree goes to
 * the sandbox user, Lake loads the workspace read-only (preflight), the
 * selected modules' imports are built (prebuild), then each selected file
 * is timed once, in the phase budget, between two checks of the tree
 * (seal.h).  Every step, or the reason it did not run, becomes one line
 * of samples.jsonl, decided in-process by the contract layer
 * (contract/rawsample, what sc-parse-time prints) and bound to this run
 * (run ID, plan digest, revision). */
#include "porcelain/state.h"

void sc_run_measure(struct sc_run *r);

#endif
