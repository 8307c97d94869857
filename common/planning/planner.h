#ifndef SC_PLANNER_H
#define SC_PLANNER_H
/* The planning rules of Documentation/planning.txt "Inputs and rules" that sc-plan applies to
 * git's answers: one merge base, Lake configuration equal to T's on M and H,
 * T's lean-toolchain one name.  The pure halves return an exit code
 * (SC_EXIT_USAGE: the revisions break a rule; SC_EXIT_SYSTEM: git misbehaved)
 * and why, so that unit tests reach them; the object-reading halves die. */
#include "git/git.h"
#include "planning/lakelibs.h"
#include "contract/plan.h"
#include "util/strbuf.h"

#define SC_MAX_TOOLCHAIN_BYTES 256

/* The unique merge base from "git merge-base --all" (its exit code rc and
 * stdout out, which is consumed) of the base and the head, as the caller
 * names them in NAMES: SC_EXIT_OK with *mb (allocated), or a code and
 * why. */
enum sc_exit sc_merge_base_pick(int rc, struct strbuf *out, int hexsz, const char *const names[2], char **mb,
                       struct strbuf *why);
/* The same, dying with the code and why. */
char *sc_merge_base_or_die(int rc, struct strbuf *out, int hexsz, const char *const names[2]);

/* How one Lake configuration entry of a side differs from T's (blob IDs,
 * NULL when absent): NULL when equal, else "is absent", "is added" or
 * "changed". */
const char *sc_lake_change(const char *got, const char *want);

/* T's lean-toolchain content trimmed to its one printable token
 * (allocated), or NULL when it is not exactly one. */
char *sc_toolchain_name(const char *buf, size_t len);

/* The Lake configuration entries of TREE (blob IDs, NULL when absent);
 * dies naming SIDE when one is not a regular file. */
void sc_lake_blobs(struct sc_catfile *c, const struct sc_git *g, const char *tree,
                   const char *side, char *blobs[SC_LAKE_NFILES]);
/* Dies (SC_EXIT_POLICY: not measured) unless TREE's Lake configuration is
 * WANT exactly, saying FIX: what the operator can do about a difference on
 * SIDE. */
void sc_same_lake(struct sc_catfile *c, const struct sc_git *g, const char *tree,
                  const char *side, const char *fix, char *const want[SC_LAKE_NFILES]);
/* The link-versus-root rule of sc-materialize: is PATH (a symlink or
 * submodule) where the plan needs real sources -- a Lake configuration
 * file, a root, inside a root, or a folder on the way to one?  Returns why
 * (allocated), or NULL. */
char *sc_plan_needs_sources(const struct sc_plan *p, const char *path);
/* Every selected file is a module some lean_lib of LIBS builds from
 * profile.sourceDir (Config/LeanLib.lean isBuildableModule): SC_EXIT_OK,
 * or SC_EXIT_POLICY and why, naming the first file no lean_lib builds. */
enum sc_exit sc_lean_libs_verdict(const struct sc_lake_libs *libs, const struct sc_plan *p,
                         struct strbuf *why);
/* The same on T's lakefile.toml, when Lake reads it (no lakefile.lean):
 * dies with the verdict.  A lakefile.toml beyond the reader's subset is
 * left to Lake, which fails the prebuild with "unknown module". */
void sc_check_lean_libs(struct sc_catfile *c, const struct sc_plan *p);
/* T's toolchain name from its lean-toolchain blob; dies otherwise. */
char *sc_read_toolchain(struct sc_catfile *c, const char *blob);

#endif
