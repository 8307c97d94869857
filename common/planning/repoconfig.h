#ifndef SC_REPOCONFIG_H
#define SC_REPOCONFIG_H
/* The project configuration: file .sphereceti of the tooling commit T, in
 * git-config syntax, read only from T's blob with "git config --blob
 * <blob> --list -z --no-includes" (never the working tree or index).
 *
 *   [profile]
 *       library = Mathlib          ; repeatable, at least one
 *       roadmap = Roadmap          ; repeatable
 *       github = owner/name        ; optional, for revision links
 *       tooling = tools/sphereceti ; optional, path of our sources in T
 *       sourceDir = src            ; optional (default "."): the lean_lib
 *                                  ; srcDir; roots and module names are
 *                                  ; relative to it
 *       maxFiles = 256             ; optional: changed files a plan lists
 *                                  ; (1 to 2000)
 *       filesPerShard = 8          ; optional: files a runner measures
 *       maxShards = 8              ; optional: runners one pull request
 *                                  ; uses (1 to 256)
 *   [sandbox]
 *       bwrapPin = 0.8.0 <64 hex>  ; a pin of bubblewrap, repeatable: one
 *                                  ; per host image (version, SHA-256)
 *       bwrapSha256 = <64 hex>     ; the older form of one pin, a pair
 *       bwrapVersion = 0.8.0
 *
 * Unknown keys of the profile and sandbox sections are errors (a typo must
 * not silently drop a root); other sections are ignored. */
#include <stddef.h>
#include "git/git.h"
#include "contract/leanpath.h"
#include "contract/plan.h"
#include "util/die.h"
#include "util/strbuf.h"

/* Fill the config fields of p (library, roadmap, github, tooling_path,
 * bwrap_pins: the bwrapSha256/bwrapVersion pair first) from "git config --list -z" output.
 * Returns 0, or -1 with err set.  A missing library root is not checked
 * here (the caller reports it as missing configuration). */
int sc_repoconfig_parse(const char *list, size_t len, struct sc_plan *p, struct strbuf *err);

#define SC_CONFIG_FILE ".sphereceti"

/* The configuration errors, in the order sc-plan reports them: T (named
 * TOOLING_WHERE in the error line, e.g. "--tooling ID") has no .sphereceti
 * entry (found 0) or one that is not a regular file (mode), git config could not read the blob SPEC ("T:.sphereceti";
 * its exit code git_rc), sc_repoconfig_parse refused it (parsed < 0, why
 * parse_err), or it names no library root.  Returns 0, or SC_EXIT_USAGE
 * with the error line's text (what and where) in why. */
enum sc_exit sc_repoconfig_verdict(int found, unsigned mode, const char *tooling_where, const char *spec,
                          int git_rc, int parsed, const char *parse_err,
                          const struct sc_plan *p, struct strbuf *why);

#endif
