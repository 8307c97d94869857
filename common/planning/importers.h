#ifndef SC_PLAN_IMPORTERS_H
#define SC_PLAN_IMPORTERS_H
/* sc-plan --importers N (Documentation/planning.txt "Importers"): a
 * change can leave its own file fast and make every file importing it
 * slow (a new instance, a simp lemma).  Besides the changed files, the
 * plan then selects up to N library or roadmap modules that are unchanged
 * between the merge base and the head and that, at the head, directly
 * import a modified or added module: most changed modules imported first,
 * then most importers of their own at the head, then by path.  Imports are
 * read from the head's blobs (planning/header.h); a header that cannot be
 * read is named in the plan, never guessed. */
#include "contract/plan.h"
#include "planning/modgraph.h"

/* Appends the importers to p->files (after the changed files, which must
 * be selected already) and sets p->importers_*; LIMIT 1 to
 * SC_MAX_IMPORTERS.  MG is the head's module graph. */
void sc_select_importers(const struct sc_modgraph *mg, struct sc_plan *p, unsigned limit);

#endif
