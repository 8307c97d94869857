#ifndef SC_TASKCLOCK_H
#define SC_TASKCLOCK_H
/* CPU no descendant can hide (Documentation/measurement.txt "Sealed measurement"): a perf
 * software counter, PERF_COUNT_SW_TASK_CLOCK with inherit=1, attached to
 * the wrapper (the process that execs GNU time) before its exec.  Every
 * descendant inherits it, and each one's count is folded into ours when it
 * exits, however it is reaped (a child autoreaped because its parent
 * ignores SIGCHLD never reaches GNU time's rusage), in any namespace.
 * The task clock is time on a CPU, user and kernel alike. */
#include <sys/types.h>

/* The counter on pid, counting from now; returns the descriptor
 * (close-on-exec), or -1 with errno when this host has none to give:
 * ENOSYS (no perf events), EACCES/EPERM (perf_event_paranoid, a
 * container's seccomp), ENOENT/EOPNOTSUPP. */
int sc_task_clock_open(pid_t pid);

/* Nanoseconds counted on fd so far (the wrapper's and every exited
 * descendant's); 0 or -1 (errno). */
int sc_task_clock_read(int fd, unsigned long long *ns);

#endif
