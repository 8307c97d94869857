#ifndef SC_SPAWN_H
#define SC_SPAWN_H
/* Process spawning with an argv and an explicit environment; never a shell. */
#include <sys/types.h>
#include "util/strbuf.h"

enum {
	SC_PIPE_IN = 1 << 0,   /* caller writes the child's stdin via in_fd */
	SC_PIPE_OUT = 1 << 1,  /* caller reads the child's stdout via out_fd */
	SC_NULL_IN = 1 << 2,   /* stdin from /dev/null */
	SC_NULL_OUT = 1 << 3,  /* stdout to /dev/null */
	SC_NULL_ERR = 1 << 4,  /* stderr to /dev/null */
	SC_NEW_PGRP = 1 << 5,  /* child leads a new process group */
	SC_ERR_TO_OUT = 1 << 6, /* stderr joins stdout (after SC_PIPE_OUT) */
	/* The child is sent SIGTERM (or SIGKILL) when the process that spawned
	 * it dies, even by SIGKILL: nothing we start outlives us unnoticed.
	 * Kept across exec (Linux PR_SET_PDEATHSIG). */
	SC_PARENT_DEATH_TERM = 1 << 7,
	SC_PARENT_DEATH_KILL = 1 << 8,
	/* The caller reads the child's stderr via err_fd, which never blocks
	 * either side: what a full pipe cannot take is lost, so a chatty child
	 * costs bounded memory and never stalls. */
	SC_PIPE_ERR = 1 << 9
};

struct sc_proc {
	pid_t pid;
	int in_fd;
	int out_fd;
	int err_fd;
};

/* Spawn argv[0] (searched in PATH when it has no '/').  envp NULL inherits
 * the environment.  cwd NULL keeps ours.  Returns 0, or -1 with errno set
 * when the program could not be started (exec failure is reported here, not
 * as a child exit status). */
int sc_spawn(struct sc_proc *p, const char *const *argv, const char *const *envp,
             const char *cwd, unsigned flags);

/* sc_spawn, but the child waits right before its exec until
 * before_exec(pid, arg) has returned here: what must be attached to the
 * child before any program of its own runs (an inherited perf counter) is
 * attached then.  A failure of before_exec is its own to record. */
int sc_spawn_held(struct sc_proc *p, const char *const *argv, const char *const *envp,
                  const char *cwd, unsigned flags, void (*before_exec)(pid_t, void *), void *arg);

/* Start argv[0] (PATH search) with stdin and stderr on /dev/null and stdout
 * piped to out_fd, without waiting for the exec: several can start at once.
 * The same child setup as sc_spawn's (empty signal mask, SIGPIPE default,
 * SIGTERM when we die).  A failed exec shows as exit 127.  Returns 0, or -1 (errno) when the pipe
 * or fork fails. */
int sc_spawn_nowait(struct sc_proc *p, const char *const *argv, const char *const *envp);

/* Be sent SIG when our parent dies (Linux PR_SET_PDEATHSIG); a parent
 * that died before the request took effect is taken as dying now (SIG
 * raised).  Returns 0, or -1 (errno) when the request fails. */
int sc_die_with_parent(int sig);

/* waitpid that survives EINTR; returns the wait status or -1. */
int sc_wait(pid_t pid);

/* Run to completion, collecting stdout into out (may be NULL to discard).
 * Returns the wait status, or -1 if it could not start (errno set). */
int sc_spawn_capture(const char *const *argv, const char *const *envp, const char *cwd,
                   unsigned flags, struct strbuf *out);

/* Read everything from fd into sb; returns 0 or -1 (errno). */
int sc_read_all(int fd, struct strbuf *sb);
/* Write all of buf; returns 0 or -1 (errno). Retries EINTR and short writes. */
int sc_write_all(int fd, const void *buf, size_t len);

/* Seconds on the monotonic clock: wall time of runs, immune to clock steps. */
double sc_monotonic_now(void);

/* Describe a wait status for messages: "exit 3", "signal 9". Static buffer. */
const char *sc_describe_status(int wstatus);

#endif
