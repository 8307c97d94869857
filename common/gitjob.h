#ifndef SC_GITJOB_H
#define SC_GITJOB_H
/* A git plumbing command running in the background, so that independent
 * lookups (merge base, configuration blob, object reads) overlap instead of
 * paying git's start-up one after another.  Same argv shape and environment
 * as sc_git_run; stdin is /dev/null, stderr discarded. */
#include "git.h"
#include "run.h"
#include "strbuf.h"

struct sc_gitjob {
	struct sc_proc proc;
};

/* Start "git --git-dir=<dir> ARGS..." (args NULL-terminated); dies when git
 * cannot be started. */
void sc_gitjob_start(struct sc_gitjob *j, const struct sc_git *g, const char *const *args);
/* Collect all of its stdout into out (replacing it) and wait; returns the
 * exit code, or -1 when git was signalled or its output could not be read. */
int sc_gitjob_finish(struct sc_gitjob *j, struct strbuf *out);

#endif
