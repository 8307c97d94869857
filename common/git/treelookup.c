#include "git/treelookup.h"
#include "util/oid.h"

#include <stdio.h>
#include <string.h>

int sc_commit_parse_tree(const char *buf, size_t len, int hexsz, char tree_hex[SC_MAX_HEXSZ + 1])
{
	if (len <= 5 + (size_t)hexsz || memcmp(buf, "tree ", 5) != 0 || buf[5 + hexsz] != '\n')
		return -1;
	memcpy(tree_hex, buf + 5, (size_t)hexsz);
	tree_hex[hexsz] = '\0';
	return sc_is_lower_hex(tree_hex, (size_t)hexsz) ? 0 : -1;
}

enum sc_commit_state sc_commit_read(struct sc_catfile *c, const char *commit_hex, int hexsz,
                                    char type[16], char tree_hex[SC_MAX_HEXSZ + 1])
{
	struct strbuf sb = STRBUF_INIT;
	enum sc_commit_state st = SC_COMMIT_OK;
	if (sc_catfile_read(c, commit_hex, type, &sb) < 0)
		st = SC_COMMIT_MISSING;
	else if (strcmp(type, "commit") != 0)
		st = SC_COMMIT_NOT_COMMIT;
	else if (sc_commit_parse_tree(sb.buf, sb.len, hexsz, tree_hex) < 0)
		st = SC_COMMIT_MALFORMED;
	sb_release(&sb);
	return st;
}

int sc_commit_tree(struct sc_catfile *c, const struct sc_git *g, const char *commit_hex,
                   char tree_hex[SC_MAX_HEXSZ + 1])
{
	char type[16];
	return sc_commit_read(c, commit_hex, g->hexsz, type, tree_hex) == SC_COMMIT_OK ? 0 : -1;
}

int sc_commit_parse_parents(const char *buf, size_t len, int hexsz,
                            char (*parents)[SC_MAX_HEXSZ + 1], int max)
{
	char tree[SC_MAX_HEXSZ + 1];
	if (sc_commit_parse_tree(buf, len, hexsz, tree) < 0)
		return -1;
	size_t pos = 5 + (size_t)hexsz + 1, line = 7 + (size_t)hexsz + 1;
	int n = 0;
	while (len - pos >= line && memcmp(buf + pos, "parent ", 7) == 0) {
		char hex[SC_MAX_HEXSZ + 1];
		memcpy(hex, buf + pos + 7, (size_t)hexsz);
		hex[hexsz] = '\0';
		if (buf[pos + line - 1] != '\n' || !sc_is_lower_hex(hex, (size_t)hexsz))
			return -1;
		if (n < max)
			memcpy(parents[n], hex, sizeof hex);
		n++;
		pos += line;
	}
	return n;
}

int sc_commit_parents(struct sc_catfile *c, const struct sc_git *g, const char *commit_hex,
                      char (*parents)[SC_MAX_HEXSZ + 1], int max)
{
	char type[16];
	struct strbuf sb = STRBUF_INIT;
	int n = -1;
	if (sc_catfile_read(c, commit_hex, type, &sb) == 0 && strcmp(type, "commit") == 0)
		n = sc_commit_parse_parents(sb.buf, sb.len, g->hexsz, parents, max);
	sb_release(&sb);
	return n;
}

int sc_tree_find(struct sc_catfile *c, const struct sc_git *g, const char *tree_hex,
                 const char *path, struct sc_tree_entry *e)
{
	char type[16], cur[SC_MAX_HEXSZ + 1];
	struct strbuf sb = STRBUF_INIT;
	snprintf(cur, sizeof cur, "%s", tree_hex);
	int rc = 0;
	const char *p = path;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (sc_catfile_read(c, cur, type, &sb) < 0 || strcmp(type, "tree") != 0) {
			rc = -1;
			break;
		}
		size_t pos = 0;
		int r, found = 0;
		while ((r = sc_tree_next(sb.buf, sb.len, &pos, g->rawsz, e)) == 1)
			if (e->namelen == n && memcmp(e->name, p, n) == 0) {
				found = 1;
				break;
			}
		if (r < 0) {
			rc = -1;
			break;
		}
		if (!found)
			break;
		if (!slash) {
			rc = 1;
			break;
		}
		if (e->mode != SC_MODE_TREE)
			break;
		memcpy(cur, e->hex, sizeof cur);
		p = slash + 1;
	}
	e->name = NULL;
	sb_release(&sb);
	return rc;
}
