#ifndef SC_PORCELAIN_SEAL_H
#define SC_PORCELAIN_SEAL_H
/* What candidate code can touch in a side's tree (Documentation/measurement.txt "Sealed
 * measurement"): the tree is the operator's and read-only in the sandbox
 * but for .lake, the sandbox user's; Lake's compiled configuration, made
 * by the preflight from T's files, is read-only to every later step; the
 * selected source and the Lake configuration files are checked against
 * the plan's blobs before and after each sample; after the side's last
 * step what candidate code wrote (.lake) is closed to the operator. */
#include "porcelain/state.h"

/* The tree's .lake, new (a committed .lake is refused) and the sandbox
 * user's, before candidate code first runs in the tree. */
void sc_run_prepare_tree(struct sc_run *r, int side);

/* After the preflight: the compiled configuration it left under .lake
 * (.lake/config from Lean 4.31, .lake/lakefile.olean* before), to be
 * mounted read-only in every later step (sc-sandbox-exec --read-only). */
void sc_run_seal_config(struct sc_run *r, int side);
/* "--read-only PATH" for each sealed path of the side, appended to A. */
void sc_run_push_sealed(const struct sc_run *r, int side, struct sc_argv *a);

/* 1 when the selected source and every Lake configuration file of the
 * side's tree are still the plan's blobs (absent ones still absent); else
 * 0 with what differs in WHY. */
int sc_run_measured_unchanged(const struct sc_run *r, int side, const struct sc_plan_file *f,
                              struct strbuf *why);

/* After the side's last sandboxed step, the tree's .lake, everything
 * candidate code wrote: as root, left the run's own uid's, setuid and
 * setgid bits cleared, closed (mode 000); else removed (util/fswalk: no
 * link followed, closed folders entered, past errors).  The tree keeps its
 * sources, the operator's.  Returns 0, or -1 with the first failure in
 * WHY. */
int sc_run_give_back(struct sc_run *r, int side, struct strbuf *why);

#endif
