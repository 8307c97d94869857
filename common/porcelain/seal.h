#ifndef SC_PORCELAIN_SEAL_H
#define SC_PORCELAIN_SEAL_H
/* What candidate code can touch in a side's tree (Documentation/measurement.txt "Sealed
 * measurement"): the tree is the operator's and read-only in the sandbox
 * but for .lake, the sandbox user's; Lake's compiled configuration, made
 * by the preflight from T's files, is read-only to every later step; the
 * selected source and the Lake configuration files are checked against
 * the plan's blobs before and after each sample; after the side's last
 * step what candidate code wrote (.lake) is closed to the operator. */
#include "contract/plan.h"
#include "porcelain/step.h"

/* The tree's .lake, new (a committed .lake is refused) and the sandbox
 * user's, before candidate code first runs in the tree. */
void sc_seal_prepare_tree(const struct sc_steps *steps, int side);

/* After the preflight: the compiled configuration it left under TREE's
 * .lake (.lake/config from Lean 4.31, .lake/lakefile.olean* before), to be
 * mounted read-only in every later step (sc-sandbox-exec --read-only):
 * each path, relative to TREE, appended to OUT. */
void sc_seal_find_config(const char *tree, struct sc_argv *out);

/* 1 when the selected source F and every Lake configuration file of the
 * side's TREE are still PLAN's blobs (absent ones still absent); else 0
 * with what differs in WHY. */
int sc_seal_unchanged(const char *tree, int side, const struct sc_plan *plan,
                      const struct sc_plan_file *f, struct strbuf *why);

/* After the side's last sandboxed step, the tree's .lake, everything
 * candidate code wrote: as root, left the run's own uid's, setuid and
 * setgid bits cleared, closed (mode 000); else removed (util/fswalk: no
 * link followed, closed folders entered, past errors).  The tree keeps its
 * sources, the operator's.  Returns 0, or -1 with the first failure in
 * WHY. */
int sc_seal_give_back(const struct sc_steps *steps, int side, struct strbuf *why);

#endif
