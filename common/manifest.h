#ifndef SC_MANIFEST_H
#define SC_MANIFEST_H
/* lake-manifest.json, as far as the profiler needs it: which packages must
 * be present under the operator's dependency folder, at which commit.
 * Rules (DESIGN.md): packagesDir ".lake/packages" (or absent: Lake's
 * default), every package of type "git", a plain name [A-Za-z0-9_-]+, a
 * full lowercase commit ID as rev; names unique.  Other fields are ignored. */
#include <stddef.h>
#include "strbuf.h"

struct sc_manifest_pkg {
	char *name;
	char *rev;
};

struct sc_manifest {
	struct sc_manifest_pkg *pkgs;
	size_t n;
};

int sc_manifest_parse(const char *buf, size_t len, struct sc_manifest *m, struct strbuf *err);
void sc_manifest_free(struct sc_manifest *m);

#endif
