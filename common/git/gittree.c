#include "git/gittree.h"
#include "util/sha1.h"
#include "util/sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t sc_gitobj_id(enum sc_hash_algo algo, const char *type, const void *data, size_t len,
                    unsigned char raw[32])
{
	char hdr[64];
	int n = snprintf(hdr, sizeof hdr, "%s %zu", type, len) + 1;
	if (algo == SC_HASH_SHA1) {
		struct sc_sha1 c;
		sc_sha1_init(&c);
		sc_sha1_update(&c, hdr, (size_t)n);
		sc_sha1_update(&c, data, len);
		sc_sha1_final(&c, raw);
		return 20;
	}
	struct sc_sha256 c;
	sc_sha256_init(&c);
	sc_sha256_update(&c, hdr, (size_t)n);
	sc_sha256_update(&c, data, len);
	sc_sha256_final(&c, raw);
	return 32;
}

struct node {
	char *name;
	const struct sc_srcfile *file; /* NULL for a directory */
	struct node **kids;
	size_t nkids, alloc;
};

static struct node *child(struct node *dir, const char *name, size_t n, int create)
{
	for (size_t i = 0; i < dir->nkids; i++)
		if (strlen(dir->kids[i]->name) == n && memcmp(dir->kids[i]->name, name, n) == 0)
			return dir->kids[i];
	if (!create)
		return NULL;
	if (dir->nkids == dir->alloc) {
		dir->alloc = dir->alloc ? 2 * dir->alloc : 8;
		dir->kids = xrealloc(dir->kids, dir->alloc * sizeof *dir->kids);
	}
	struct node *k = xcalloc(1, sizeof *k);
	k->name = xstrndup(name, n);
	dir->kids[dir->nkids++] = k;
	return k;
}

static int insert(struct node *root, const struct sc_srcfile *f, struct strbuf *err)
{
	struct node *dir = root;
	const char *p = f->path;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			sb_addf(err, "bad path '%s'", f->path);
			return -1;
		}
		struct node *existing = child(dir, p, n, 0);
		if (!slash) {
			if (existing) {
				sb_addf(err, "path listed twice or also a directory '%s'", f->path);
				return -1;
			}
			child(dir, p, n, 1)->file = f;
			return 0;
		}
		if (existing && existing->file) {
			sb_addf(err, "path is both a file and a directory '%s'", f->path);
			return -1;
		}
		dir = existing ? existing : child(dir, p, n, 1);
		p = slash + 1;
	}
}

/* Git orders tree entries by name, a directory's name compared as if it
 * ended in '/'. */
static int git_order(const void *a, const void *b)
{
	const struct node *x = *(struct node *const *)a, *y = *(struct node *const *)b;
	size_t lx = strlen(x->name), ly = strlen(y->name), n = lx < ly ? lx : ly;
	int c = memcmp(x->name, y->name, n);
	if (c)
		return c;
	unsigned char cx = lx > n ? (unsigned char)x->name[n] : x->file ? 0 : '/';
	unsigned char cy = ly > n ? (unsigned char)y->name[n] : y->file ? 0 : '/';
	return (cx > cy) - (cx < cy);
}

static size_t hash_node(struct node *nd, enum sc_hash_algo algo, unsigned char raw[32])
{
	if (nd->file)
		return sc_gitobj_id(algo, "blob", nd->file->data, nd->file->len, raw);
	qsort(nd->kids, nd->nkids, sizeof *nd->kids, git_order);
	struct strbuf body = STRBUF_INIT;
	for (size_t i = 0; i < nd->nkids; i++) {
		struct node *k = nd->kids[i];
		unsigned char kraw[32];
		size_t rawsz = hash_node(k, algo, kraw);
		sb_addf(&body, "%o %s", k->file ? k->file->mode : 040000u, k->name);
		sb_addc(&body, '\0');
		sb_add(&body, kraw, rawsz);
	}
	size_t rawsz = sc_gitobj_id(algo, "tree", body.buf, body.len, raw);
	sb_release(&body);
	return rawsz;
}

static void free_node(struct node *nd)
{
	for (size_t i = 0; i < nd->nkids; i++)
		free_node(nd->kids[i]);
	free(nd->kids);
	free(nd->name);
	free(nd);
}

int sc_gittree_hex(const struct sc_srcfile *files, size_t n, enum sc_hash_algo algo,
                   char hex[65], struct strbuf *err)
{
	static const char digits[] = "0123456789abcdef";
	if (n == 0) {
		sb_adds(err, "no files");
		return -1;
	}
	struct node *root = xcalloc(1, sizeof *root);
	root->name = xstrdup("");
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		unsigned m = files[i].mode;
		if (m != 0100644u && m != 0100755u && m != 0120000u) {
			sb_addf(err, "unsupported mode %o for '%s'", m, files[i].path);
			rc = -1;
		} else {
			rc = insert(root, &files[i], err);
		}
	}
	if (rc == 0) {
		unsigned char raw[32];
		size_t rawsz = hash_node(root, algo, raw);
		for (size_t i = 0; i < rawsz; i++) {
			hex[2 * i] = digits[raw[i] >> 4];
			hex[2 * i + 1] = digits[raw[i] & 15];
		}
		hex[2 * rawsz] = '\0';
	}
	free_node(root);
	return rc;
}
