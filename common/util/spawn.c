#include "util/spawn.h"
#include "util/die.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int dup_to(int fd, int target)
{
	if (fd == target)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, target) < 0 ? -1 : 0;
}

static int open_null(int flags)
{
	return open("/dev/null", flags | O_CLOEXEC);
}

/* Point fd TARGET at the pipe end PIPE_FD (flag PIPE) or /dev/null (flag
 * NUL, opened with MODE), or leave it; 0 or -1 (errno). */
static int redirect(unsigned flags, unsigned pipe, int pipe_fd, unsigned nul, int mode, int target)
{
	if (flags & pipe)
		return dup_to(pipe_fd, target);
	if (!(flags & nul))
		return 0;
	int fd = open_null(mode);
	return fd < 0 ? -1 : dup_to(fd, target);
}

/* The child's side of a held spawn: wait until the parent closes its end
 * (whatever it attaches to us is in place then); 0 or -1 (errno). */
static int wait_release(const int hold[2])
{
	close(hold[1]);
	char c;
	ssize_t n;
	do
		n = read(hold[0], &c, 1);
	while (n < 0 && errno == EINTR);
	close(hold[0]);
	return n < 0 ? -1 : 0;
}

/* The child's side of sc_spawn: never returns; a failure before the exec
 * (or of the exec) is written to REPORT as its errno. */
static _Noreturn void child(const char *const *argv, const char *const *envp, const char *cwd,
                            unsigned flags, pid_t parent, const int in[2], const int out[2],
                            const int err[2], int report, const int hold[2])
{
	int death = (flags & SC_PARENT_DEATH_KILL) ? SIGKILL
	            : (flags & SC_PARENT_DEATH_TERM) ? SIGTERM : 0;
	if (death && prctl(PR_SET_PDEATHSIG, death) < 0)
		goto fail;
	/* The parent may have died before the request took effect. */
	if (death && getppid() != parent)
		_exit(127);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if ((flags & SC_NEW_PGRP) && setpgid(0, 0) < 0)
		goto fail;
	if (redirect(flags, SC_PIPE_IN, in[0], SC_NULL_IN, O_RDONLY, 0) < 0 ||
	    redirect(flags, SC_PIPE_OUT, out[1], SC_NULL_OUT, O_WRONLY, 1) < 0)
		goto fail;
	if ((flags & SC_ERR_TO_OUT) ? dup2(1, 2) < 0
	                            : redirect(flags, SC_PIPE_ERR, err[1], SC_NULL_ERR, O_WRONLY, 2) < 0)
		goto fail;
	if (cwd && chdir(cwd) < 0)
		goto fail;
	if (hold[0] >= 0 && wait_release(hold) < 0)
		goto fail;
	if (envp)
		execvpe(argv[0], (char *const *)argv, (char *const *)envp);
	else
		execvp(argv[0], (char *const *)argv);
fail: {
	int exec_errno = errno;
	if (write(report, &exec_errno, sizeof exec_errno) < 0) {
		/* nothing more can be said */
	}
	_exit(127);
}
}

static void close_pair(int fds[2])
{
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* The errno a child reported before its exec, or 0 once it exec'd. */
static int child_errno(int report[2], pid_t pid)
{
	close(report[1]);
	report[1] = -1;
	int err = 0;
	ssize_t n;
	do
		n = read(report[0], &err, sizeof err);
	while (n < 0 && errno == EINTR);
	close(report[0]);
	report[0] = -1;
	if (n != (ssize_t)sizeof err)
		return 0;
	sc_wait(pid);
	return err;
}

/* Every child of ours is set up by child(); wait_exec: whether to wait
 * for its exec (a failure is then our -1), else a failed exec is its exit
 * 127. */
static int spawn(struct sc_proc *p, const char *const *argv, const char *const *envp,
                 const char *cwd, unsigned flags, void (*before_exec)(pid_t, void *), void *arg,
                 int wait_exec)
{
	int in[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1}, report[2] = {-1, -1},
	    hold[2] = {-1, -1};
	p->pid = -1;
	p->in_fd = p->out_fd = p->err_fd = -1;
	if ((flags & SC_PIPE_IN) && pipe2(in, O_CLOEXEC) < 0)
		goto fail;
	if ((flags & SC_PIPE_OUT) && pipe2(out, O_CLOEXEC) < 0)
		goto fail;
	/* Both ends non-blocking: the pipe's size is the bound (SC_PIPE_ERR). */
	if ((flags & SC_PIPE_ERR) && pipe2(errp, O_CLOEXEC | O_NONBLOCK) < 0)
		goto fail;
	/* The child reports a failed exec through this close-on-exec pipe. */
	if (wait_exec && pipe2(report, O_CLOEXEC) < 0)
		goto fail;
	if (before_exec && pipe2(hold, O_CLOEXEC) < 0)
		goto fail;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		goto fail;
	if (pid == 0)
		child(argv, envp, cwd, flags, parent, in, out, errp, report[1], hold);
	if (before_exec) {
		close(hold[0]);
		hold[0] = -1;
		before_exec(pid, arg);
		close(hold[1]);
		hold[1] = -1;
	}
	int err = wait_exec ? child_errno(report, pid) : 0;
	if (err) {
		errno = err;
		goto fail;
	}
	if (flags & SC_PIPE_IN) {
		close(in[0]);
		p->in_fd = in[1];
	}
	if (flags & SC_PIPE_OUT) {
		close(out[1]);
		p->out_fd = out[0];
	}
	if (flags & SC_PIPE_ERR) {
		close(errp[1]);
		p->err_fd = errp[0];
	}
	p->pid = pid;
	return 0;
fail: {
	int saved = errno;
	close_pair(in);
	close_pair(out);
	close_pair(errp);
	close_pair(report);
	close_pair(hold);
	errno = saved;
	return -1;
}
}

int sc_spawn(struct sc_proc *p, const char *const *argv, const char *const *envp,
             const char *cwd, unsigned flags)
{
	return spawn(p, argv, envp, cwd, flags, NULL, NULL, 1);
}

int sc_spawn_held(struct sc_proc *p, const char *const *argv, const char *const *envp,
                  const char *cwd, unsigned flags, void (*before_exec)(pid_t, void *), void *arg)
{
	return spawn(p, argv, envp, cwd, flags, before_exec, arg, 1);
}

int sc_die_with_parent(int sig)
{
	pid_t parent = getppid();
	if (prctl(PR_SET_PDEATHSIG, sig) < 0)
		return -1;
	if (getppid() != parent)
		raise(sig);
	return 0;
}

int sc_wait(pid_t pid)
{
	int status;
	for (;;) {
		pid_t r = waitpid(pid, &status, 0);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

int sc_read_all(int fd, struct strbuf *sb)
{
	for (;;) {
		sb_grow(sb, 65536);
		ssize_t n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			return 0;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
}

int sc_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int sc_spawn_capture(const char *const *argv, const char *const *envp, const char *cwd,
                   unsigned flags, struct strbuf *out)
{
	struct sc_proc p;
	if (out)
		flags |= SC_PIPE_OUT;
	else
		flags |= SC_NULL_OUT;
	if (!(flags & SC_PIPE_IN))
		flags |= SC_NULL_IN;
	if (sc_spawn(&p, argv, envp, cwd, flags) < 0)
		return -1;
	int rc = 0;
	if (out) {
		rc = sc_read_all(p.out_fd, out);
		int saved = errno;
		close(p.out_fd);
		errno = saved;
	}
	int status = sc_wait(p.pid);
	if (rc < 0)
		return -1;
	return status;
}

const char *sc_describe_status(int wstatus)
{
	static char buf[64];
	if (wstatus < 0)
		snprintf(buf, sizeof buf, "could not run");
	else if (WIFEXITED(wstatus))
		snprintf(buf, sizeof buf, "exit %d", WEXITSTATUS(wstatus));
	else if (WIFSIGNALED(wstatus))
		snprintf(buf, sizeof buf, "signal %d", WTERMSIG(wstatus));
	else
		snprintf(buf, sizeof buf, "status %d", wstatus);
	return buf;
}

double sc_monotonic_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int sc_spawn_nowait(struct sc_proc *p, const char *const *argv, const char *const *envp)
{
	return spawn(p, argv, envp, NULL, SC_NULL_IN | SC_PIPE_OUT | SC_NULL_ERR | SC_PARENT_DEATH_TERM,
	             NULL, NULL, 0);
}
