#ifndef SC_GITTREE_H
#define SC_GITTREE_H
/* Git object IDs computed without a repository: the tree ID a set of files
 * would get if committed, in SHA-1 or SHA-256 form.  The build uses it to
 * embed the profiler's own source tree ID, which sc-plan compares with
 * T:<profile.tooling>. */
#include <stddef.h>
#include "util/strbuf.h"

enum sc_hash_algo { SC_HASH_SHA1, SC_HASH_SHA256 };

/* Raw ID of the object "<type> <len>\0<data>"; returns the raw size. */
size_t sc_gitobj_id(enum sc_hash_algo algo, const char *type, const void *data, size_t len,
                    unsigned char raw[32]);

struct sc_srcfile {
	const char *path;  /* relative, '/'-separated, no "", ".", ".." components */
	unsigned mode;     /* 0100644, 0100755 or 0120000 (data = link target) */
	const void *data;
	size_t len;
};

/* Hex tree ID of the files (any order).  Returns 0, or -1 with err set for
 * a bad or duplicate path, a file/directory clash, a bad mode or no files. */
int sc_gittree_hex(const struct sc_srcfile *files, size_t n, enum sc_hash_algo algo,
                   char hex[65], struct strbuf *err);

#endif
