#include "git/srctree.h"
#include "git/git.h"

#include <stdio.h>
#include <string.h>

/* Not ours: what Debian packaging adds (debian/, quilt's .pc/), Git's
 * folder and the build folders (build, build-asan, ...). */
static const char *const foreign[] = {"debian", ".pc", ".git", NULL};

static int is_own_name(const char *name, size_t n)
{
	for (const char *const *f = foreign; *f; f++)
		if (strlen(*f) == n && memcmp(*f, name, n) == 0)
			return 0;
	return !(n >= 5 && memcmp(name, "build", 5) == 0);
}

int sc_srctree_is_own(const char *path)
{
	return is_own_name(path, strcspn(path, "/"));
}

int sc_srctree_own_id(const char *tree, size_t len, enum sc_hash_algo algo, char hex[65])
{
	int rawsz = algo == SC_HASH_SHA1 ? 20 : 32;
	struct strbuf kept = STRBUF_INIT;
	struct sc_tree_entry e;
	size_t pos = 0, start = 0;
	int r;
	/* Entries stay in git's order and bytes: the kept ones form a tree. */
	while ((r = sc_tree_next(tree, len, &pos, rawsz, &e)) == 1) {
		if (is_own_name(e.name, e.namelen))
			sb_add(&kept, tree + start, pos - start);
		start = pos;
	}
	if (r == 0) {
		unsigned char raw[32];
		size_t n = sc_gitobj_id(algo, "tree", kept.buf, kept.len, raw);
		for (size_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	}
	sb_release(&kept);
	return r == 0 ? 0 : -1;
}
