#ifndef SC_PLAN_IMPORTERS_H
#define SC_PLAN_IMPORTERS_H
/* sc-plan --importers N (Documentation/planning.txt "Importers"): a
 * change can leave its own file fast and make every file importing it
 * slow (a new instance, a simp lemma).  Besides the changed files, the
 * plan then selects up to N library or roadmap modules that are unchanged
 * between the merge base and the head and that, at the head, directly
 * import a modified or added module: most changed modules imported first,
 * then most importers of their own at the head, then by path.  Imports are
 * read from the head's blobs (plan/imports.h); a header that cannot be
 * read is named in the plan, never guessed. */
#include "contract/plan.h"
#include "git/git.h"

/* Appends the importers to p->files (after the changed files, which must
 * be selected already) and sets p->importers_*; LIMIT 1 to
 * SC_MAX_IMPORTERS.  HEAD_TREE is the head's root tree.  Dies when git
 * fails. */
void sc_select_importers(struct sc_catfile *c, const struct sc_git *g, const char *head_tree,
                         struct sc_plan *p, unsigned limit);

#endif
