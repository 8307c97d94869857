#ifndef SC_GIT_H
#define SC_GIT_H
/* Read-only access to a repository through git plumbing subprocesses.
 * Every git call runs with a fixed environment: no replace refs, no grafts,
 * no optional locks, no inherited GIT_DIR & co., so the objects read are
 * exactly the ones the IDs name and the repository is never written. */
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include "util/strbuf.h"
#include "util/spawn.h"

#define SC_MAX_HEXSZ 64
#define SC_MAX_RAWSZ 32

struct sc_git {
	char *git_dir;     /* absolute */
	int hexsz;         /* 40 (sha1) or 64 (sha256) */
	int rawsz;
	const char *object_format; /* "sha1" or "sha256" */
};

/* Open REPO (bare or not, any path): 0, or -1 with what is wrong with it
 * in WHY (missing, not a repository, an unknown object format); the caller
 * says which input named it.  Dies when git cannot be run. */
int sc_git_open(struct sc_git *g, const char *repo, struct strbuf *why);
void sc_git_close(struct sc_git *g);

/* The environment every git child gets (NULL-terminated, static). */
const char *const *sc_git_env(void);

/* The one place git's argv is built (git's run-command.h is the model):
 * PROGRAM [OPT [VAL]] -c core.fsmonitor=false ARGS... (OPT, VAL: NULL for
 * none; args NULL-terminated, no bound).  Allocated: free the array. */
const char **sc_git_argv(const char *program, const char *opt, const char *val,
                         const char *const *args);

/* Run "git --git-dir=<dir> ARGS..." (args NULL-terminated), collect stdout.
 * Returns the exit code (or -1 if git could not start / was signalled);
 * stderr of git is discarded unless keep_stderr. */
int sc_git_run(const struct sc_git *g, struct strbuf *out, int keep_stderr, ...)
    __attribute__((sentinel));
int sc_git_runv(const struct sc_git *g, struct strbuf *out, int keep_stderr,
                const char *const *args);

/* One long-lived "git cat-file --batch-command --buffer" for reading many
 * objects (Documentation/architecture.txt "Stages": git's answers come in
 * bursts, flushed when we would wait for them). */
struct sc_catfile;
struct sc_catfile *sc_catfile_open(const struct sc_git *g);
/* The same with "--batch-check": answers are headers alone (nothing to
 * consume after sc_catfile_next). */
struct sc_catfile *sc_catfile_open_check(const struct sc_git *g);
/* Look an object up: returns 0 and fills type ("blob", "tree", "commit",
 * "tag") and size, or -1 if missing.  After 0 the caller must consume the
 * content with exactly one sc_catfile_content or sc_catfile_stream call. */
int sc_catfile_header(struct sc_catfile *c, const char *hex, char type[16], size_t *size);
/* Read the pending content into sb (replacing it). */
void sc_catfile_content(struct sc_catfile *c, struct strbuf *sb);
/* The same for its first MAX bytes only; the rest is read and dropped, so
 * memory stays bounded whatever the object's size. */
void sc_catfile_prefix(struct sc_catfile *c, struct strbuf *sb, size_t max);
/* Copy the pending content to fd in bounded chunks (large blobs are never
 * held whole); returns 0, or -1 with errno from the write. On -1 the
 * remaining content has still been drained so the batch stays usable. */
int sc_catfile_stream(struct sc_catfile *c, int fd);
/* Header + content in one; returns 0 or -1 if missing. */
int sc_catfile_read(struct sc_catfile *c, const char *hex, char type[16], struct strbuf *sb);
void sc_catfile_close(struct sc_catfile *c);

/* Pipelined lookups, for reading many objects without a round trip each:
 * sc_catfile_queue sends a name without waiting, sc_catfile_next reads the
 * header of the oldest unanswered name (same results as sc_catfile_header;
 * consume the content the same way).  Git stops reading names while we are
 * not reading its answers, so names beyond what the pipe to git can hold
 * would block us forever: never queue when sc_catfile_queue_room is 0.
 * sc_catfile_header must not be used while names are queued. */
size_t sc_catfile_queue_room(const struct sc_catfile *c);
void sc_catfile_queue(struct sc_catfile *c, const char *hex);
int sc_catfile_next(struct sc_catfile *c, char type[16], size_t *size);

/* Raw tree object walking. */
struct sc_tree_entry {
	unsigned mode;          /* 040000, 0100644, 0100755, 0120000, 0160000 */
	const char *name;       /* not NUL-terminated inside the tree buffer */
	size_t namelen;
	char hex[SC_MAX_HEXSZ + 1];
};
/* Parse the next entry at *pos; returns 1 and advances, 0 at end, -1 if
 * the tree is malformed. */
int sc_tree_next(const char *buf, size_t len, size_t *pos, int rawsz,
                 struct sc_tree_entry *e);

#define SC_MODE_TREE 040000u
#define SC_MODE_BLOB 0100644u
#define SC_MODE_EXEC 0100755u
#define SC_MODE_LINK 0120000u
#define SC_MODE_GITLINK 0160000u
/* A blob's mode: 100644, 100755 or the legacy 100664 & co. */
int sc_is_regular_mode(unsigned mode);

/* Git plumbing commands running in the background, so that independent
 * lookups (opening the repository, merge base, configuration blob) overlap
 * instead of paying git's start-up one after another.  Same environment and
 * "-c core.fsmonitor=false" as sc_git_run; stdin is /dev/null, stderr is
 * discarded. */

struct sc_gitjob {
	struct sc_proc proc;
};

/* Start "git --git-dir=<dir> ARGS..." (args NULL-terminated) without
 * waiting for it; git that cannot be executed finishes with exit 127. */
void sc_gitjob_start(struct sc_gitjob *j, const struct sc_git *g, const char *const *args);
/* Start "git -C <repo> ARGS...": git finds the repository from repo exactly
 * as sc_git_open does, so work can start before that answer is known. */
void sc_gitjob_start_at(struct sc_gitjob *j, const char *repo, const char *const *args);
/* Collect all of its stdout into out (replacing it) and wait; returns the
 * exit code, or -1 when git was signalled or its output could not be read. */
int sc_gitjob_finish(struct sc_gitjob *j, struct strbuf *out);
/* Both at once: "git -C <repo> ARGS..." run and waited for. */
int sc_git_run_at(const char *repo, const char *const *args, struct strbuf *out);

/* sc_git_open in two halves (one git process instead of two, and other
 * jobs may run meanwhile); finish answers as sc_git_open does. */
void sc_git_open_start(struct sc_gitjob *j, const char *repo);
int sc_git_open_finish(struct sc_gitjob *j, const char *repo, struct sc_git *g, struct strbuf *why);

#endif
