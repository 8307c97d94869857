#ifndef SC_PORCELAIN_ATTRIBUTE_H
#define SC_PORCELAIN_ATTRIBUTE_H
/* profile-run --attribute (Documentation/measurement.txt "Attribution"):
 * once every sample is in, each flagged file elaborated once more on each
 * of its sides, in the same sandbox, with Lean's profiler writing its own
 * file into the tree's .lake.  That file is the candidate's: it is copied
 * out beneath the tree, bounded, and never parsed here (sc-report reads
 * it, for a section of its own).  No attribution run is a sample. */
#include "contract/attrlist.h"
#include "porcelain/measure.h"

/* The attribution runs of every flagged file, on the sides whose trees
 * are still open (OPEN), within the phase budget (PHASE_USED so far),
 * each added to OUT.  Returns the budget used. */
double sc_attribute_flagged(const struct sc_measure *m, const int open[2], double phase_used,
                            struct sc_attr_list *out);

#endif
