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
/* The fixed ceiling of entries any tree read may hold: far more than a
 * Lean project has (Mathlib's repository holds some 20,000 files), far
 * less than a tree of a few kilobytes of objects can name (ten entries a
 * level, seven levels: ten million paths).  Documentation/threat-model.txt
 * "The fourth round". */
#define SC_TREE_MAX_ENTRIES 250000u

/* What a read may hold: entries (a ceiling, or fewer), counted as they
 * are read, so that memory stays proportional to what is kept. */
struct sc_tree_bounds {
	size_t max_entries;
};

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
	size_t nbufs, bufs_alloc;
};

/* Read tree_hex and everything below it: 0, or -1 with WHY (the bound
 * and where it was passed) once it holds more than B's entries; nothing is
 * kept then.  A malformed tree dies (exit 2), a failing git too (exit 3). */
int sc_tree_load(struct sc_catfile *c, const char *tree_hex, int rawsz,
                 const struct sc_tree_bounds *b, struct sc_tree *t, struct strbuf *why);
/* The bytes of its files, each path counted (a blob at two paths is
 * written twice), through one "git cat-file --batch-check" of G: 0, or -1
 * with WHY once past MAX (nothing read beyond). */
int sc_tree_blob_bytes(const struct sc_git *g, const struct sc_tree *t, unsigned long long max,
                       unsigned long long *total, struct strbuf *why);
void sc_tree_free(struct sc_tree *t);
/* The node's path from the root ("" for the root), raw bytes, appended. */
void sc_tree_path(const struct sc_tree *t, size_t idx, struct strbuf *sb);
/* The node's object ID as lowercase hex. */
void sc_tree_hex(const struct sc_tree *t, size_t idx, char hex[SC_MAX_HEXSZ + 1]);

#endif
