#ifndef SC_MATERIALIZE_H
#define SC_MATERIALIZE_H
/* What sc-materialize (sc-materialize(1), which owns their order and its
 * flags) asks around the tree writer (git/treewrite.h): a destination that
 * is new and outside the git directory, a commit and not another object,
 * one of the plan's sides, symbolic links and submodules refused where the
 * plan needs sources and listed as skipped elsewhere, the tree placed
 * whole, and the summary document.  The checks return 0 (SC_EXIT_OK) or
 * the exit code to die with, and what is wrong in why; the command says
 * which of its inputs gave it. */
#include "git/git.h"
#include "git/treewalk.h"
#include "git/treewrite.h"
#include "contract/plan.h"
#include "util/strbuf.h"

#define SC_MATERIALIZE_SCHEMA "sphereceti.materialize/1"

/* --dest NEWDIR: it must not exist (not even as a dangling link), must end
 * in a new name and its parent must be a directory.  Returns its canonical
 * path (allocated), or NULL with why. */
char *sc_dest_new_dir(const char *dest, struct strbuf *why);
/* Writing into the git directory would be writing the repository: 0 when
 * CANON_DEST is outside GIT_DIR; else an exit code with why. */
int sc_dest_outside_git_dir(const char *canon_dest, const char *git_dir, struct strbuf *why);

/* COMMIT (a full ID, lowercase) must name a commit: its root tree in tree
 * and 0; else an exit code with why (a missing or other object is the
 * operator's, a commit git stores malformed is the system's). */
int sc_materialize_commit(struct sc_catfile *c, const char *commit, int hexsz,
                          char tree[SC_MAX_HEXSZ + 1], struct strbuf *why);
/* A plan bounds what is written: it is for the repository's object
 * format, and COMMIT is its merge_base or head.  0 or an exit code with
 * why. */
int sc_plan_for_format(const struct sc_plan *p, const char *object_format, struct strbuf *why);
int sc_plan_has_side(const struct sc_plan *p, const char *commit, struct strbuf *why);

/* A tree written under a temporary name beside its destination (".NAME.tmp-"
 * and random hex digits) and renamed into place whole.  begin makes the
 * temporary beside CANON (the destination's canonical path, whose parent
 * exists) and returns a descriptor of it; from then on the process removes
 * it at exit, and after commit (which never replaces a destination that
 * appeared meanwhile) the destination, until keep.  WHERE names the
 * destination in error lines; every failure dies.  One per process. */
struct sc_placement {
	int parentfd;
	char *parent, *tmp;
	const char *name; /* in CANON */
};
int sc_placement_begin(struct sc_placement *pl, const char *canon, const char *where);
void sc_placement_commit(struct sc_placement *pl, const char *where);
void sc_placement_keep(struct sc_placement *pl);
void sc_placement_release(struct sc_placement *pl);

/* A symbolic link or submodule not written. */
struct sc_skipped {
	char *path;
	unsigned mode; /* SC_MODE_LINK or SC_MODE_GITLINK */
};
struct sc_skipped_list {
	struct sc_skipped *v;
	size_t n, alloc;
};
/* The symbolic links and submodules of t, in tree order: refused where
 * plan (may be NULL: nothing refused) needs sources or when their name is
 * not UTF-8 (the summary could not carry it exactly), else listed in sk.
 * Returns 0, or an exit code with why and sk empty. */
int sc_links_decide(const struct sc_tree *t, const struct sc_plan *plan,
                    struct sc_skipped_list *sk, struct strbuf *why);
void sc_skipped_release(struct sc_skipped_list *sk);

/* The summary document (schema SC_MATERIALIZE_SCHEMA), appended to out. */
void sc_materialize_summary(const char *object_format, const char *commit, const char *tree,
                            const struct sc_write_stats *st, const struct sc_skipped_list *sk,
                            struct strbuf *out);

#endif
