#include "git/treewalk.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/safepath.h"
#include "util/sha256.h"

#include <stdlib.h>
#include <string.h>

static size_t add_node(struct sc_tree *t)
{
	t->nodes = xgrow(t->nodes, t->n, &t->alloc, sizeof *t->nodes);
	memset(&t->nodes[t->n], 0, sizeof *t->nodes);
	return t->n++;
}

/* Message form of a node's path (or of a child name under it). */
static char *where(const struct sc_tree *t, size_t idx, const char *child, size_t childlen)
{
	struct strbuf raw = STRBUF_INIT, q = STRBUF_INIT;
	sc_tree_path(t, idx, &raw);
	if (child) {
		if (raw.len)
			sb_addc(&raw, '/');
		sb_add(&raw, child, childlen);
	}
	if (!raw.len)
		sb_adds(&raw, "tree root");
	sc_quote_path(&q, raw.buf, raw.len);
	sb_release(&raw);
	return sb_detach(&q, NULL);
}

static unsigned canonical_mode(unsigned mode)
{
	switch (mode) {
	case SC_MODE_TREE:
	case SC_MODE_BLOB:
	case SC_MODE_EXEC:
	case SC_MODE_LINK:
	case SC_MODE_GITLINK:
		return mode;
	case 0100664: /* written by very old git; git itself reads it as 100644 */
		return SC_MODE_BLOB;
	default:
		return 0;
	}
}

static const struct sc_tree *sort_tree;
static int by_name(const void *a, const void *b)
{
	const struct sc_tree_node *x = &sort_tree->nodes[*(const size_t *)a];
	const struct sc_tree_node *y = &sort_tree->nodes[*(const size_t *)b];
	size_t n = x->namelen < y->namelen ? x->namelen : y->namelen;
	int c = memcmp(x->name, y->name, n);
	return c ? c : (x->namelen > y->namelen) - (x->namelen < y->namelen);
}

/* Git keeps tree entries sorted, but a crafted tree need not be: sort a copy. */
static void refuse_duplicates(struct sc_tree *t, size_t dir, size_t *scratch)
{
	const struct sc_tree_node *d = &t->nodes[dir];
	for (size_t i = 0; i < d->nchildren; i++)
		scratch[i] = d->first_child + i;
	sort_tree = t;
	qsort(scratch, d->nchildren, sizeof *scratch, by_name);
	for (size_t i = 1; i < d->nchildren; i++)
		if (by_name(&scratch[i - 1], &scratch[i]) == 0) {
			const struct sc_tree_node *e = &t->nodes[scratch[i]];
			sc_die("duplicate name in tree (%s)", where(t, dir, e->name, e->namelen));
		}
}

/* Entries past MAX: nothing more is parsed (returns -1). */
static int parse_tree(struct sc_tree *t, size_t dir, const char *buf, size_t len, size_t max,
                      size_t **scratch, size_t *scratch_alloc)
{
	size_t pos = 0;
	struct sc_tree_entry e;
	int r;
	t->nodes[dir].first_child = t->n;
	while ((r = sc_tree_next(buf, len, &pos, t->rawsz, &e)) == 1) {
		if (t->n > max)
			return -1;
		if (!sc_safe_component(e.name, e.namelen))
			sc_die("unsafe name in tree (%s)", where(t, dir, e.name, e.namelen));
		unsigned mode = canonical_mode(e.mode);
		if (!mode)
			sc_die("unsupported mode %o in tree (%s)", e.mode,
			       where(t, dir, e.name, e.namelen));
		size_t k = add_node(t);
		struct sc_tree_node *n = &t->nodes[k];
		n->name = e.name;
		n->namelen = e.namelen;
		n->oid = (const unsigned char *)e.name + e.namelen + 1;
		n->parent = dir;
		n->mode = mode;
		n->depth = t->nodes[dir].depth + 1;
		if (mode == SC_MODE_TREE && n->depth > SC_TREE_MAX_DEPTH)
			sc_die("tree deeper than %d levels (%s)", SC_TREE_MAX_DEPTH, where(t, k, NULL, 0));
	}
	if (r < 0)
		sc_die("malformed tree object (%s)", where(t, dir, NULL, 0));
	struct sc_tree_node *d = &t->nodes[dir];
	d->nchildren = t->n - d->first_child;
	if (d->nchildren > *scratch_alloc) {
		*scratch_alloc = d->nchildren;
		*scratch = xrealloc(*scratch, *scratch_alloc * sizeof **scratch);
	}
	refuse_duplicates(t, dir, *scratch);
	return 0;
}

/* Read the trees of one level (the nodes in [from, to) that are trees),
 * keeping up to the batch's window of requests in flight; -1 once past
 * MAX entries (the answers still in flight are read and dropped). */
static int read_level(struct sc_catfile *c, struct sc_tree *t, size_t from, size_t to, size_t max,
                      size_t **scratch, size_t *scratch_alloc)
{
	size_t q = from, inflight = 0;
	struct strbuf sb = STRBUF_INIT;
	char hex[SC_MAX_HEXSZ + 1], type[16];
	int over = 0;
	for (size_t i = from; i < to && !over; i++) {
		if (t->nodes[i].mode != SC_MODE_TREE)
			continue;
		for (; q < to && sc_catfile_queue_room(c); q++)
			if (t->nodes[q].mode == SC_MODE_TREE) {
				sc_tree_hex(t, q, hex);
				sc_catfile_queue(c, hex);
				inflight++;
			}
		size_t size;
		inflight--;
		if (sc_catfile_next(c, type, &size) < 0)
			sc_die("missing tree object (%s)", where(t, i, NULL, 0));
		if (strcmp(type, "tree") != 0)
			sc_die("entry is a tree but its object is a %s (%s)", type, where(t, i, NULL, 0));
		sc_catfile_content(c, &sb);
		t->bufs = xgrow(t->bufs, t->nbufs, &t->bufs_alloc, sizeof *t->bufs);
		size_t len;
		char *buf = sb_detach(&sb, &len);
		t->bufs[t->nbufs++] = buf;
		over = parse_tree(t, i, buf, len, max, scratch, scratch_alloc) < 0;
	}
	for (size_t size; inflight; inflight--) { /* answers of names already sent */
		if (sc_catfile_next(c, type, &size) == 0)
			sc_catfile_prefix(c, &sb, 0);
	}
	sb_release(&sb);
	return over ? -1 : 0;
}

static void build_order(struct sc_tree *t)
{
	/* Iterative pre-order: a stack of (directory, next child). */
	t->order = xcalloc(t->n ? t->n : 1, sizeof *t->order);
	size_t norder = 0;
	size_t *dir = xcalloc(SC_TREE_MAX_DEPTH + 2, sizeof *dir);
	size_t *next = xcalloc(SC_TREE_MAX_DEPTH + 2, sizeof *next);
	int top = 0;
	dir[0] = 0;
	next[0] = 0;
	while (top >= 0) {
		const struct sc_tree_node *d = &t->nodes[dir[top]];
		if (next[top] == d->nchildren) {
			top--;
			continue;
		}
		size_t k = d->first_child + next[top]++;
		t->order[norder++] = k;
		if (t->nodes[k].mode == SC_MODE_TREE) {
			top++;
			dir[top] = k;
			next[top] = 0;
		}
	}
	free(dir);
	free(next);
}

static unsigned hexval(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

int sc_tree_load(struct sc_catfile *c, const char *tree_hex, int rawsz,
                 const struct sc_tree_bounds *b, struct sc_tree *t, struct strbuf *why)
{
	size_t max = b && b->max_entries < SC_TREE_MAX_ENTRIES ? b->max_entries : SC_TREE_MAX_ENTRIES;
	memset(t, 0, sizeof *t);
	t->rawsz = rawsz;
	/* The root's ID lives in a buffer of its own, like every other one. */
	unsigned char *root_oid = xmalloc((size_t)rawsz);
	if (!sc_is_lower_hex(tree_hex, (size_t)rawsz * 2))
		sc_die_sys("internal: bad tree ID (%s)", tree_hex);
	for (int i = 0; i < rawsz; i++)
		root_oid[i] = (unsigned char)(hexval(tree_hex[2 * i]) << 4 | hexval(tree_hex[2 * i + 1]));
	t->bufs = xgrow(NULL, 0, &t->bufs_alloc, sizeof *t->bufs);
	t->bufs[t->nbufs++] = (char *)root_oid;
	size_t r = add_node(t);
	t->nodes[r].oid = root_oid;
	t->nodes[r].mode = SC_MODE_TREE;

	size_t *scratch = NULL, scratch_alloc = 0;
	size_t from = 0, to = 1;
	int over = 0;
	while (!over && from < to) {
		over = read_level(c, t, from, to, max, &scratch, &scratch_alloc) < 0;
		from = to;
		to = t->n;
	}
	free(scratch);
	if (over) {
		sc_tree_free(t);
		sb_addf(why, "more than %zu entries (files and folders)", max);
		return -1;
	}
	build_order(t);
	return 0;
}

int sc_tree_blob_bytes(const struct sc_git *g, const struct sc_tree *t, unsigned long long max,
                       unsigned long long *total, struct strbuf *why)
{
	struct sc_catfile *c = sc_catfile_open_check(g);
	char hex[SC_MAX_HEXSZ + 1], type[16];
	size_t q = 1, inflight = 0, size;
	*total = 0;
	int over = 0;
	for (size_t i = 1; i < t->n && !over; i++) {
		if (t->nodes[i].mode != SC_MODE_BLOB && t->nodes[i].mode != SC_MODE_EXEC)
			continue;
		for (; q < t->n && sc_catfile_queue_room(c); q++)
			if (t->nodes[q].mode == SC_MODE_BLOB || t->nodes[q].mode == SC_MODE_EXEC) {
				sc_tree_hex(t, q, hex);
				sc_catfile_queue(c, hex);
				inflight++;
			}
		inflight--;
		if (sc_catfile_next(c, type, &size) < 0) {
			char *w = where(t, i, NULL, 0);
			sc_catfile_close(c); /* ours alone: nothing else would close it */
			sc_die("missing blob object (%s)", w);
		}
		over = (*total += size) > max;
	}
	for (; inflight; inflight--)
		(void)sc_catfile_next(c, type, &size);
	sc_catfile_close(c);
	if (over)
		sb_addf(why, "its files hold more than %llu bytes", max);
	return over ? -1 : 0;
}

void sc_tree_free(struct sc_tree *t)
{
	for (size_t i = 0; i < t->nbufs; i++)
		free(t->bufs[i]);
	free(t->bufs);
	free(t->nodes);
	free(t->order);
	memset(t, 0, sizeof *t);
}

void sc_tree_path(const struct sc_tree *t, size_t idx, struct strbuf *sb)
{
	size_t depth = t->nodes[idx].depth, start = sb->len, total = 0;
	for (size_t k = idx; k; k = t->nodes[k].parent)
		total += t->nodes[k].namelen + 1;
	if (!depth)
		return;
	total--; /* no trailing slash */
	sb_grow(sb, total);
	char *end = sb->buf + start + total;
	for (size_t k = idx; k; k = t->nodes[k].parent) {
		const struct sc_tree_node *n = &t->nodes[k];
		end -= n->namelen;
		memcpy(end, n->name, n->namelen);
		if (end > sb->buf + start)
			*--end = '/';
	}
	sb->len = start + total;
	sb->buf[sb->len] = '\0';
}

void sc_tree_hex(const struct sc_tree *t, size_t idx, char hex[SC_MAX_HEXSZ + 1])
{
	sc_hex(t->nodes[idx].oid, (size_t)t->rawsz, hex);
}
