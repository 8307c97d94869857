#ifndef SC_REVS_H
#define SC_REVS_H
/* sc-plan's revision arguments (Documentation/planning.txt "Inputs and rules"): full object
 * IDs only, every bad one named in one error line, each a commit of the
 * repository; and the profiler sources of T equal to the installed ones.
 * The pure halves return an exit code (SC_EXIT_USAGE: the input breaks a
 * rule; SC_EXIT_SYSTEM: git misbehaved) and why, for the unit tests; the
 * object-reading halves die. */
#include "git/git.h"
#include "git/treelookup.h"
#include "util/die.h"
#include "util/strbuf.h"

/* Could S be a full object ID of either hash?  Only such arguments may
 * reach git before the repository's hash is known. */
int sc_looks_like_full_oid(const char *s);

/* Bad revision arguments, collected so that one error line names them
 * all: "what (flag)" for one, "N bad revisions: flag: what; flag: what
 * (flag, flag)" for more. */
struct sc_bad_ids {
	struct strbuf what, where;
	int n;
	int missing; /* of them, objects the repository does not have */
};
#define SC_BAD_IDS_INIT { STRBUF_INIT, STRBUF_INIT, 0, 0 }
/* The hint for a missing object: the usual one is a pull request's head
 * that was never fetched. */
#define SC_FETCH_HINT \
	"; fetch it into the repository first (a pull request's head: git fetch origin pull/N/head)"
void sc_bad_id(struct sc_bad_ids *b, const char *flag, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The error line (without the program's prefix) for what was collected,
 * HINT after the what part; appended to line, nothing when none was. */
void sc_bad_ids_line(const struct sc_bad_ids *b, const char *hint, struct strbuf *line);
/* Dies (bad input) with that line when anything was collected. */
void sc_bad_ids_die(const struct sc_bad_ids *b, const char *hint);
void sc_bad_ids_release(struct sc_bad_ids *b);

/* The full ID IN (either letter case) of the repository's hash as
 * lowercase OUT; else FLAG is collected in bad, with the way to get one. */
void sc_rev_full_id(const struct sc_git *g, const char *in, const char *flag,
                    char out[SC_MAX_HEXSZ + 1], struct sc_bad_ids *bad);

/* What reading HEX as a commit found (sc_commit_read's state and type):
 * SC_EXIT_OK, SC_EXIT_USAGE with why (a bad ID) or SC_EXIT_SYSTEM with why
 * (a commit git cannot parse). */
enum sc_exit sc_commit_verdict(enum sc_commit_state st, const char *type, const char *hex,
                      struct strbuf *why);
/* HEX, a full ID, must name a commit: its root tree in tree, or FLAG
 * collected in bad; dies when the commit cannot be parsed. */
void sc_check_commit(struct sc_catfile *c, const struct sc_git *g, const char *hex,
                     const char *flag, char tree[SC_MAX_HEXSZ + 1], struct sc_bad_ids *bad);

/* profile.tooling PATH: the directory PATH of T's root tree TTREE must
 * hold the sources this profiler was built from (their source-tree IDs in
 * both formats, srctree.h); dies otherwise. */
void sc_check_tooling(struct sc_catfile *c, const struct sc_git *g, const char *ttree,
                      const char *path, const char *mine_sha1, const char *mine_sha256);

/* A pinned profiler commit (Documentation/ci.txt "The profiler, pinned"):
 * PINNED, a full commit ID of sphereceti's own repository, must be BUILT,
 * the commit this profiler's build embedded ("" when its sources were no
 * commit's tree), as profile.tooling holds a vendored copy to T's tree.
 * SC_EXIT_OK, or SC_EXIT_USAGE and why with the fix; the caller names its
 * flag. */
enum sc_exit sc_profiler_commit_verdict(const char *built, const char *pinned, struct strbuf *why);

#endif
