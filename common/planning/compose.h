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
	/* --shards: 0 (one runner), N (at most SC_MAX_SHARDS), or by
	 * .sphereceti (shards_auto) */
	unsigned shards;
	int shards_auto;
	/* an earlier report whose CPU balances the shards (planning/shards.h),
	 * or NULL: the blobs' bytes */
	const char *costs;
	const char *version;                       /* profiler_version */
	/* The profiler's own source tree, which profile.tooling must match. */
	const char *srctree_sha1, *srctree_sha256;
	/* The commit the profiler was checked to be built from (the plan's
	 * revisions.profiler), or NULL when none was pinned. */
	const char *profiler_commit;
};

/* One plan in the making.  Its steps are called once each, in the order
 * below (cmd/sc-plan.c): each dies with its own error, so that the first
 * error in that order is the one reported, whatever git answered first. */
struct sc_planning;

/* The repository opened and every git command that needs only the
 * arguments started side by side (merge base, configuration blob). */
struct sc_planning *sc_planning_start(const struct sc_plan_request *rq);
/* The revisions resolved to full IDs of this repository's object format. */
void sc_planning_take_ids(struct sc_planning *w);
/* The configuration parsed and the merge base taken; the differences under
 * the roots counted (bounded) and then the diff started. */
void sc_planning_collect(struct sc_planning *w);
/* Each revision a commit; with a merge-of, the head exactly that merge. */
void sc_planning_check_commits(struct sc_planning *w);
void sc_planning_check_merge(struct sc_planning *w);
/* T's .sphereceti, and its tooling path against this profiler's tree. */
void sc_planning_check_config(struct sc_planning *w);
/* The Lake files of T, read. */
void sc_planning_read_lake(struct sc_planning *w);
/* The unique merge base M of the base and the head, and its tree. */
void sc_planning_take_merge_base(struct sc_planning *w);
/* The Lake files of T the same at the merge base and at the head. */
void sc_planning_check_lake(struct sc_planning *w);
/* The changed Lean files under the roots selected from the diff. */
void sc_planning_select_changes(struct sc_planning *w);
/* Every header under the roots at the head: the rebuild count, and the
 * importers asked for (Documentation/planning.txt "The rebuild"). */
void sc_planning_read_modules(struct sc_planning *w);
/* The files dealt among the shards asked for (planning/shards.h), by
 * their blobs' bytes on both sides: returns how many shards the plan has
 * (1: no shard), and sets *ASKED to how many were asked (by .sphereceti
 * with shards_auto); fewer when the files form fewer groups. */
unsigned sc_planning_assign_shards(struct sc_planning *w, unsigned *asked);
/* Each selected module built by a lean_lib of T's lakefile.toml. */
void sc_planning_check_lean_libs(struct sc_planning *w);
/* The plan (contract/plan.h) on stdout. */
void sc_planning_print(struct sc_planning *w);
/* Is the head already in the base (a valid no_changes plan, almost
 * always a mistake)? */
int sc_planning_head_in_base(const struct sc_planning *w);
void sc_planning_free(struct sc_planning *w);

/* One help text for each of sc-plan's options, in sc-plan's table and in
 * the porcelain's that passes them through. */
#define SC_PLAN_HELP_REPO "the Git repository, read with plumbing only"
#define SC_PLAN_HELP_TOOLING "the trusted tooling commit, whose .sphereceti counts"
#define SC_PLAN_HELP_BASE "the base branch tip"
#define SC_PLAN_HELP_HEAD "the candidate head"
#define SC_PLAN_HELP_MERGE_OF "H is the merge of P (a pull request's head) into B"
#define SC_PLAN_HELP_IMPORTERS "also measure up to N unchanged importers of a changed module (0-32)"
#define SC_PLAN_HELP_COSTS "balance the shards by an earlier report's CPU (report.json)"
#define SC_PLAN_HELP_SHARDS "split the files among N runners (1-256), or as .sphereceti says (auto)"
#define SC_PLAN_HELP_PROFILER_COMMIT "this profiler must be the build of sphereceti's commit C"

#endif
