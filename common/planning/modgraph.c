#include "planning/modgraph.h"
#include "contract/leanpath.h"
#include "git/treelookup.h"
#include "git/treewalk.h"
#include "planning/changes.h"
#include "planning/header.h"
#include "util/die.h"
#include "util/oid.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct list {
	struct sc_modnode *m;
	size_t n, alloc;
};

static void add(struct list *l, const struct sc_plan *p, const char *path, const char *hex)
{
	enum sc_role role;
	struct strbuf name = STRBUF_INIT;
	size_t n = strlen(path);
	if (n < 5 || strcmp(path + n - 5, ".lean") != 0 || !sc_plan_in_root_area(p, path) ||
	    !sc_plan_classify(p, path, &role) || sc_lean_module_of(sc_plan_source_rel(p, path), &name) < 0) {
		sb_release(&name);
		return;
	}
	l->m = xgrow(l->m, l->n, &l->alloc, sizeof *l->m);
	l->m[l->n++] = (struct sc_modnode){.path = xstrdup(path), .name = sb_detach(&name, NULL),
	                                   .blob = xstrdup(hex), .role = role};
}

/* Is ROOT's area inside another root's (Lib/Road under Lib)? */
static int nested(const struct sc_plan *p, const char *root)
{
	for (int k = 0; k < 2; k++) {
		char **v = k ? p->roadmap : p->library;
		size_t n = k ? p->n_roadmap : p->n_library;
		for (size_t i = 0; i < n; i++) {
			size_t l = strlen(v[i]);
			if (strncmp(root, v[i], l) == 0 && root[l] == '/')
				return 1;
		}
	}
	return 0;
}

/* One root's area: R.lean and everything below R/ (below sourceDir);
 * -1 with WHY once the areas hold more than *BUDGET entries in all. */
static int walk_root(struct sc_catfile *c, const struct sc_git *g, const char *tree,
                     const struct sc_plan *p, const char *root, size_t *budget, struct list *l,
                     struct strbuf *why)
{
	struct strbuf base = STRBUF_INIT, file = STRBUF_INIT, path = STRBUF_INIT;
	if (p->source_dir)
		sb_addf(&base, "%s/", p->source_dir);
	sb_adds(&base, root);
	sb_addf(&file, "%s.lean", base.buf);
	struct sc_tree_entry e;
	char hex[SC_MAX_HEXSZ + 1];
	int r = sc_tree_find(c, g, tree, file.buf, &e);
	if (r < 0)
		sc_die_sys("cannot read tree %s (the roots)", tree);
	if (r > 0 && sc_is_regular_mode(e.mode))
		add(l, p, file.buf, e.hex);
	r = sc_tree_find(c, g, tree, base.buf, &e);
	if (r < 0)
		sc_die_sys("cannot read tree %s (the roots)", tree);
	int rc = 0;
	if (r > 0 && e.mode == SC_MODE_TREE) {
		struct sc_tree t;
		struct sc_tree_bounds b = {*budget};
		if (sc_tree_load(c, e.hex, g->rawsz, &b, &t, why) < 0) {
			sb_addf(why, " under the root %s", root);
			rc = -1;
		} else {
			*budget -= t.n - 1;
			for (size_t k = 0; k + 1 < t.n; k++) {
				const struct sc_tree_node *n = &t.nodes[t.order[k]];
				if (n->mode != SC_MODE_BLOB && n->mode != SC_MODE_EXEC)
					continue;
				sb_reset(&path);
				sb_addf(&path, "%s/", base.buf);
				sc_tree_path(&t, t.order[k], &path);
				sc_tree_hex(&t, t.order[k], hex);
				add(l, p, path.buf, hex);
			}
			sc_tree_free(&t);
		}
	}
	sb_release(&base);
	sb_release(&file);
	sb_release(&path);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct sc_modnode *)a)->name, ((const struct sc_modnode *)b)->name);
}

static const struct sc_modnode *sort_nodes;
static int by_blob(const void *a, const void *b)
{
	return strcmp(sort_nodes[*(const size_t *)a].blob, sort_nodes[*(const size_t *)b].blob);
}

static void index_names(struct sc_modgraph *mg)
{
	sc_name_index_fit(&mg->idx, mg->n, SC_NAMED(mg->m, mg->n, struct sc_modnode, name));
}

long sc_modgraph_find(const struct sc_modgraph *mg, const char *name)
{
	if (!mg->idx.nslots)
		return -1;
	size_t slot = *sc_name_index_slot(&mg->idx, name, SC_NAMED(mg->m, mg->n, struct sc_modnode, name));
	return slot ? (long)(slot - 1) : -1;
}

/* The edges of one header's imports (names in MODS), each project module
 * once; STAMP[v] marks v as taken for header number K. */
static void edges_of(struct sc_modgraph *mg, const struct sc_argv *mods, size_t *stamp, size_t k,
                     size_t *alloc, size_t *first, size_t *n)
{
	*first = mg->n_edges;
	for (size_t i = 0; i < mods->n; i++) {
		long v = sc_modgraph_find(mg, mods->v[i]);
		if (v < 0 || stamp[v] == k)
			continue;
		stamp[v] = k;
		mg->edges = xgrow(mg->edges, mg->n_edges, alloc, sizeof *mg->edges);
		mg->edges[mg->n_edges++] = (size_t)v;
	}
	*n = mg->n_edges - *first;
}

/* Every distinct blob's header, once, through the pipelined batch, in
 * the modules' order: that is the trees' order, which a packed repository
 * stores close together (read in blob-ID order, git seeks all over the
 * pack and inflates delta bases again and again). */
static void read_headers(struct sc_catfile *c, struct sc_modgraph *mg)
{
	size_t n = mg->n ? mg->n : 1;
	size_t *idx = xcalloc(n, sizeof *idx), *stamp = xcalloc(n, sizeof *stamp);
	size_t *next = xcalloc(n, sizeof *next); /* the next module of the same blob, + 1 */
	char *is_first = xcalloc(n, 1);           /* the first module of its blob */
	for (size_t i = 0; i < mg->n; i++)
		idx[i] = i;
	sort_nodes = mg->m;
	qsort(idx, mg->n, sizeof *idx, by_blob);
	for (size_t i = 0; i < mg->n; i++) {
		int same = i && strcmp(mg->m[idx[i]].blob, mg->m[idx[i - 1]].blob) == 0;
		if (same)
			next[idx[i - 1]] = idx[i] + 1;
		else
			is_first[idx[i]] = 1;
	}
	struct strbuf src = STRBUF_INIT, why = STRBUF_INIT;
	size_t q = 0, alloc = 0;
	char type[16];
	for (size_t i = 0, k = 1; i < mg->n; i++) {
		if (!is_first[i])
			continue;
		for (; q < mg->n && sc_catfile_queue_room(c); q++)
			if (is_first[q])
				sc_catfile_queue(c, mg->m[q].blob);
		size_t size;
		if (sc_catfile_next(c, type, &size) < 0 || strcmp(type, "blob") != 0)
			sc_die_sys("cannot read blob %s of %s (git cat-file)", mg->m[i].blob, mg->m[i].path);
		sc_catfile_prefix(c, &src, SC_HEADER_MAX_BYTES);
		struct sc_argv mods = SC_ARGV_INIT;
		sb_reset(&why);
		int rc = sc_lean_header(src.buf, src.len, size <= SC_HEADER_MAX_BYTES, &mods, &why);
		size_t first = 0, ne = 0;
		if (rc == SC_HEADER_READ)
			edges_of(mg, &mods, stamp, k++, &alloc, &first, &ne);
		for (size_t u = i + 1; u; u = next[u - 1]) {
			struct sc_modnode *m = &mg->m[u - 1];
			m->bytes = size;
			m->first = first;
			m->n = ne;
			m->unreadable = rc == SC_HEADER_READ ? NULL : xstrdup(why.buf);
		}
		sc_argv_release(&mods);
	}
	sb_release(&src);
	sb_release(&why);
	free(idx);
	free(stamp);
	free(next);
	free(is_first);
}

void sc_modgraph_read(struct sc_catfile *c, const struct sc_git *g, const char *tree,
                      const struct sc_plan *p, struct sc_modgraph *mg)
{
	memset(mg, 0, sizeof *mg);
	struct list l = {0};
	struct strbuf why = STRBUF_INIT;
	size_t budget = SC_TREE_MAX_ENTRIES;
	for (int k = 0; k < 2 && !mg->unreadable; k++) {
		char **v = k ? p->roadmap : p->library;
		size_t n = k ? p->n_roadmap : p->n_library;
		for (size_t i = 0; i < n && !mg->unreadable; i++)
			if (!nested(p, v[i]) && walk_root(c, g, tree, p, v[i], &budget, &l, &why) < 0)
				mg->unreadable = sb_detach(&why, NULL);
	}
	sb_release(&why);
	mg->m = l.m;
	mg->n = l.n;
	if (mg->unreadable) {
		char *bad = mg->unreadable;
		mg->unreadable = NULL;
		sc_modgraph_free(mg);
		mg->unreadable = bad;
		return;
	}
	qsort(mg->m, mg->n, sizeof *mg->m, by_name);
	/* a path read twice (a root listed in both roles) is one module */
	size_t w = 0;
	for (size_t i = 0; i < mg->n; i++) {
		if (w && strcmp(mg->m[w - 1].name, mg->m[i].name) == 0) {
			free(mg->m[i].path);
			free(mg->m[i].name);
			free(mg->m[i].blob);
			continue;
		}
		mg->m[w++] = mg->m[i];
	}
	mg->n = w;
	index_names(mg);
	read_headers(c, mg);
}

size_t sc_modgraph_rebuild(const struct sc_modgraph *mg, const char *const *changed, size_t n)
{
	if (!mg->n)
		return 0;
	/* who imports whom, reversed, as offsets into one array */
	size_t *start = xcalloc(mg->n + 1, sizeof *start), *rev = xcalloc(mg->n_edges + 1, sizeof *rev);
	for (size_t u = 0; u < mg->n; u++)
		for (size_t k = 0; k < mg->m[u].n; k++)
			start[mg->edges[mg->m[u].first + k] + 1]++;
	for (size_t v = 0; v < mg->n; v++)
		start[v + 1] += start[v];
	size_t *fill = xcalloc(mg->n, sizeof *fill);
	for (size_t u = 0; u < mg->n; u++)
		for (size_t k = 0; k < mg->m[u].n; k++) {
			size_t v = mg->edges[mg->m[u].first + k];
			rev[start[v] + fill[v]++] = u;
		}
	char *seen = xcalloc(mg->n, 1);
	size_t *queue = xcalloc(mg->n, sizeof *queue), head = 0, tail = 0;
	for (size_t i = 0; i < n; i++) {
		long v = sc_modgraph_find(mg, changed[i]);
		if (v >= 0 && !seen[v])
			seen[v] = 1, queue[tail++] = (size_t)v;
	}
	while (head < tail) {
		size_t v = queue[head++];
		for (size_t k = start[v]; k < start[v + 1]; k++)
			if (!seen[rev[k]])
				seen[rev[k]] = 1, queue[tail++] = rev[k];
	}
	free(start), free(rev), free(fill), free(seen), free(queue);
	return tail;
}

void sc_modgraph_free(struct sc_modgraph *mg)
{
	for (size_t i = 0; i < mg->n; i++) {
		free(mg->m[i].path);
		free(mg->m[i].name);
		free(mg->m[i].blob);
		free(mg->m[i].unreadable);
	}
	free(mg->m);
	free(mg->edges);
	sc_name_index_free(&mg->idx);
	free(mg->unreadable);
	memset(mg, 0, sizeof *mg);
}
