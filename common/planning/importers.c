#include "planning/importers.h"
#include "planning/changes.h"
#include "planning/modgraph.h"
#include "util/die.h"

#include <stdlib.h>
#include <string.h>

/* What ranking needs of a module: counts, not import lists. */
struct candidate {
	const struct sc_modnode *m;
	size_t importers; /* files at the head that import it */
	size_t n_changed; /* of its imports, modified or added modules */
};

/* Importing the most changed modules first, then the most imported
 * themselves (the most central), then by path. */
static int by_rank(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;
	if (x->n_changed != y->n_changed)
		return x->n_changed > y->n_changed ? -1 : 1;
	if (x->importers != y->importers)
		return x->importers > y->importers ? -1 : 1;
	return strcmp(x->m->path, y->m->path);
}

/* The changed module of the plan named NAME, modified or added; else NULL. */
static const struct sc_plan_file *changed(const struct sc_plan *p, const char *name)
{
	const struct sc_plan_file *f = sc_plan_find(p, name);
	return f && (f->change == SC_CHANGE_MODIFIED || f->change == SC_CHANGE_ADDED) ? f : NULL;
}

/* Q as the plan's next file: change "importer", its blob on both sides,
 * the changed modules it imports (each once, in header order); CHANGED[v]
 * says whether module v is one. */
static void append(struct sc_plan *p, const struct sc_modgraph *mg, const struct candidate *q,
                   const char *is_changed)
{
	struct sc_plan_file *f = &p->files[p->n_files++];
	memset(f, 0, sizeof *f);
	f->path = xstrdup(q->m->path);
	f->module = xstrdup(q->m->name);
	f->id = xstrdup(q->m->name);
	f->role = q->m->role;
	f->change = SC_CHANGE_IMPORTER;
	f->base_blob = xstrdup(q->m->blob);
	f->head_blob = xstrdup(q->m->blob);
	f->imports = xcalloc(q->n_changed ? q->n_changed : 1, sizeof *f->imports);
	for (size_t k = 0; k < q->m->n; k++) {
		size_t v = mg->edges[q->m->first + k];
		if (is_changed[v])
			f->imports[f->n_imports++] = xstrdup(mg->m[v].name);
	}
}

/* The unreadable headers, named in the plan: the first few, enough to find
 * the header (its path quoted there, never raw). */
static void name_unreadable(struct sc_plan *p, const struct sc_modgraph *mg)
{
	struct sc_argv bad = SC_ARGV_INIT;
	if (mg->unreadable)
		sc_argv_push_owned(&bad, xasprintf("%s", mg->unreadable));
	for (size_t i = 0; i < mg->n && bad.n < SC_MAX_IMPORTERS; i++)
		if (mg->m[i].unreadable && !sc_plan_find(p, mg->m[i].name))
			sc_argv_push_owned(&bad, xasprintf("%s: %s", mg->m[i].path, mg->m[i].unreadable));
	p->n_importers_unreadable = bad.n;
	p->importers_unreadable = xcalloc(bad.n + 1, sizeof *p->importers_unreadable);
	for (size_t i = 0; i < bad.n; i++)
		p->importers_unreadable[i] = xstrdup(bad.v[i]);
	sc_argv_release(&bad);
}

void sc_select_importers(const struct sc_modgraph *mg, struct sc_plan *p, unsigned limit)
{
	struct candidate *c = xcalloc(mg->n ? mg->n : 1, sizeof *c);
	/* the plan looked up once a module, not once an edge */
	char *in_plan = xcalloc(mg->n ? mg->n : 1, 1), *is_changed = xcalloc(mg->n ? mg->n : 1, 1);
	for (size_t i = 0; i < mg->n; i++) {
		c[i].m = &mg->m[i];
		in_plan[i] = sc_plan_find(p, mg->m[i].name) != NULL;
		is_changed[i] = in_plan[i] && changed(p, mg->m[i].name) != NULL;
	}
	/* importers of their own: each module counted once per file importing it */
	for (size_t i = 0; i < mg->n; i++)
		for (size_t k = 0; !mg->m[i].unreadable && k < mg->m[i].n; k++)
			c[mg->edges[mg->m[i].first + k]].importers++;
	size_t nq = 0;
	for (size_t i = 0; i < mg->n; i++) {
		if (mg->m[i].unreadable || in_plan[i])
			continue; /* changed (or removed at the head): not an importer */
		for (size_t k = 0; k < mg->m[i].n; k++)
			c[i].n_changed += is_changed[mg->edges[mg->m[i].first + k]];
		if (c[i].n_changed)
			c[nq++] = c[i];
	}
	qsort(c, nq, sizeof *c, by_rank);
	size_t take = nq < limit ? nq : limit;
	p->files = xrealloc(p->files, (p->n_files + take ? p->n_files + take : 1) * sizeof *p->files);
	for (size_t i = 0; i < take; i++)
		append(p, mg, &c[i], is_changed);
	p->importers_limit = limit;
	p->importers_qualified = nq;
	name_unreadable(p, mg);
	free(in_plan);
	free(is_changed);
	free(c);
}
