#ifndef SC_TREEDIFF_H
#define SC_TREEDIFF_H
/* How many entries differ between two trees, counted before git diffs
 * them: git diff-tree holds every changed pair in memory before it prints
 * the first, and a few kilobytes of trees name ten million paths
 * (Documentation/threat-model.txt, "The fourth round").  Only subtrees
 * that differ are read, as git does, through the cat-file batch, and the
 * count stops at a bound: a pull request touching a few files costs a few
 * tree reads. */
#include <stddef.h>
#include "git/git.h"

enum sc_treediff { SC_TREEDIFF_OK, SC_TREEDIFF_OVER, SC_TREEDIFF_BAD };

/* Count into *n, at most MAX, the entries (files and folders) at which
 * NEW differs from OLD: added, changed, or removed.  A subtree only NEW
 * has is counted whole; one only OLD has counts once (the old side is
 * the base branch's, trusted).  OLD may be NULL (nothing).  Answers OVER
 * past MAX (reading stops there), BAD with WHY when a tree on the way is
 * missing or malformed. */
enum sc_treediff sc_tree_diff_count(struct sc_catfile *c, const struct sc_git *g,
                                    const char *old_hex, const char *new_hex, size_t max,
                                    size_t *n, struct strbuf *why);

#endif
