#ifndef SC_TREELOOKUP_H
#define SC_TREELOOKUP_H
/* Single lookups in Git objects through a cat-file batch: a commit's root
 * tree, and the entry at a path below a tree (no recursion over whole
 * trees, no working tree, no index). */
#include <stddef.h>
#include "git/git.h"

/* The root tree named by a commit object's content ("tree <hex>\n" first).
 * Returns 0 or -1 when malformed. */
int sc_commit_parse_tree(const char *buf, size_t len, int hexsz, char tree_hex[SC_MAX_HEXSZ + 1]);

/* What reading an object named as a commit found: the one home of "is it
 * a commit" for every program that takes a commit ID. */
enum sc_commit_state { SC_COMMIT_OK, SC_COMMIT_MISSING, SC_COMMIT_NOT_COMMIT, SC_COMMIT_MALFORMED };
/* Reads commit_hex through the batch; fills type (the object's type, when
 * it exists) and, for SC_COMMIT_OK, tree_hex. */
enum sc_commit_state sc_commit_read(struct sc_catfile *c, const char *commit_hex, int hexsz,
                                    char type[16], char tree_hex[SC_MAX_HEXSZ + 1]);
/* The root tree of a commit.  Returns 0, or -1 when the object is missing,
 * not a commit, or malformed. */
int sc_commit_tree(struct sc_catfile *c, const struct sc_git *g, const char *commit_hex,
                   char tree_hex[SC_MAX_HEXSZ + 1]);
/* The parents of a commit, in the commit's order: the first MAX of them
 * into parents.  Returns how many the commit has (which may exceed MAX),
 * or -1 when the object is missing, not a commit, or malformed.  The
 * parse half reads a commit object's text, for the unit tests. */
int sc_commit_parse_parents(const char *buf, size_t len, int hexsz,
                            char (*parents)[SC_MAX_HEXSZ + 1], int max);
int sc_commit_parents(struct sc_catfile *c, const struct sc_git *g, const char *commit_hex,
                      char (*parents)[SC_MAX_HEXSZ + 1], int max);

/* The entry at '/'-separated path below tree_hex.  Returns 1 and fills e
 * (e->name is not usable afterwards), 0 when absent (or a leading component
 * is not a directory), -1 when a tree on the way is missing or malformed. */
int sc_tree_find(struct sc_catfile *c, const struct sc_git *g, const char *tree_hex,
                 const char *path, struct sc_tree_entry *e);

#endif
