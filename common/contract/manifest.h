#ifndef SC_MANIFEST_H
#define SC_MANIFEST_H
/* lake-manifest.json, as far as the profiler needs it: which packages must
 * be present under the operator's dependency folder, at which commit.
 * Rules (Documentation/lake-fidelity.txt "Real Lake"): the schema version as Lake's Load/Manifest.lean
 * getVersion reads it ("version", else "schemaVersion"; a number n is
 * 0.n.0, a string x.y.z with an optional -suffix; from 0.5.0 through any
 * 1.x.y; below 0.7.0 an entry is {"git": {...}}); packagesDir
 * ".lake/packages" (or absent: Lake's default), every package of type
 * "git", a plain name [A-Za-z0-9_-]+ or that name in Lean's «» escape
 * (its folder is the unescaped name), a full lowercase commit ID as rev,
 * an optional subDir (a relative path: the package root inside its
 * checkout); folders unique.  Other fields are ignored. */
#include <stddef.h>
#include "util/strbuf.h"

struct sc_manifest_pkg {
	char *name;   /* the folder under packagesDir: the name unescaped */
	char *rev;
	char *subdir; /* NULL, or the package root inside the checkout */
};

struct sc_manifest {
	struct sc_manifest_pkg *pkgs;
	size_t n;
};

int sc_manifest_parse(const char *buf, size_t len, struct sc_manifest *m, struct strbuf *err);
void sc_manifest_free(struct sc_manifest *m);

#endif
