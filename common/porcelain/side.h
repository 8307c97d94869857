#ifndef SC_PORCELAIN_SIDE_H
#define SC_PORCELAIN_SIDE_H
/* The measurement (Documentation/measurement.txt "Measurement"), after
 * both trees are written: per side the tree goes to the sandbox user, Lake
 * loads the workspace read-only (preflight), the selected modules' imports
 * are built (prebuild), then each selected file is timed once, in the
 * phase budget, between two checks of the tree (seal.h).  Every step, or
 * the reason it did not run, becomes one line of samples.jsonl, decided
 * in-process by the contract layer (contract/rawsample, what
 * sc-parse-time prints) and bound to this run (run ID, plan digest,
 * revision).  Two modes, the command's choice; each returns 0, or -1 when
 * a tree could not be given back (the run exits 1, its report written). */
#include "contract/attrlist.h"
#include "porcelain/measure.h"

/* The sides one after the other, each tree given back as soon as its
 * side is done. */
int sc_measure_in_turn(const struct sc_measure *m);
/* Both sides layer by layer, both trees open to the end: the repeats of
 * --confirm follow each layer, the attribution runs of --attribute (into
 * ATTR) every first sample. */
int sc_measure_in_lockstep(const struct sc_measure *m, struct sc_attr_list *attr);

#endif
