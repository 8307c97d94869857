#ifndef SC_PLANNING_MODGRAPH_H
#define SC_PLANNING_MODGRAPH_H
/* The project's Lean modules at one commit, and which of them each imports
 * (planning/header.h), for the importers (planning.txt "Importers") and
 * the rebuild a change causes.  Only the roots' areas are walked (a tree
 * outside them is never expanded), within SC_TREE_MAX_ENTRIES; each
 * distinct blob's header is read once, from a bounded prefix, all of them
 * through one pipelined cat-file stream.  Memory stays proportional to the
 * modules and their edges: no import list is kept beyond its edges. */
#include "contract/plan.h"
#include "git/git.h"
#include "util/nameindex.h"

struct sc_modnode {
	char *path, *name, *blob;
	size_t bytes; /* the blob's size, as git gave it with its header */
	enum sc_role role;
	char *unreadable; /* why its header cannot be read, or NULL */
	/* the project modules it imports: edges[first .. first + n), each
	 * once, in header order */
	size_t first, n;
};

struct sc_modgraph {
	struct sc_modnode *m; /* sorted by name */
	size_t n;
	size_t *edges;
	size_t n_edges;
	struct sc_name_index idx; /* by name (a lookup an import) */
	char *unreadable; /* the graph itself could not be read (a root past the
	                     bound), or NULL: then it is empty */
};

/* Read the modules of TREE (a commit's root tree) under P's roots. */
void sc_modgraph_read(struct sc_catfile *c, const struct sc_git *g, const char *tree,
                      const struct sc_plan *p, struct sc_modgraph *mg);
/* The index of module NAME, or -1. */
long sc_modgraph_find(const struct sc_modgraph *mg, const char *name);
/* How many modules rebuild when the modules named CHANGED (N of them) do:
 * those of them in the graph and every module importing one of them,
 * directly or not (a breadth-first walk of the edges reversed: time and
 * memory in the modules and edges). */
size_t sc_modgraph_rebuild(const struct sc_modgraph *mg, const char *const *changed, size_t n);
void sc_modgraph_free(struct sc_modgraph *mg);

#endif
