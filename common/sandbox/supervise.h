#ifndef SC_SUPERVISE_H
#define SC_SUPERVISE_H
/* One timed sandbox run on the host: GNU time around bwrap around sc-pid1,
 * an empty environment, a new process group, a deadline.  On the deadline
 * (or when we are asked to stop) the group gets SIGTERM, a short grace,
 * then SIGKILL; bwrap's --die-with-parent and the PID namespace take the
 * rest down, and as a child subreaper we reap whatever reaches us, so no
 * process of the run outlives this call.  If we die without cleaning up
 * (SIGKILL), GNU time is sent SIGKILL by the kernel and the same chain
 * (die-with-parent, then the PID namespace) ends the rest. */
#include "sandbox/sandbox_args.h"
#include "util/strbuf.h"

#define SC_SANDBOX_GRACE_S 2.0

struct sc_sandbox_result {
	int wrapper_status; /* wait status of GNU time */
	int timed_out;
	int interrupted;    /* the signal that made us stop early, or 0 */
	double wall_s;      /* host CLOCK_MONOTONIC, spawn to reap */
	struct strbuf report; /* lines sc-pid1 wrote to its report pipe */
	struct strbuf output; /* GNU time's and bwrap's own messages (bounded); with
	                       * keep_output also the command's stdout and stderr,
	                       * at most SC_SANDBOX_LOG_MAX */
	size_t dropped;       /* output bytes beyond the bound, read and discarded */
	int loop_errno;       /* our own wait loop failed (poll): the run was killed */
	/* The inherited task clock (taskclock.h) of the wrapper and every
	 * descendant, read once all have exited; task_clock_errno says why
	 * there is none (0: counted). */
	double task_clock_s;
	int task_clock_errno;
	int clock_fd;
};

/* Hold the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT; those not
 * ignored when we were started) from now on: one that arrives while the
 * caller prepares (a temporary file, a folder) is taken up by the next
 * sc_sandbox_supervise, which then stops at once and lets the caller clean up. */
void sc_sandbox_hold_stop_signals(void);

/* Mark every descriptor from 3 up close-on-exec: what the operator's shell
 * left open (a secret on 7, a log on 8) reaches neither GNU time nor
 * bwrap.  Call first thing; returns 0 or -1 (errno). */
int sc_sandbox_no_inherited_descriptors(void);

/* Runs init_args (appended after "/sc-pid1 FD") in the sandbox sb, counters
 * to time_file, the task clock attached to the wrapper before its exec.
 * sb->report_fd is set here.  Returns 0 when the wrapper ran (r filled,
 * r->loop_errno set when our wait failed and the run was killed; release
 * with sc_sandbox_result_release), -1 with errno when it could not be
 * started.  Dies (exit 3) when we cannot be the run's subreaper. */
int sc_sandbox_supervise(struct sc_sandbox *sb, const char *time_file, const char *const *init_args,
                   double timeout_s, struct sc_sandbox_result *r);
void sc_sandbox_result_release(struct sc_sandbox_result *r);

#endif
