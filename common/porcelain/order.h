#ifndef SC_PORCELAIN_ORDER_H
#define SC_PORCELAIN_ORDER_H
/* The order of a side's samples (Documentation/measurement.txt "Import
 * order"): no selected module is elaborated before its own sample.  A
 * selected module's layer is 0 when no other selected module lies in its
 * import cone, else one more than the highest layer there; the side builds
 * the cones of one layer, samples that layer, then goes on.  The cones are
 * read from the headers of the side's tree, which the host wrote from
 * blobs and the sandbox cannot change (only .lake is writable there). */
#include "contract/plan.h"
#include "util/argv.h"

struct sc_order {
	/* Per plan file, indexed as plan->files: its layer on the side, or -1
	 * (not on the side, or its cone could not be read). */
	int *layer;
	/* Per plan file: why its import cone could not be read, or NULL. */
	char **unreadable;
	int n_layers;
};

/* Read the side's import cones from TREE (the side's tree, whose Lean
 * modules live below profile.sourceDir).  A module of the project is a
 * regular file SRCDIR/A/B.lean of the tree; any other import (a
 * dependency's, the toolchain's) has no edge back into the project.
 * Never fails: a cone it cannot read is named in o->unreadable. */
void sc_order_side(const struct sc_plan *p, const char *tree, enum sc_side side, struct sc_order *o);
void sc_order_free(struct sc_order *o, size_t n_files);

/* The order, checked rather than only modelled (it holds even where the
 * header reader were wrong): before a sample of layer LAYER, TREE shows
 * no build output (.olean, .ilean, .trace below .lake/build/lib/lean, no
 * link on the way) of any selected module of the side in layer LAYER or
 * later that is not sampled yet (SAMPLED, per plan file).  1 with which
 * and where in WHY when it does (or cannot be looked at), else 0. */
int sc_order_violated(const struct sc_plan *p, const struct sc_order *o, const char *tree,
                      enum sc_side side, int layer, const char *sampled, struct strbuf *why);

/* The "+A.B:deps" targets of one prebuild layer of O, or with O NULL of
 * every file of the plan P, pushed onto CMD; returns how many. */
size_t sc_order_push_targets(const struct sc_plan *p, const struct sc_order *o, int layer,
                             struct sc_argv *cmd);

#endif
