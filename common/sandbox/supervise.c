#include "sandbox/supervise.h"
#include "sandbox/seccomp.h"
#include "sandbox/taskclock.h"
#include "util/die.h"
#include "util/spawn.h"
#include "util/stopsignals.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <linux/close_range.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_MAX 4096

/* Read what is there (keeping at most max bytes, counting the rest in
 * *dropped: the writer never blocks on us); 0 at end of file. */
static int drain(int fd, struct strbuf *sb, size_t max, size_t *dropped)
{
	char buf[4096];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return 0;
		if (n < 0)
			return 1;
		size_t room = sb->len < max ? max - sb->len : 0;
		sb_add(sb, buf, (size_t)n < room ? (size_t)n : room);
		if (dropped && (size_t)n > room)
			*dropped += (size_t)n - room;
	}
}

void sc_sandbox_hold_stop_signals(void)
{
	sigset_t set;
	sc_stop_signal_set(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

int sc_sandbox_no_inherited_descriptors(void)
{
	return (int)syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC);
}

/* The report pipe: the write end, inherited through GNU time and bwrap by
 * sc-pid1 only, lands on 3 or above; everything else of ours is
 * close-on-exec.  Returns 0 or -1 (errno). */
static int report_pipe(int *rd, int *wr)
{
	int rep[2];
	if (pipe2(rep, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	*wr = fcntl(rep[1], F_DUPFD, 3);
	close(rep[1]);
	if (*wr < 0) {
		int e = errno;
		close(rep[0]);
		errno = e;
		return -1;
	}
	*rd = rep[0];
	return 0;
}

/* Our stop signals (those not ignored) and the wrapper's, as we stopped
 * it: SIGTERM to its group, SIGKILL after the grace. */
struct watch {
	pid_t pid;
	int sfd, out_fd, out_open;
	size_t out_max;
	double deadline, kill_at;
};

static void stop_run(struct watch *w, double now)
{
	kill(-w->pid, SIGTERM);
	w->kill_at = now + SC_SANDBOX_GRACE_S;
}

/* One turn of the run loop; 1 once the wrapper is reaped. */
static int watch_once(struct watch *w, struct sc_sandbox_result *r)
{
	double t = sc_monotonic_now();
	if (!r->timed_out && !r->interrupted && t >= w->deadline) {
		r->timed_out = 1;
		stop_run(w, t);
	}
	if (w->kill_at > 0 && t >= w->kill_at) {
		kill(-w->pid, SIGKILL);
		w->kill_at = -1;
	}
	double until = w->kill_at > 0 ? w->kill_at : w->kill_at < 0 ? t + 1 : w->deadline;
	int ms = (int)((until - t) * 1000) + 1;
	struct pollfd fds[2] = {{.fd = w->sfd, .events = POLLIN},
	                        {.fd = w->out_open ? w->out_fd : -1, .events = POLLIN}};
	if (poll(fds, 2, ms < 0 ? 0 : ms) < 0 && errno != EINTR) {
		/* Blind, we could enforce no deadline: end the run, whole
		 * group, and say that our own loop failed. */
		r->loop_errno = errno;
		kill(-w->pid, SIGKILL);
		r->wrapper_status = sc_wait(w->pid);
		return 1;
	}
	if (fds[1].revents && drain(w->out_fd, &r->output, w->out_max, &r->dropped) == 0)
		w->out_open = 0;
	struct signalfd_siginfo si;
	while (read(w->sfd, &si, sizeof si) == (ssize_t)sizeof si)
		if (si.ssi_signo != SIGCHLD && !r->interrupted && !r->timed_out) {
			r->interrupted = (int)si.ssi_signo;
			stop_run(w, sc_monotonic_now());
		}
	int st, done = 0;
	pid_t got;
	while ((got = waitpid(-1, &st, WNOHANG)) > 0)
		if (got == w->pid)
			r->wrapper_status = st, done = 1;
	if (got < 0 && errno == ECHILD && !done)
		r->wrapper_status = -1, done = 1;
	return done;
}

/* Attached to the wrapper before it execs GNU time (sc_spawn_held). */
static void attach_clock(pid_t pid, void *arg)
{
	struct sc_sandbox_result *r = arg;
	r->clock_fd = sc_task_clock_open(pid);
	r->task_clock_errno = r->clock_fd < 0 ? errno : 0;
}

/* After every process of the run has exited: each one's count has been
 * folded into the wrapper's. */
static void read_clock(struct sc_sandbox_result *r)
{
	unsigned long long ns;
	if (r->clock_fd < 0)
		return;
	if (sc_task_clock_read(r->clock_fd, &ns) < 0)
		r->task_clock_errno = errno;
	else
		r->task_clock_s = (double)((ns + 500000) / 1000000) / 1000; /* whole ms */
	close(r->clock_fd);
	r->clock_fd = -1;
}

/* Orphans of the run (bwrap, sc-pid1 after a kill) come to us: without
 * that, "nothing outlives the call" would not hold. */
static void become_subreaper(int on)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, on) < 0)
		sc_die_sys_errno("cannot become the run's subreaper (prctl)");
}

/* The report pipe and the seccomp filter: both reach bwrap only (sc-pid1
 * gets the pipe's write end, bwrap installs the filter). */
static int open_channels(struct sc_sandbox *sb, int *rd, int *wr)
{
	if (report_pipe(rd, wr) < 0)
		return -1;
	sb->report_fd = *wr;
	struct strbuf serr = STRBUF_INIT;
	sb->seccomp_fd = sc_seccomp_filter_fd(&serr);
	sb_release(&serr);
	if (sb->seccomp_fd < 0) {
		int e = errno;
		close(*rd), close(*wr);
		errno = e;
		return -1;
	}
	return 0;
}

int sc_sandbox_supervise(struct sc_sandbox *sb, const char *time_file, const char *const *init_args,
                   double timeout_s, struct sc_sandbox_result *r)
{
	memset(r, 0, sizeof *r);
	r->clock_fd = -1;
	r->task_clock_errno = ENODATA;
	sb_init(&r->report);
	sb_init(&r->output);
	int rd, wr;
	if (open_channels(sb, &rd, &wr) < 0)
		return -1;

	struct sc_argv argv = SC_ARGV_INIT;
	sc_sandbox_time_argv(time_file, &argv);
	sc_sandbox_bwrap_argv(sb, &argv);
	for (const char *const *p = init_args; *p; p++)
		sc_argv_push(&argv, *p);

	sigset_t mask, old;
	sc_stop_signal_set(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &old);
	int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	become_subreaper(1);

	static const char *const empty_env[] = {NULL};
	struct sc_proc p;
	double start = sc_monotonic_now();
	int rc = sfd < 0 ? -1
	                 : sc_spawn_held(&p, argv.v, empty_env, NULL,
	                                 SC_NULL_IN | SC_PIPE_OUT | SC_ERR_TO_OUT | SC_NEW_PGRP |
	                                     SC_PARENT_DEATH_KILL,
	                                 attach_clock, r);
	int saved = errno;
	close(wr);
	close(sb->seccomp_fd);
	sc_argv_release(&argv);
	if (rc < 0) {
		if (sfd >= 0)
			close(sfd);
		close(rd);
		if (r->clock_fd >= 0)
			close(r->clock_fd);
		become_subreaper(0);
		sigprocmask(SIG_SETMASK, &old, NULL);
		errno = saved;
		return -1;
	}
	/* a blocking read would stall the watch on a candidate that keeps its
	 * output open: without O_NONBLOCK nothing else is safe, so the run
	 * stops here as if it could not start */
	if (fcntl(p.out_fd, F_SETFL, O_NONBLOCK) < 0) {
		int fcntl_errno = errno;
		kill(-p.pid, SIGKILL);
		errno = fcntl_errno;
		sc_die_sys_errno("cannot make the command's output non-blocking (fcntl)");
	}
	struct watch w = {.pid = p.pid, .sfd = sfd, .out_fd = p.out_fd, .out_open = 1,
	                  .out_max = sb->keep_output ? SC_SANDBOX_LOG_MAX : OUTPUT_MAX,
	                  .deadline = start + timeout_s};
	while (!watch_once(&w, r))
		;
	r->wall_s = sc_monotonic_now() - start;
	if (r->timed_out || r->interrupted)
		kill(-p.pid, SIGKILL);
	/* Whatever is left of the run has been killed or is exiting: reap it
	 * so that nothing of it survives us. */
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	read_clock(r);
	drain(p.out_fd, &r->output, w.out_max, &r->dropped);
	close(p.out_fd);
	drain(rd, &r->report, 65536, NULL);
	close(rd);
	close(sfd);
	become_subreaper(0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

void sc_sandbox_result_release(struct sc_sandbox_result *r)
{
	sb_release(&r->report);
	sb_release(&r->output);
}
