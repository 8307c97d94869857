#ifndef SC_LAKELIBS_H
#define SC_LAKELIBS_H
/* The lean_libs of a lakefile.toml, as far as the profiler needs them:
 * which modules Lake can build (Config/LeanLib.lean isBuildableModule), so
 * that a selected file no lean_lib builds is refused before anything runs
 * (Lake would fail the whole prebuild with "unknown module").
 *
 * The reader takes the subset of TOML a lakefile.toml uses: comments, bare,
 * quoted and dotted keys, `[table]` and `[[array]]` headers, basic strings
 * (with the usual escapes), literal strings, multi-line strings, numbers,
 * booleans, dates, arrays and inline tables (skipped unless read).  Of it
 * it keeps the package's srcDir and, per `[[lean_lib]]`, name, srcDir,
 * roots and globs (strings "A", "A.*", "A.+").  Bounded: SC_LAKELIBS_MAX
 * bytes, nesting depth, libraries and names.  A lean_lib whose roots or
 * globs it cannot read (a glob table, a root that is no plain name) builds,
 * for this check, every module: the check never refuses what Lake might
 * build. */
#include <stddef.h>
#include "util/strbuf.h"

#define SC_LAKELIBS_MAX (1u << 20)

enum sc_glob_kind { SC_GLOB_ONE, SC_GLOB_SUBMODULES, SC_GLOB_AND_SUBMODULES };

struct sc_glob {
	char *name; /* dotted module name */
	enum sc_glob_kind kind;
};

struct sc_lean_lib {
	char *name;
	char *src_dir;  /* the package's srcDir / the library's, normalized: "" for the root */
	char **roots;
	size_t n_roots;
	struct sc_glob *globs;
	size_t n_globs;
	int opaque; /* roots or globs not read: treated as building every module */
};

struct sc_lake_libs {
	struct sc_lean_lib *libs;
	size_t n;
};

/* 0, or -1 with err set (malformed or beyond the subset). */
int sc_lakelibs_parse(const char *text, size_t len, struct sc_lake_libs *l, struct strbuf *err);
void sc_lakelibs_free(struct sc_lake_libs *l);
/* Config/LeanLib.lean isBuildableModule: a glob matches MOD, or a root is
 * a prefix of MOD (by components) and a glob matches that root. */
int sc_lean_lib_builds(const struct sc_lean_lib *lib, const char *mod);
/* The lean_lib that builds MOD from SRC_DIR ("" or NULL: the package
 * root), or NULL. */
const struct sc_lean_lib *sc_lakelibs_find(const struct sc_lake_libs *l, const char *mod,
                                           const char *src_dir);

#endif
