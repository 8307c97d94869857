#ifndef SC_GITJOB_H
#define SC_GITJOB_H
/* Git plumbing commands running in the background, so that independent
 * lookups (opening the repository, merge base, configuration blob) overlap
 * instead of paying git's start-up one after another.  Same environment and
 * "-c core.fsmonitor=false" as sc_git_run; stdin is /dev/null, stderr is
 * discarded. */
#include "git.h"
#include "run.h"
#include "strbuf.h"

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

/* sc_git_open in two halves (one git process instead of two, and other
 * jobs may run meanwhile); finish dies with sc_git_open's errors. */
void sc_git_open_start(struct sc_gitjob *j, const char *repo);
void sc_git_open_finish(struct sc_gitjob *j, const char *repo, struct sc_git *g);

#endif
