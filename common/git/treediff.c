#include "git/treediff.h"
#include "util/die.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* One tree's entries, sorted by name, and the buffer they point into. */
struct listing {
	struct strbuf buf;
	struct sc_tree_entry *e;
	size_t n, alloc;
};

static int by_name(const void *a, const void *b)
{
	const struct sc_tree_entry *x = a, *y = b;
	size_t n = x->namelen < y->namelen ? x->namelen : y->namelen;
	int c = memcmp(x->name, y->name, n);
	return c ? c : (x->namelen > y->namelen) - (x->namelen < y->namelen);
}

/* The pairs of subtrees of one level (old NULL: only the new side has it). */
struct level {
	struct pair {
		char *old_hex, *new_hex;
	} *v;
	size_t n, alloc;
};

static void push(struct level *l, const char *old_hex, const char *new_hex)
{
	l->v = xgrow(l->v, l->n, &l->alloc, sizeof *l->v);
	l->v[l->n++] = (struct pair){old_hex ? xstrdup(old_hex) : NULL, xstrdup(new_hex)};
}

static void clear(struct level *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].old_hex);
		free(l->v[i].new_hex);
	}
	l->n = 0;
}

/* The K-th name of a level: each pair's old side (when it has one), then
 * its new side. */
struct names {
	const struct level *l;
	size_t pair;
	int side;
};

static const char *next_name(struct names *it)
{
	while (it->pair < it->l->n) {
		const struct pair *p = &it->l->v[it->pair];
		const char *hex = it->side == 0 ? p->old_hex : p->new_hex;
		if (it->side++ == 1) {
			it->side = 0;
			it->pair++;
		}
		if (hex)
			return hex;
	}
	return NULL;
}

/* The answer to the oldest queued name, as a sorted listing. */
static int take(struct sc_catfile *c, const struct sc_git *g, const char *hex, struct listing *l,
                struct strbuf *why)
{
	char type[16];
	size_t size, pos = 0;
	int r;
	l->n = 0;
	if (sc_catfile_next(c, type, &size) < 0) {
		sb_addf(why, "tree %s is missing", hex);
		return -1;
	}
	sc_catfile_content(c, &l->buf);
	if (strcmp(type, "tree") != 0) {
		sb_addf(why, "%s is a %s where a tree was named", hex, type);
		return -1;
	}
	for (;;) {
		l->e = xgrow(l->e, l->n, &l->alloc, sizeof *l->e);
		if ((r = sc_tree_next(l->buf.buf, l->buf.len, &pos, g->rawsz, &l->e[l->n])) != 1)
			break;
		l->n++;
	}
	if (r < 0) {
		sb_addf(why, "tree %s is malformed", hex);
		return -1;
	}
	qsort(l->e, l->n, sizeof *l->e, by_name);
	return 0;
}

/* Compare one pair's listings: count what differs into *n, the subtrees
 * to compare next into NEXT. */
static enum sc_treediff compare(const struct listing *a, const struct listing *b, size_t max,
                                size_t *n, struct level *next)
{
	size_t i = 0, j = 0;
	while (i < a->n || j < b->n) {
		int d = i == a->n ? 1 : j == b->n ? -1 : by_name(&a->e[i], &b->e[j]);
		const struct sc_tree_entry *x = d <= 0 ? &a->e[i] : NULL, *y = d >= 0 ? &b->e[j] : NULL;
		i += d <= 0;
		j += d >= 0;
		if (x && y && x->mode == y->mode && strcmp(x->hex, y->hex) == 0)
			continue;
		if (++*n > max)
			return SC_TREEDIFF_OVER;
		if (y && y->mode == SC_MODE_TREE)
			push(next, x && x->mode == SC_MODE_TREE ? x->hex : NULL, y->hex);
	}
	return SC_TREEDIFF_OK;
}

enum sc_treediff sc_tree_diff_count(struct sc_catfile *c, const struct sc_git *g,
                                    const char *old_hex, const char *new_hex, size_t max,
                                    size_t *n, struct strbuf *why)
{
	struct level cur = {0}, next = {0};
	struct listing a = {.buf = STRBUF_INIT}, b = {.buf = STRBUF_INIT};
	enum sc_treediff rc = SC_TREEDIFF_OK;
	*n = 0;
	if (!old_hex || strcmp(old_hex, new_hex) != 0)
		push(&cur, old_hex, new_hex);
	/* a level at a time, its trees requested in a pipeline, answers in order */
	while (cur.n && rc == SC_TREEDIFF_OK) {
		struct names queued = {&cur, 0, 0}, taken = {&cur, 0, 0};
		const char *hex;
		size_t nq = 0, nt = 0;
		for (size_t i = 0; i < cur.n && rc == SC_TREEDIFF_OK; i++) {
			struct listing *side[2] = {&a, &b};
			a.n = 0;
			for (int s = cur.v[i].old_hex ? 0 : 1; s < 2 && rc == SC_TREEDIFF_OK; s++) {
				/* at least the name wanted now, then as many as fit */
				while ((nq == nt || sc_catfile_queue_room(c)) && (hex = next_name(&queued))) {
					sc_catfile_queue(c, hex);
					nq++;
				}
				nt++;
				if (take(c, g, next_name(&taken), side[s], why) < 0)
					rc = SC_TREEDIFF_BAD;
			}
			if (rc == SC_TREEDIFF_OK)
				rc = compare(&a, &b, max, n, &next);
		}
		/* stopped early: the answers still on their way are read, so the
		 * batch stays usable */
		for (char type[16]; nt < nq; nt++) {
			size_t size;
			if (sc_catfile_next(c, type, &size) == 0)
				sc_catfile_prefix(c, &a.buf, 0);
		}
		clear(&cur);
		struct level t = cur;
		cur = next;
		next = t;
	}
	clear(&cur);
	clear(&next);
	free(cur.v);
	free(next.v);
	sb_release(&a.buf);
	sb_release(&b.buf);
	free(a.e);
	free(b.e);
	return rc;
}
