#include "planning/importers.h"
#include "contract/leanpath.h"
#include "git/treewalk.h"
#include "planning/changes.h"
#include "planning/imports.h"
#include "util/die.h"
#include "util/sha256.h"

#include <stdlib.h>
#include <string.h>

/* A Lean module of the project at the head. */
struct module {
	char *path, *name, *blob;
	enum sc_role role;
	struct sc_argv imports;
	int readable;
	size_t importers;  /* files at the head that import it */
	size_t n_changed;  /* of its imports, modified or added modules */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct module *)a)->name, ((const struct module *)b)->name);
}

static struct module *find(struct module *m, size_t n, const char *name)
{
	struct module key = {.name = (char *)name};
	return bsearch(&key, m, n, sizeof *m, by_name);
}

/* Importing the most changed modules first, then the most imported
 * themselves (the most central), then by path. */
static int by_rank(const void *a, const void *b)
{
	const struct module *x = *(const struct module *const *)a, *y = *(const struct module *const *)b;
	if (x->n_changed != y->n_changed)
		return x->n_changed > y->n_changed ? -1 : 1;
	if (x->importers != y->importers)
		return x->importers > y->importers ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Is V[K] the first of its name in V (a header may import a module twice)? */
static int first_time(const struct sc_argv *v, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (strcmp(v->v[j], v->v[k]) == 0)
			return 0;
	return 1;
}

/* The changed module of the plan named NAME, modified or added; else NULL. */
static const struct sc_plan_file *changed(const struct sc_plan *p, const char *name)
{
	const struct sc_plan_file *f = sc_plan_find(p, name);
	return f && (f->change == SC_CHANGE_MODIFIED || f->change == SC_CHANGE_ADDED) ? f : NULL;
}

/* Every regular Lean file under a root at the head, with its module name. */
static size_t list_modules(struct sc_catfile *c, const struct sc_git *g, const char *head_tree,
                           const struct sc_plan *p, struct module **out)
{
	struct sc_tree t;
	sc_tree_load(c, head_tree, g->rawsz, &t);
	struct module *m = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
	for (size_t k = 0; k < t.n - 1; k++) {
		const struct sc_tree_node *e = &t.nodes[t.order[k]];
		if (e->mode != SC_MODE_BLOB && e->mode != SC_MODE_EXEC)
			continue;
		sb_reset(&path);
		sc_tree_path(&t, t.order[k], &path);
		enum sc_role role;
		sb_reset(&name);
		if (path.len < 5 || strcmp(path.buf + path.len - 5, ".lean") != 0 ||
		    !sc_plan_in_root_area(p, path.buf) || !sc_plan_classify(p, path.buf, &role) ||
		    sc_lean_module_of(sc_plan_source_rel(p, path.buf), &name) < 0)
			continue;
		if (n == alloc)
			m = xrealloc(m, (alloc = alloc ? 2 * alloc : 256) * sizeof *m);
		char hex[SC_MAX_HEXSZ + 1];
		sc_hex(e->oid, (size_t)g->rawsz, hex);
		m[n++] = (struct module){.path = xstrdup(path.buf), .name = xstrdup(name.buf),
		                         .blob = xstrdup(hex), .role = role, .imports = SC_ARGV_INIT};
	}
	sb_release(&path);
	sb_release(&name);
	sc_tree_free(&t);
	qsort(m, n, sizeof *m, by_name);
	*out = m;
	return n;
}

/* Q as the plan's next file: change "importer", its blob on both sides,
 * the changed modules it imports (each once, in header order). */
static void append(struct sc_plan *p, const struct module *q)
{
	struct sc_plan_file *f = &p->files[p->n_files++];
	memset(f, 0, sizeof *f);
	f->path = xstrdup(q->path);
	f->module = xstrdup(q->name);
	f->id = xstrdup(q->name);
	f->role = q->role;
	f->change = SC_CHANGE_IMPORTER;
	f->base_blob = xstrdup(q->blob);
	f->head_blob = xstrdup(q->blob);
	f->imports = xcalloc(q->n_changed, sizeof *f->imports);
	for (size_t k = 0; k < q->imports.n; k++)
		if (first_time(&q->imports, k) && changed(p, q->imports.v[k]))
			f->imports[f->n_imports++] = xstrdup(q->imports.v[k]);
}

void sc_select_importers(struct sc_catfile *c, const struct sc_git *g, const char *head_tree,
                         struct sc_plan *p, unsigned limit)
{
	struct module *m;
	size_t n = list_modules(c, g, head_tree, p, &m);
	struct sc_argv unreadable = SC_ARGV_INIT;
	struct strbuf src = STRBUF_INIT, why = STRBUF_INIT;
	char type[16];
	for (size_t i = 0; i < n; i++) {
		sb_reset(&src);
		if (sc_catfile_read(c, m[i].blob, type, &src) < 0 || strcmp(type, "blob") != 0)
			sc_die_sys("cannot read blob %s of %s (git cat-file)", m[i].blob, m[i].path);
		sb_reset(&why);
		m[i].readable = sc_lean_imports(src.buf, src.len, &m[i].imports, &why) == 0;
		if (!m[i].readable && !sc_plan_find(p, m[i].name))
			sc_argv_push_owned(&unreadable, xasprintf("%s: %s", m[i].path, why.buf));
	}
	/* importers of their own: each module counted once per file importing it */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; m[i].readable && k < m[i].imports.n; k++) {
			struct module *to = find(m, n, m[i].imports.v[k]);
			if (to && first_time(&m[i].imports, k))
				to->importers++;
		}
	struct module **q = xcalloc(n ? n : 1, sizeof *q);
	size_t nq = 0;
	for (size_t i = 0; i < n; i++) {
		if (!m[i].readable || sc_plan_find(p, m[i].name))
			continue; /* changed (or removed at the head): not an importer */
		for (size_t k = 0; k < m[i].imports.n; k++)
			m[i].n_changed += first_time(&m[i].imports, k) && changed(p, m[i].imports.v[k]);
		if (m[i].n_changed)
			q[nq++] = &m[i];
	}
	qsort(q, nq, sizeof *q, by_rank);
	size_t take = nq < limit ? nq : limit;
	p->files = xrealloc(p->files, (p->n_files + take ? p->n_files + take : 1) * sizeof *p->files);
	for (size_t i = 0; i < take; i++)
		append(p, q[i]);
	p->importers_limit = limit;
	p->importers_qualified = nq;
	/* named in the plan, the first few: enough to find the header */
	p->n_importers_unreadable = unreadable.n < SC_MAX_IMPORTERS ? unreadable.n : SC_MAX_IMPORTERS;
	p->importers_unreadable = xcalloc(p->n_importers_unreadable + 1, sizeof *p->importers_unreadable);
	for (size_t i = 0; i < p->n_importers_unreadable; i++)
		p->importers_unreadable[i] = xstrdup(unreadable.v[i]);
	sc_argv_release(&unreadable);
	for (size_t i = 0; i < n; i++) {
		free(m[i].path);
		free(m[i].name);
		free(m[i].blob);
		sc_argv_release(&m[i].imports);
	}
	free(m);
	free(q);
	sb_release(&src);
	sb_release(&why);
}
