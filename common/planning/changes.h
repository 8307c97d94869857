#ifndef SC_CHANGES_H
#define SC_CHANGES_H
/* The changed files of a plan, from "git diff-tree -r --no-renames -z"
 * raw output between the merge base and the head (a rename is therefore a
 * removal plus an addition).
 *
 * Only paths in a root's area count: R.lean, or anything below R/, for a
 * library or roadmap root R.  In that area:
 *   - a type change, a symlink or a submodule (gitlink) on either side fails,
 *     whatever the name: such an entry could bring Lean sources into the
 *     tree that no blob of the plan describes;
 *   - other files not ending in ".lean" are ignored (data, README, ...);
 *   - a ".lean" path with a component that is not a plain identifier is an
 *     unsupported module name and fails;
 *   - more than the plan's max files (profile.maxFiles) selected fails.
 * Mode-only changes (100644 <-> 100755) count as modified. */
#include <stddef.h>
#include "contract/plan.h"
#include "util/argv.h"
#include "util/die.h"
#include "util/strbuf.h"

/* The roots' areas: R and R.lean for each root, below profile.sourceDir
 * too when it is set, pushed onto PATHS. */
void sc_changes_areas(const struct sc_plan *p, struct sc_argv *paths);
/* The git arguments (after git's own options) of the diff-tree whose
 * output sc_changes_select reads: MBASE against p->head, raw, whole IDs,
 * no renames, submodules and external diff drivers as git stores them,
 * restricted to the roots' areas (R and R.lean, below profile.sourceDir
 * too when it is set: a root's place outside it is refused, not skipped).
 * Pushed onto args. */
void sc_changes_diff_args(const struct sc_plan *p, const char *mbase, struct sc_argv *args);

struct sc_rawdiff {
	unsigned old_mode, new_mode;
	char old_hex[65], new_hex[65];
	char status;      /* 'A', 'D', 'M', 'T', ... */
	const char *path; /* NUL-terminated, inside the buffer */
};

/* Parse the next record at *pos; 1 and advance, 0 at the end, -1 when
 * malformed. */
int sc_rawdiff_next(const char *buf, size_t len, size_t *pos, int hexsz, struct sc_rawdiff *d);

/* 1 if path is R.lean or below R/ for some library or roadmap root. */
int sc_plan_in_root_area(const struct sc_plan *p, const char *path);

/* Turn raw diff output into p->files (sorted by path) and p->no_changes.
 * The roots of p must be set.  Returns SC_EXIT_OK; SC_EXIT_POLICY with err
 * set for a change sphereceti does not measure (the message names the
 * rule and the path: Documentation/planning.txt "Not measured by
 * policy"); SC_EXIT_SYSTEM with err set when git's output itself is
 * malformed. */
enum sc_exit sc_changes_select(struct sc_plan *p, const char *raw, size_t len, int hexsz,
                      struct strbuf *err);

#endif
