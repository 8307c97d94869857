#ifndef SC_PLANNING_COMPOSE_H
#define SC_PLANNING_COMPOSE_H
/* sc-plan's work: decide, from Git objects only, which Lean files a profile
 * run measures.  Reads T (tooling), B (base tip) and H (head) of the
 * repository with plumbing, never the working tree or index, never writes
 * the repository.
 *
 * Independent git commands run side by side (merge base, configuration
 * blob, the object reader); only the tree diff has to wait for the merge
 * base.  That keeps the whole run close to the cost of the bare plumbing,
 * and every error is still reported in one fixed order. */

/* The revisions of a request, as they are named in messages. */
enum { SC_PLAN_TOOLING, SC_PLAN_BASE, SC_PLAN_HEAD, SC_PLAN_MERGE_OF, SC_PLAN_NREVS };

struct sc_plan_request {
	const char *repo, *tooling, *base, *head; /* as given: full commit IDs */
	/* What the command calls each revision (its flags: "--tooling", ...):
	 * every message about one names it so.  The library names no flag. */
	const char *names[SC_PLAN_NREVS];
	const char *repo_name; /* what it calls the repository ("--repo") */
	const char *merge_of; /* NULL, or the commit the head merges into base */
	unsigned importers;   /* --importers: 0 (none), or at most SC_MAX_IMPORTERS */
	const char *version;                       /* profiler_version */
	/* The profiler's own source tree, which profile.tooling must match. */
	const char *srctree_sha1, *srctree_sha256;
	/* The commit the profiler was checked to be built from (the plan's
	 * revisions.profiler), or NULL when none was pinned. */
	const char *profiler_commit;
};

/* Write the plan (contract/plan.h) on stdout, then warn when the head is
 * already in the base; dies with the first error in the fixed order. */
void sc_plan_compose(const struct sc_plan_request *rq);

#endif
