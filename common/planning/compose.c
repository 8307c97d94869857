#include "planning/compose.h"
#include "git/git.h"
#include "git/treelookup.h"
#include "git/treediff.h"
#include "git/treewalk.h"
#include "planning/changes.h"
#include "planning/importers.h"
#include "planning/modgraph.h"
#include "contract/plan.h"
#include "planning/planner.h"
#include "planning/repoconfig.h"
#include "planning/shards.h"
#include "planning/revs.h"
#include "util/die.h"
#include "util/safefile.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { T = SC_PLAN_TOOLING, B = SC_PLAN_BASE, H = SC_PLAN_HEAD, P = SC_PLAN_MERGE_OF };

/* One plan in the making: the git commands that run side by side and what
 * they answered. */
struct sc_planning {
	const char *repo, *ids[4]; /* ids[P]: NULL unless the head is a merge */
	const struct sc_plan_request *rq;
	struct sc_git g;
	struct sc_plan p;
	struct sc_catfile *c;
	struct sc_gitjob mb_job, cfg_job, diff_job;
	char *cfg_spec;
	struct strbuf cfg_out, cfg_err, mb_out;
	int cfg_rc, cfg_parsed, mb_rc, diffing;
	enum sc_treediff counted; /* the areas' differences before the diff */
	struct strbuf count_why;
	char trees[4][SC_MAX_HEXSZ + 1];
	char merge_base_tree[SC_MAX_HEXSZ + 1];
	size_t *groups; /* with --shards: each file's group (planning/shards.h) */
	unsigned long long *head_bytes; /* and its head blob's size, +1 (0: not read) */
};

/* Everything that needs only the arguments starts at once: these git
 * commands read objects named by full IDs and nothing else, so their
 * answers can wait until the IDs are known to be commits of this
 * repository; every error is still reported in one fixed order. */
static void start(struct sc_planning *w)
{
	struct sc_gitjob open_job;
	int early = sc_looks_like_full_oid(w->ids[T]) && sc_looks_like_full_oid(w->ids[B]) &&
	            sc_looks_like_full_oid(w->ids[H]);
	w->cfg_spec = xasprintf("%s:%s", w->ids[T], SC_CONFIG_FILE);
	sc_git_open_start(&open_job, w->repo);
	if (early) {
		const char *mb_args[] = {"merge-base", "--all", w->ids[B], w->ids[H], NULL};
		const char *cfg_args[] = {"config", "--no-includes", "--blob", w->cfg_spec,
		                          "--list", "-z", NULL};
		sc_gitjob_start_at(&w->mb_job, w->repo, mb_args);
		sc_gitjob_start_at(&w->cfg_job, w->repo, cfg_args);
	}
	struct strbuf why = STRBUF_INIT;
	if (sc_git_open_finish(&open_job, w->repo, &w->g, &why) < 0)
		sc_die("%s (%s %s)", why.buf, w->rq->repo_name, w->repo);
	sb_release(&why);
}

/* Not early means a bad ID, and this dies before a job is waited for. */
void sc_planning_take_ids(struct sc_planning *w)
{
	struct sc_plan *p = &w->p;
	p->tooling = xcalloc(1, SC_MAX_HEXSZ + 1);
	p->base_tip = xcalloc(1, SC_MAX_HEXSZ + 1);
	p->head = xcalloc(1, SC_MAX_HEXSZ + 1);
	if (w->ids[P])
		p->merge_of = xcalloc(1, SC_MAX_HEXSZ + 1);
	char *hexes[4] = {p->tooling, p->base_tip, p->head, p->merge_of};
	struct sc_bad_ids bad = SC_BAD_IDS_INIT;
	for (int i = 0; i < 4; i++)
		if (hexes[i])
			sc_rev_full_id(&w->g, w->ids[i], w->rq->names[i], hexes[i], &bad);
	sc_bad_ids_die(&bad, "; 'git rev-parse REV^{commit}' in the repository prints the full ID");
	/* The object reader starts up while merge-base and config finish. */
	w->c = sc_catfile_open(&w->g);
}

/* How many entries of the roots' areas differ, head against merge base. */
static enum sc_treediff count_areas(struct sc_planning *w, const char *mbase)
{
	char trees[2][SC_MAX_HEXSZ + 1];
	if (sc_commit_tree(w->c, &w->g, mbase, trees[0]) < 0 ||
	    sc_commit_tree(w->c, &w->g, w->p.head, trees[1]) < 0) {
		sb_adds(&w->count_why, "cannot read the merge base's or the head's tree");
		return SC_TREEDIFF_BAD; /* a bad commit: check_commits names it first */
	}
	struct sc_argv areas = SC_ARGV_INIT;
	sc_changes_areas(&w->p, &areas);
	enum sc_treediff rc = SC_TREEDIFF_OK;
	size_t budget = SC_TREE_MAX_ENTRIES;
	for (size_t i = 0; i < areas.n && rc == SC_TREEDIFF_OK; i++) {
		struct sc_tree_entry e[2];
		int r[2];
		for (int k = 0; k < 2; k++)
			if ((r[k] = sc_tree_find(w->c, &w->g, trees[k], areas.v[i], &e[k])) < 0) {
				sb_addf(&w->count_why, "cannot read tree %s on the way to %s", trees[k], areas.v[i]);
				rc = SC_TREEDIFF_BAD;
			}
		if (rc != SC_TREEDIFF_OK || !r[1] || e[1].mode != SC_MODE_TREE)
			continue; /* a file or nothing at the head: one entry at most */
		size_t n;
		rc = sc_tree_diff_count(w->c, &w->g, r[0] && e[0].mode == SC_MODE_TREE ? e[0].hex : NULL,
		                        e[1].hex, budget, &n, &w->count_why);
		budget -= rc == SC_TREEDIFF_OK ? n : 0;
	}
	sc_argv_release(&areas);
	return rc;
}

/* The diff needs only the merge base and the roots: it starts as soon as
 * both are known good, before the commits are checked.  Not before the
 * areas' differences are counted, though: git diff-tree holds every
 * changed pair before it prints one, and a few kilobytes of trees name
 * ten million paths (Documentation/threat-model.txt, "The fourth round"). */
void sc_planning_collect(struct sc_planning *w)
{
	w->cfg_rc = sc_gitjob_finish(&w->cfg_job, &w->cfg_out);
	w->cfg_parsed = w->cfg_rc == 0 ? sc_repoconfig_parse(w->cfg_out.buf, w->cfg_out.len,
	                                                     &w->p, &w->cfg_err)
	                               : -1;
	w->mb_rc = sc_gitjob_finish(&w->mb_job, &w->mb_out);
	w->diffing = w->cfg_parsed == 0 && w->p.n_library && w->mb_rc == 0 &&
	             w->mb_out.len == (size_t)w->g.hexsz + 1;
	if (!w->diffing)
		return;
	char mbase[SC_MAX_HEXSZ + 1];
	memcpy(mbase, w->mb_out.buf, (size_t)w->g.hexsz);
	mbase[w->g.hexsz] = '\0';
	w->counted = count_areas(w, mbase);
	if (w->counted != SC_TREEDIFF_OK) {
		w->diffing = 0;
		return;
	}
	struct sc_argv args = SC_ARGV_INIT;
	sc_changes_diff_args(&w->p, mbase, &args);
	sc_gitjob_start(&w->diff_job, &w->g, args.v);
	sc_argv_release(&args);
}

void sc_planning_check_commits(struct sc_planning *w)
{
	const char *hexes[4] = {w->p.tooling, w->p.base_tip, w->p.head, w->p.merge_of};
	struct sc_bad_ids bad = SC_BAD_IDS_INIT;
	for (int i = 0; i < 4; i++)
		if (hexes[i])
			sc_check_commit(w->c, &w->g, hexes[i], w->rq->names[i], w->trees[i], &bad);
	sc_bad_ids_die(&bad, bad.missing ? SC_FETCH_HINT : "");
}

/* With --merge-of P the head must be the merge of P into B, exactly: its
 * parents B then P.  Anything else would measure a tree nobody named. */
void sc_planning_check_merge(struct sc_planning *w)
{
	const struct sc_plan *p = &w->p;
	const char *const *n = w->rq->names;
	if (!p->merge_of)
		return;
	char parents[2][SC_MAX_HEXSZ + 1];
	int k = sc_commit_parents(w->c, &w->g, p->head, parents, 2);
	if (k < 0)
		sc_die_sys("cannot parse commit %s (%s)", p->head, n[H]);
	if (k == 2 && strcmp(parents[0], p->base_tip) == 0 && strcmp(parents[1], p->merge_of) == 0)
		return;
	/* how to make the merge it wants, in the repository's own commands */
	char *make = xasprintf("make it with: git commit-tree \"$(git merge-tree --write-tree %.12s "
	                       "%.12s)\" -p %.12s -p %.12s -m merge", p->base_tip, p->merge_of,
	                       p->base_tip, p->merge_of);
	if (k == 0)
		sc_die("the head is not a merge of %s into %s: %s has no parent; %s (%s)", n[P], n[B],
		       p->head, make, n[H]);
	sc_die("the head is not a merge of %s into %s: %s has %d parent%s, first %.12s "
	       "(want exactly two: %s %.12s, then %s %.12s); %s (%s)",
	       n[P], n[B], p->head, k, k == 1 ? "" : "s", parents[0], n[B], p->base_tip, n[P],
	       p->merge_of, make, n[H]);
}

void sc_planning_check_config(struct sc_planning *w)
{
	struct sc_tree_entry e = {0};
	int r = sc_tree_find(w->c, &w->g, w->trees[T], SC_CONFIG_FILE, &e);
	if (r < 0)
		sc_die_sys("cannot read tree %s (%s)", w->trees[T], w->rq->names[T]);
	struct strbuf why = STRBUF_INIT;
	char *where = xasprintf("%s %s", w->rq->names[T], w->p.tooling);
	if (sc_repoconfig_verdict(r, e.mode, where, w->cfg_spec, w->cfg_rc, w->cfg_parsed,
	                          w->cfg_err.buf, &w->p, &why) != SC_EXIT_OK)
		sc_die("%s", why.buf);
	free(where);
	if (w->p.tooling_path)
		sc_check_tooling(w->c, &w->g, w->trees[T], w->p.tooling_path, w->rq->srctree_sha1,
		                 w->rq->srctree_sha256);
}

void sc_planning_read_lake(struct sc_planning *w)
{
	struct sc_plan *p = &w->p;
	sc_lake_blobs(w->c, &w->g, w->trees[T], "tooling commit", p->lake_blobs);
	if (p->lake_blobs[SC_LAKE_TOOLCHAIN])
		p->lean_toolchain = sc_read_toolchain(w->c, p->lake_blobs[SC_LAKE_TOOLCHAIN]);
}

void sc_planning_take_merge_base(struct sc_planning *w)
{
	struct sc_plan *p = &w->p;
	const char *const sides[2] = {w->rq->names[B], w->rq->names[H]};
	p->merge_base = sc_merge_base_or_die(w->mb_rc, &w->mb_out, w->g.hexsz, sides);
	if (sc_commit_tree(w->c, &w->g, p->merge_base, w->merge_base_tree) < 0)
		sc_die_sys("cannot read the merge base %s (git merge-base)", p->merge_base);
}

void sc_planning_check_lake(struct sc_planning *w)
{
	struct sc_plan *p = &w->p;
	/* M older than T is the common case on a project that bumps its
	 * dependencies often: the pull request predates the bump. */
	char *fix = xasprintf("the base branch changed it after the pull request branched off: "
	                      "profile the merge of the pull request into %s (%s), or rebase it",
	                      w->rq->names[B], w->rq->names[P]);
	sc_same_lake(w->c, &w->g, w->merge_base_tree, "merge base", fix, p->lake_blobs);
	free(fix);
	sc_same_lake(w->c, &w->g, w->trees[H], "head",
	             "the pull request changes it: toolchain and dependency bumps are not measured",
	             p->lake_blobs);
}

void sc_planning_select_changes(struct sc_planning *w)
{
	if (w->counted == SC_TREEDIFF_OVER)
		sc_die_policy("more than %u files and folders differ under the roots, far "
		              "more than a pull request changes (merge base..head)", SC_TREE_MAX_ENTRIES);
	if (w->counted == SC_TREEDIFF_BAD)
		sc_die("%s (merge base..head)", w->count_why.buf);
	if (!w->diffing)
		sc_die_sys("internal: diff not started (merge base..head)");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	if (sc_gitjob_finish(&w->diff_job, &out) != 0)
		sc_die_sys("git diff-tree failed (merge base..head)");
	enum sc_exit r = sc_changes_select(&w->p, out.buf, out.len, w->g.hexsz, &err);
	if (r != SC_EXIT_OK)
		sc_die_code(r, "%s (merge base..head)", err.buf);
	sb_release(&out);
	sb_release(&err);
}

/* Documentation/planning.txt "The rebuild": the changed modules (modified
 * or added) and every module importing one at the head, of all the
 * modules under the roots there. */
static void count_rebuild(struct sc_plan *p, const struct sc_modgraph *mg)
{
	if (mg->unreadable)
		return; /* past the bound: no count, rather than a wrong one */
	const char **changed = xcalloc(p->n_files + 1, sizeof *changed);
	size_t n = 0;
	for (size_t i = 0; i < p->n_files; i++)
		if (p->files[i].change == SC_CHANGE_MODIFIED || p->files[i].change == SC_CHANGE_ADDED)
			changed[n++] = p->files[i].module;
	p->has_rebuild = 1;
	p->rebuild_modules = sc_modgraph_rebuild(mg, changed, n);
	p->rebuild_of = mg->n;
	for (size_t i = 0; i < mg->n; i++)
		p->rebuild_unreadable += mg->m[i].unreadable != NULL;
	free(changed);
}

void sc_planning_print(struct sc_planning *w)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	w->p.profiler_version = xstrdup(w->rq->version);
	if (w->rq->profiler_commit)
		w->p.profiler_commit = xstrdup(w->rq->profiler_commit);
	w->p.object_format = xstrdup(w->g.object_format);
	if (sc_plan_write(&w->p, &out, &err) < 0)
		sc_die_sys("internal: the plan fails its own validation: %s", err.buf);
	sb_release(&err);
	if (sc_write_all(STDOUT_FILENO, out.buf, out.len) < 0)
		sc_die_sys_errno("cannot write the plan (stdout)");
	sb_release(&out);
}

struct sc_planning *sc_planning_start(const struct sc_plan_request *rq)
{
	struct sc_planning *w = xcalloc(1, sizeof *w);
	w->repo = rq->repo;
	const char *ids[4] = {rq->tooling, rq->base, rq->head, rq->merge_of};
	memcpy(w->ids, ids, sizeof ids);
	w->rq = rq;
	sb_init(&w->cfg_out);
	sb_init(&w->cfg_err);
	sb_init(&w->mb_out);
	sb_init(&w->count_why);
	start(w);
	return w;
}

/* After the changes: what they refuse is said first, as it is. */
void sc_planning_read_modules(struct sc_planning *w)
{
	if (w->p.no_changes)
		return;
	struct sc_modgraph mg;
	sc_modgraph_read(w->c, &w->g, w->trees[H], &w->p, &mg);
	count_rebuild(&w->p, &mg);
	if (w->rq->importers)
		sc_select_importers(&mg, &w->p, w->rq->importers);
	if (w->rq->shards > 1 || w->rq->shards_auto) {
		w->groups = xcalloc(w->p.n_files, sizeof *w->groups);
		sc_shards_group(&w->p, &mg, w->groups);
		/* the head blobs' sizes came with their headers: not read again */
		w->head_bytes = xcalloc(w->p.n_files, sizeof *w->head_bytes);
		for (size_t i = 0; i < w->p.n_files; i++) {
			const struct sc_plan_file *f = &w->p.files[i];
			long v = f->head_blob ? sc_modgraph_find(&mg, f->module) : -1;
			if (v >= 0 && strcmp(mg.m[v].blob, f->head_blob) == 0)
				w->head_bytes[i] = mg.m[v].bytes + 1;
		}
	}
	sc_modgraph_free(&mg);
}

/* Each file's blobs' bytes, both sides summed: a cost every plan knows.
 * The head's came with the headers read for the rebuild count; the rest
 * through one pipelined batch-check, never a round trip a blob. */
static unsigned long long *blob_bytes(struct sc_planning *w)
{
	const struct sc_plan *p = &w->p;
	unsigned long long *cost = xcalloc(p->n_files, sizeof *cost);
	struct sc_argv ask = SC_ARGV_INIT; /* the blobs to look up */
	size_t *of = xcalloc(2 * p->n_files + 1, sizeof *of); /* whose file each is */
	for (size_t i = 0; i < p->n_files; i++) {
		const struct sc_plan_file *f = &p->files[i];
		if (w->head_bytes[i])
			cost[i] += w->head_bytes[i] - 1;
		else if (f->head_blob)
			of[ask.n] = i, sc_argv_push(&ask, f->head_blob);
		if (f->base_blob)
			of[ask.n] = i, sc_argv_push(&ask, f->base_blob);
	}
	struct sc_catfile *c = ask.n ? sc_catfile_open_check(&w->g) : NULL;
	for (size_t asked = 0, got = 0; got < ask.n; got++) {
		while (asked < ask.n && sc_catfile_queue_room(c))
			sc_catfile_queue(c, ask.v[asked++]);
		char type[16];
		size_t size;
		if (sc_catfile_next(c, type, &size) < 0)
			sc_die_sys("cannot read blob %s of %s (%s)", ask.v[got], p->files[of[got]].path,
			           w->rq->names[H]);
		cost[of[got]] += size;
	}
	sc_catfile_close(c);
	sc_argv_release(&ask);
	free(of);
	return cost;
}

unsigned sc_planning_assign_shards(struct sc_planning *w, unsigned *asked)
{
	*asked = w->rq->shards_auto ? sc_shards_auto(&w->p) : w->rq->shards ? w->rq->shards : 1;
	if (!w->groups)
		return 1;
	unsigned long long *bytes = blob_bytes(w), *cost = xcalloc(w->p.n_files, sizeof *cost);
	long long *ms = NULL;
	if (w->rq->costs) {
		struct strbuf doc = STRBUF_INIT, why = STRBUF_INIT;
		ms = xcalloc(w->p.n_files, sizeof *ms);
		if (sc_read_file(w->rq->costs, &doc, 64u << 20) < 0)
			sc_die_path_errno("cannot read the earlier report (%s)", w->rq->costs);
		if (sc_shards_costs_read(doc.buf, doc.len, &w->p, ms, &why) < 0)
			sc_die("the earlier report is %s (%s)", why.buf, w->rq->costs);
		sb_release(&doc);
		sb_release(&why);
	}
	sc_shards_costs_mix(w->p.n_files, bytes, ms, cost);
	unsigned got = sc_shards_deal(&w->p, w->groups, cost, *asked);
	w->p.shards_by_costs = ms && w->p.n_shards;
	free(bytes);
	free(cost);
	free(ms);
	return got;
}

void sc_planning_check_lean_libs(struct sc_planning *w) { sc_check_lean_libs(w->c, &w->p); }

int sc_planning_head_in_base(const struct sc_planning *w)
{
	return strcmp(w->p.merge_base, w->p.head) == 0;
}

void sc_planning_free(struct sc_planning *w)
{
	sc_catfile_close(w->c);
	sb_release(&w->cfg_out);
	sb_release(&w->cfg_err);
	sb_release(&w->mb_out);
	sb_release(&w->count_why);
	free(w->cfg_spec);
	free(w->groups);
	free(w->head_bytes);
	sc_plan_free(&w->p);
	sc_git_close(&w->g);
	free(w);
}
