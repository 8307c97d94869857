#include "planning/revs.h"
#include "git/srctree.h"
#include "util/die.h"
#include "util/oid.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sc_looks_like_full_oid(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");
	return s[n] == '\0' && (n == 40 || n == 64);
}

void sc_bad_id(struct sc_bad_ids *b, const char *flag, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	sb_addf(&b->what, "%s%s: %s", b->n ? "; " : "", flag, msg);
	sb_addf(&b->where, "%s%s", b->n ? ", " : "", flag);
	b->n++;
}

void sc_bad_ids_line(const struct sc_bad_ids *b, const char *hint, struct strbuf *line)
{
	if (!b->n)
		return;
	if (b->n == 1) /* "flag: what" -> "what (flag)" */
		sb_addf(line, "%s%s (%s)", b->what.buf + b->where.len + 2, hint, b->where.buf);
	else
		sb_addf(line, "%d bad revisions: %s%s (%s)", b->n, b->what.buf, hint, b->where.buf);
}

void sc_bad_ids_die(const struct sc_bad_ids *b, const char *hint)
{
	struct strbuf line = STRBUF_INIT;
	sc_bad_ids_line(b, hint, &line);
	if (line.len)
		sc_die("%s", line.buf);
}

void sc_bad_ids_release(struct sc_bad_ids *b)
{
	sb_release(&b->what);
	sb_release(&b->where);
	b->n = b->missing = 0;
}

void sc_rev_full_id(const struct sc_git *g, const char *in, const char *flag,
                    char out[SC_MAX_HEXSZ + 1], struct sc_bad_ids *bad)
{
	if (sc_oid_normalize(in, g->hexsz, out) < 0)
		sc_bad_id(bad, flag, "not a full %d-digit %s object ID: '%s'", g->hexsz,
		          g->object_format, in);
}

enum sc_exit sc_commit_verdict(enum sc_commit_state st, const char *type, const char *hex,
                      struct strbuf *why)
{
	switch (st) {
	case SC_COMMIT_OK:
		return SC_EXIT_OK;
	case SC_COMMIT_MISSING:
		sb_addf(why, "no such object %s", hex);
		return SC_EXIT_USAGE;
	case SC_COMMIT_NOT_COMMIT:
		sb_addf(why, "object %s is a %s, not a commit", hex, type);
		return SC_EXIT_USAGE;
	case SC_COMMIT_MALFORMED:
		break;
	}
	sb_addf(why, "cannot parse commit %s", hex);
	return SC_EXIT_SYSTEM;
}

void sc_check_commit(struct sc_catfile *c, const struct sc_git *g, const char *hex,
                     const char *flag, char tree[SC_MAX_HEXSZ + 1], struct sc_bad_ids *bad)
{
	char type[16] = "";
	struct strbuf why = STRBUF_INIT;
	enum sc_commit_state st = sc_commit_read(c, hex, g->hexsz, type, tree);
	int code = sc_commit_verdict(st, type, hex, &why);
	if (code == SC_EXIT_SYSTEM)
		sc_die_sys("%s (%s)", why.buf, flag);
	if (code != SC_EXIT_OK)
		sc_bad_id(bad, flag, "%s", why.buf);
	bad->missing += st == SC_COMMIT_MISSING;
	sb_release(&why);
}

/* The tree of directory PATH of T's root tree (PATH "." is the root). */
static void tooling_tree(struct sc_catfile *c, const struct sc_git *g, const char *ttree,
                         const char *path, char tree[SC_MAX_HEXSZ + 1])
{
	if (strcmp(path, ".") == 0) {
		snprintf(tree, SC_MAX_HEXSZ + 1, "%s", ttree);
		return;
	}
	struct sc_tree_entry e;
	int r = sc_tree_find(c, g, ttree, path, &e);
	if (r < 0)
		sc_die_sys("cannot read the tooling tree (profile.tooling %s)", path);
	if (r == 0 || e.mode != SC_MODE_TREE)
		sc_die("the tooling commit has no directory %s (profile.tooling)", path);
	memcpy(tree, e.hex, SC_MAX_HEXSZ + 1);
}

enum sc_exit sc_profiler_commit_verdict(const char *built, const char *pinned, struct strbuf *why)
{
	if (!sc_is_lower_hex(pinned, 40) && !sc_is_lower_hex(pinned, 64))
		sb_addf(why, "not a full commit ID of sphereceti's repository: '%s'", pinned);
	else if (!*built)
		sb_addf(why, "this profiler was not built from a clean Git checkout of sphereceti, so it "
		        "is no commit's build: build it from a checkout of %s (git checkout %s && make "
		        "install)", pinned, pinned);
	else if (strcmp(built, pinned) != 0)
		sb_addf(why, "this profiler was built from commit %s, not the pinned %s: build it from a "
		        "checkout of %s (git checkout %s && make install), or pin %s",
		        built, pinned, pinned, pinned, built);
	else
		return SC_EXIT_OK;
	return SC_EXIT_USAGE;
}

void sc_check_tooling(struct sc_catfile *c, const struct sc_git *g, const char *ttree,
                      const char *path, const char *mine_sha1, const char *mine_sha256)
{
	char tree[SC_MAX_HEXSZ + 1], own[SC_MAX_HEXSZ + 1], type[16];
	tooling_tree(c, g, ttree, path, tree);
	/* Only the profiler's own entries count (srctree.h), as at build time. */
	struct strbuf sb = STRBUF_INIT;
	if (sc_catfile_read(c, tree, type, &sb) < 0 || strcmp(type, "tree") != 0 ||
	    sc_srctree_own_id(sb.buf, sb.len, g->hexsz == 40 ? SC_HASH_SHA1 : SC_HASH_SHA256, own) < 0)
		sc_die_sys("cannot read the tooling tree (profile.tooling %s)", path);
	sb_release(&sb);
	const char *mine = g->hexsz == 40 ? mine_sha1 : mine_sha256;
	if (strcmp(mine, own) != 0)
		sc_die("installed profiler sources (tree %s) differ from the tooling commit's "
		       "%s (tree %s): copy this profiler's own tree there again, or build the profiler "
		       "from it (make -C %s install) (profile.tooling)",
		       mine, path, own, path);
}
