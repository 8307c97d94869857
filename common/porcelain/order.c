#include "porcelain/order.h"
#include "planning/header.h"
#include "util/argv.h"
#include "util/die.h"
#include "util/nameindex.h"
#include "util/safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A chain of imports longer than this is refused rather than followed
 * (no Lean project is this deep; a hostile tree may be). */
#define MAX_CHAIN 4096

/* One module of the project met on the walk. */
struct node {
	char *name;
	int state;     /* 0 unseen, 1 on the walk, 2 done */
	uint64_t cone; /* the selected modules in its import cone, as plan-file bits */
	char *bad;     /* why its cone cannot be read, or NULL */
};

struct graph {
	const struct sc_plan *p;
	const char *tree;
	enum sc_side side;
	struct node *nodes;
	size_t n, cap;
	struct sc_name_index idx;
};

/* The node of NAME, made when new. */
static size_t node_of(struct graph *g, const char *name)
{
	sc_name_index_fit(&g->idx, g->n + 1, SC_NAMED(g->nodes, g->n, struct node, name));
	size_t *slot = sc_name_index_slot(&g->idx, name, SC_NAMED(g->nodes, g->n, struct node, name));
	if (*slot)
		return *slot - 1;
	g->nodes = xgrow(g->nodes, g->n, &g->cap, sizeof *g->nodes);
	g->nodes[g->n] = (struct node){.name = xstrdup(name)};
	*slot = ++g->n;
	return g->n - 1;
}

/* TREE/SRCDIR/A/B.lean for module A.B, or NULL when no component could be
 * a file name of ours ("", ".", "..", '/', ".git"): no such module. */
static char *module_path(const struct graph *g, const char *mod)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/", g->tree);
	if (g->p->source_dir)
		sb_addf(&sb, "%s/", g->p->source_dir);
	const char *part = mod;
	for (;;) {
		const char *dot = strchr(part, '.');
		size_t n = dot ? (size_t)(dot - part) : strlen(part);
		if (!sc_safe_component(part, n)) {
			sb_release(&sb);
			return NULL;
		}
		sb_add(&sb, part, n);
		if (!dot)
			break;
		sb_addc(&sb, '/');
		part = dot + 1;
	}
	sb_adds(&sb, ".lean");
	return sb_detach(&sb, NULL);
}

/* The plan-file bit of a selected module of the side, or 0. */
static uint64_t selected_bit(const struct graph *g, const char *mod)
{
	for (size_t i = 0; i < g->p->n_files && i < 64; i++)
		if (sc_change_on_side(g->p->files[i].change, g->side) &&
		    strcmp(g->p->files[i].module, mod) == 0)
			return (uint64_t)1 << i;
	return 0;
}

static void walk(struct graph *g, size_t u, int depth);

/* Module V imported by U: its cone, and V itself when selected, join U's. */
static void edge(struct graph *g, size_t u, const char *mod, int depth)
{
	char *path = module_path(g, mod);
	struct stat st;
	int project = path && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
	free(path);
	if (!project)
		return; /* a dependency's or the toolchain's: no edge back */
	size_t v = node_of(g, mod);
	if (g->nodes[v].state == 1) {
		if (!g->nodes[u].bad)
			g->nodes[u].bad = xasprintf("an import cycle through %s", mod);
		return;
	}
	if (g->nodes[v].state == 0)
		walk(g, v, depth + 1);
	g->nodes[u].cone |= g->nodes[v].cone | selected_bit(g, mod);
	/* a cone that cannot be read is unread all the way up: every selected
	 * module above it is refused, never ordered by a guess */
	if (g->nodes[v].bad && !g->nodes[u].bad)
		g->nodes[u].bad = xstrdup(g->nodes[v].bad);
}

/* The header of the file at PATH, from a bounded prefix: a small read,
 * more only when the header goes on (planning/header.h). */
static int header_of_file(const char *path, struct sc_argv *mods, struct strbuf *why)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return -2;
	}
	struct strbuf src = STRBUF_INIT;
	size_t size = (size_t)st.st_size, want = size < 16384 ? size : 16384;
	int rc = SC_HEADER_MORE;
	for (;;) {
		sb_grow(&src, want - src.len);
		while (src.len < want) {
			ssize_t k = pread(fd, src.buf + src.len, want - src.len, (off_t)src.len);
			if (k <= 0)
				break;
			src.len += (size_t)k;
		}
		if (src.len < want) {
			rc = -2;
			break;
		}
		rc = sc_lean_header(src.buf, src.len, src.len == size, mods, why);
		if (rc != SC_HEADER_MORE)
			break;
		want = size < SC_HEADER_MAX_BYTES ? size : SC_HEADER_MAX_BYTES;
	}
	close(fd);
	sb_release(&src);
	return rc;
}

static void walk(struct graph *g, size_t u, int depth)
{
	g->nodes[u].state = 1;
	char *path = module_path(g, g->nodes[u].name);
	struct strbuf why = STRBUF_INIT;
	struct sc_argv mods = SC_ARGV_INIT;
	int rc = depth > MAX_CHAIN || !path ? -2 : header_of_file(path, &mods, &why);
	if (depth > MAX_CHAIN)
		g->nodes[u].bad = xasprintf("an import chain deeper than %d modules at %s", MAX_CHAIN,
		                            g->nodes[u].name);
	else if (rc == -2)
		g->nodes[u].bad = xasprintf("%s cannot be read", g->nodes[u].name);
	else if (rc != SC_HEADER_READ)
		g->nodes[u].bad = xasprintf("the header of %s cannot be read: %s", g->nodes[u].name, why.buf);
	for (size_t i = 0; !g->nodes[u].bad && i < mods.n; i++)
		edge(g, u, mods.v[i], depth);
	sc_argv_release(&mods);
	sb_release(&why);
	free(path);
	g->nodes[u].state = 2;
}

void sc_order_side(const struct sc_plan *p, const char *tree, enum sc_side side, struct sc_order *o)
{
	struct graph g = {.p = p, .tree = tree, .side = side};
	size_t nf = p->n_files;
	o->layer = xcalloc(nf ? nf : 1, sizeof *o->layer);
	o->unreadable = xcalloc(nf ? nf : 1, sizeof *o->unreadable);
	o->n_layers = 0;
	uint64_t *cone = xcalloc(nf ? nf : 1, sizeof *cone);
	for (size_t i = 0; i < nf; i++) {
		o->layer[i] = -1;
		if (!sc_change_on_side(p->files[i].change, side))
			continue;
		size_t u = node_of(&g, p->files[i].module);
		if (g.nodes[u].state == 0)
			walk(&g, u, 0);
		if (g.nodes[u].bad)
			o->unreadable[i] = xstrdup(g.nodes[u].bad);
		cone[i] = g.nodes[u].cone & ~((uint64_t)1 << i);
	}
	/* layers over the selected modules, a DAG (a cycle was refused) */
	for (int changed = 1, round = 0; changed && round <= (int)nf; round++) {
		changed = 0;
		for (size_t i = 0; i < nf && i < 64; i++) {
			if (!sc_change_on_side(p->files[i].change, side) || o->unreadable[i])
				continue;
			int l = 0;
			for (size_t j = 0; j < nf && j < 64; j++)
				if (cone[i] & ((uint64_t)1 << j))
					l = o->layer[j] + 1 > l ? o->layer[j] + 1 : l;
			if (l != o->layer[i]) {
				o->layer[i] = l;
				changed = 1;
			}
		}
	}
	for (size_t i = 0; i < nf; i++)
		if (o->layer[i] + 1 > o->n_layers)
			o->n_layers = o->layer[i] + 1;
	for (size_t i = 0; i < g.n; i++) {
		free(g.nodes[i].name);
		free(g.nodes[i].bad);
	}
	free(g.nodes);
	sc_name_index_free(&g.idx);
	free(cone);
}

void sc_order_free(struct sc_order *o, size_t n_files)
{
	for (size_t i = 0; o->unreadable && i < n_files; i++)
		free(o->unreadable[i]);
	free(o->unreadable);
	free(o->layer);
	o->unreadable = NULL;
	o->layer = NULL;
}

/* Is there anything at REL beneath the tree (TFD)?  No link is followed
 * on the way: one there (the sandbox wrote .lake) counts as something. */
static int present(int tfd, const char *rel)
{
	struct open_how how = {.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
	                       .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
	int fd = (int)syscall(SYS_openat2, tfd, rel, &how, sizeof how);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno != ENOENT && errno != ENOTDIR;
}

int sc_order_violated(const struct sc_plan *p, const struct sc_order *o, const char *tree,
                      enum sc_side side, int layer, const char *sampled, struct strbuf *why)
{
	static const char *const ext[] = {".olean", ".ilean", ".trace"};
	int tfd = open(tree, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tfd < 0) {
		sb_addf(why, "the tree cannot be opened: %s", sc_errno_text(errno));
		return 1;
	}
	int bad = 0;
	for (size_t i = 0; i < p->n_files && !bad; i++) {
		const struct sc_plan_file *f = &p->files[i];
		if (!sc_change_on_side(f->change, side) || o->layer[i] < layer || sampled[i])
			continue;
		struct strbuf rel = STRBUF_INIT;
		for (size_t k = 0; k < sizeof ext / sizeof *ext && !bad; k++) {
			sb_reset(&rel);
			sb_adds(&rel, ".lake/build/lib/lean/");
			for (const char *c = f->module; *c; c++)
				sb_addc(&rel, *c == '.' ? '/' : *c);
			sb_adds(&rel, ext[k]);
			if (present(tfd, rel.buf)) {
				bad = 1;
				sb_addf(why, "%s is already built (%s), before its own sample", f->module, rel.buf);
			}
		}
		sb_release(&rel);
	}
	close(tfd);
	return bad;
}

size_t sc_order_push_targets(const struct sc_plan *p, const struct sc_order *o, int layer,
                             struct sc_argv *cmd)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n_files; i++)
		if (!o || o->layer[i] == layer) {
			sc_argv_push_owned(cmd, xasprintf("+%s:deps", p->files[i].module));
			n++;
		}
	return n;
}
