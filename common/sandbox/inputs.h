#ifndef SC_INPUTS_H
#define SC_INPUTS_H
/* Preconditions checked on the host before any candidate code runs.  Each
 * returns 0, or -1 with a one-line reason in err (no trailing location). */
#include "contract/manifest.h"
#include "util/strbuf.h"

struct sc_toolchain_info {
	char *version_line; /* first line of `bin/lean --version` */
	char lean_sha256[65];
	char lake_sha256[65];
};

/* bin/lean and bin/lake exist and are executable; `bin/lean --version`,
 * run with an empty environment, begins "Lean (version X," where X is
 * lean_toolchain without "leanprover/lean4:v". */
int sc_check_toolchain(const char *dir, const char *lean_toolchain,
                       struct sc_toolchain_info *info, struct strbuf *err);
void sc_toolchain_info_free(struct sc_toolchain_info *info);

/* The one answer to "is this the usual wrong --toolchain": a file (e.g.
 * /usr/bin/lean, or elan's proxy) or elan's own folder (~/.elan, whose
 * bin/lean is a proxy that fails in an empty environment), not the
 * toolchain folder elan unpacked.  Returns which, with what to pass
 * instead in err (LEAN_TOOLCHAIN, when known, names elan's folder for
 * it), else SC_TOOLCHAIN_NOT_MISNAMED (0: a folder, or nothing there). */
enum sc_toolchain_misnamed {
	SC_TOOLCHAIN_NOT_MISNAMED = 0,
	SC_TOOLCHAIN_A_FILE,
	SC_TOOLCHAIN_ELAN_HOME,
};
enum sc_toolchain_misnamed sc_toolchain_misnamed(const char *dir, const char *lean_toolchain,
                                                 struct strbuf *err);

/* Every manifest package is an ordinary directory DEPS/<name> that is the
 * top of its own Git checkout, at exactly rev, with clean tracked sources. */
int sc_check_dependencies(const char *deps, const struct sc_manifest *m, struct strbuf *err);

/* After Lake failed to load a workspace: the first dependency whose
 * lakefile.lean configuration Lake would have had to compile into its own
 * read-only folder (Load/Lean/Elab.lean importConfigFile; Lean before 4.31
 * keeps lakefile.olean and its .trace in the package's .lake): missing,
 * written by another Lean (the trace's leanHash against the commit of
 * VERSION_LINE), or older than lakefile.lean.  1 with why naming it, 0 when
 * none looks so (the cause is elsewhere). */
int sc_dependency_config_problem(const char *deps, const struct sc_manifest *m,
                                 const char *version_line, struct strbuf *why);

/* 1 if either path (after realpath) is the other or lies inside it. */
int sc_paths_overlap(const char *a, const char *b);

#endif
