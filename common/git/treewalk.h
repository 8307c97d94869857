#ifndef SC_TREEWALK_H
#define SC_TREEWALK_H
/* A whole Git tree, recursively, read into memory through one cat-file
 * batch before anything is written, so that a hostile tree is refused
 * before the first file exists.  Subtrees of one level are requested in a
 * pipeline (no round trip per tree).  Every entry is checked: a safe name
 * (safepath.h), no duplicate names in a tree, a known mode, the object type
 * the mode promises, bounded depth.  Failures die with the entry's path:
 * exit 2 for a tree we refuse, exit 3 when git fails. */
#include <stddef.h>
#include "git/git.h"
#include "util/strbuf.h"

#define SC_TREE_MAX_DEPTH 256

struct sc_tree_node {
	const char *name;            /* inside a tree buffer, not NUL-terminated */
	size_t namelen;
	const unsigned char *oid;    /* raw, rawsz bytes, inside a tree buffer */
	size_t parent;               /* the root (index 0) is its own parent */
	size_t first_child, nchildren; /* directories only */
	unsigned mode;               /* SC_MODE_*, canonical (100664 → 100644) */
	unsigned depth;              /* root 0, its entries 1 */
};

struct sc_tree {
	int rawsz;
	struct sc_tree_node *nodes;  /* nodes[0] is the root tree */
	size_t n, alloc;
	size_t *order;               /* every node but the root, depth first,
	                                each directory before its entries */
	char **bufs;                 /* the tree objects the nodes point into */
	size_t nbufs;
};

/* Read tree_hex and everything below it. */
void sc_tree_load(struct sc_catfile *c, const char *tree_hex, int rawsz, struct sc_tree *t);
void sc_tree_free(struct sc_tree *t);
/* The node's path from the root ("" for the root), raw bytes, appended. */
void sc_tree_path(const struct sc_tree *t, size_t idx, struct strbuf *sb);
/* The node's object ID as lowercase hex. */
void sc_tree_hex(const struct sc_tree *t, size_t idx, char hex[SC_MAX_HEXSZ + 1]);

#endif
