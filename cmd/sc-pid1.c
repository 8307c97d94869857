/* sc-pid1: the trusted PID 1 of a sphereceti sandbox, and nothing else.
 *
 *   sc-pid1 REPORT_FD [--keep-output] -- CMD ARG...
 *
 * Why it exists: GNU time on the host only sees CPU time of processes that
 * are waited for along an unbroken chain back to it.  bwrap's own PID 1
 * monitor never hands its children's usage up (GNU time reports ~0 s), so
 * bwrap runs us with --as-pid-1 instead: we start CMD, reap every process
 * of the namespace (orphans reparent to PID 1), and when CMD has exited we
 * kill(-1, SIGKILL) the rest and reap them too.  Their CPU then reaches our
 * parent (bwrap, waited for by GNU time) through the normal rusage chain.
 *
 * REPORT_FD is a pipe to the host, which only trusted code holds: we write
 * "ready", then "exit N" / "signal N" for CMD (or "exec-failed ERRNO" from
 * the child).  CMD and everything it starts get /dev/null on 0, 1, 2 and
 * no other descriptor at all (candidate_descriptors).  We exit with CMD's
 * status (128 + signal when it was killed), so bwrap and GNU time pass it
 * on.  The host step before bwrap is sc-confine; the self-test's
 * checks run as CMD (sc-sandbox-probe), seeing what a candidate sees.
 *
 * Static, no library but the one argv parser and error line
 * (util/decimal, util/die), nothing from the sandbox: it must not depend
 * on anything candidate code could have influenced.  A bad call is one
 * error line, exit 2, before anything runs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "contract/initproto.h"
#include "util/decimal.h"
#include "util/die.h"
#include "util/fdkeep.h"
#include "version.h"

static int report_fd = -1;

static void say(const char *fmt, long v)
{
	char line[128];
	int n = snprintf(line, sizeof line, fmt, v);
	if (n > 0 && report_fd >= 0) {
		ssize_t w;
		do
			w = write(report_fd, line, (size_t)n);
		while (w < 0 && errno == EINTR);
	}
}

static void say_str(const char *what, const char *detail)
{
	char line[512];
	int n = snprintf(line, sizeof line, "%s %s\n", what, detail);
	if (n > 0 && report_fd >= 0 && write(report_fd, line, (size_t)n) < 0) {
		/* the host notices the missing line */
	}
}

/* What the candidate gets: 0, 1, 2 on /dev/null, nothing of the host's
 * streams (they stay open only in bwrap, outside), and no other descriptor
 * but REPORT_FD, which the command's child closes before it execs.  With
 * --keep-output (sc-sandbox-exec --log) 1 and 2 stay what bwrap got: a pipe
 * the host reads, bounded, into an untrusted log.  The one place that
 * decides the candidate's descriptors. */
static int candidate_descriptors(int keep_output)
{
	if (sc_close_all_but(&report_fd, 1) < 0)
		return -1;
	int fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		return -1;
	for (int i = 0; i < (keep_output ? 1 : 3); i++)
		if (dup2(fd, i) < 0)
			return -1;
	if (fd > 2)
		close(fd);
	return 0;
}

/* Reap until no child is left; returns CMD's wait status (or -1). */
static int reap_all(pid_t cmd, int have_status, int status)
{
	int st;
	pid_t r;
	for (;;) {
		r = waitpid(-1, &st, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nothing left */
		}
		if (r == cmd && !have_status) {
			have_status = 1;
			status = st;
			/* CMD is done: whatever it left behind goes now. */
			kill(-1, SIGKILL);
		}
	}
	return have_status ? status : -1;
}

static int run(char **argv)
{
	/* kill(-1) below must only ever reach this sandbox's namespace: outside
	 * one it would kill every process of the sandbox user on the host. */
	if (getpid() != 1) {
		say_str(SC_INIT_FAILED, "not PID 1 of its own PID namespace");
		return 125;
	}
	/* The child reports a failed exec on a close-on-exec copy: a
	 * successful exec leaves CMD without any path to the host. */
	int child_fd = fcntl(report_fd, F_DUPFD_CLOEXEC, 3);
	if (child_fd < 0) {
		say_str(SC_INIT_FAILED, "cannot set up descriptors");
		return 125;
	}
	say_str(SC_INIT_READY, SC_INIT_NO_ARG); /* the sandbox is up, CMD starts now */
	pid_t pid = fork();
	if (pid < 0) {
		say_str(SC_INIT_FAILED, "fork");
		return 125;
	}
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(report_fd);
		execvp(argv[0], argv);
		int e = errno;
		char line[64];
		int n = snprintf(line, sizeof line, SC_INIT_EXEC_FAILED " %d\n", e);
		if (write(child_fd, line, (size_t)n) < 0) {
			/* nothing more to say */
		}
		_exit(e == ENOENT ? 127 : 126);
	}
	close(child_fd);
	int status = reap_all(pid, 0, 0);
	if (status < 0) {
		say_str(SC_INIT_FAILED, "lost the command");
		return 125;
	}
	if (WIFSIGNALED(status)) {
		say(SC_INIT_SIGNAL " %ld\n", WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	say(SC_INIT_EXIT " %ld\n", WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

#define USAGE "usage: sc-pid1 REPORT_FD [--keep-output] -- CMD ARG..."

/* Like every program of ours, -h/--help and --version; anything else that
 * is not the one form is one error line, exit 2.  Returns CMD's argv. */
static char **parse(int argc, char **argv, int *keep_output)
{
	if (argc < 2)
		sc_die("no REPORT_FD; " USAGE " (argv)");
	if (sc_decimal_int(argv[1], 3, INT_MAX, &report_fd) < 0)
		sc_die("REPORT_FD wants a descriptor number, 3 or more; " USAGE " (%s)", argv[1]);
	int i = 2;
	*keep_output = i < argc && strcmp(argv[i], "--keep-output") == 0;
	i += *keep_output;
	if (i >= argc || strcmp(argv[i], "--") != 0)
		sc_die("expected --; " USAGE " (%s)", i < argc ? argv[i] : "argv");
	if (i + 1 >= argc)
		sc_die("no command after --; " USAGE " (argv)");
	return argv + i + 1;
}

static int answer(const char *text)
{
	return write(1, text, strlen(text)) < 0 ? 3 : 0;
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-pid1");
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		return answer(USAGE "\nThe sandbox's PID 1, started by bwrap for sc-sandbox-exec;\n"
		                    "see sc-sandbox-exec(1), THE SANDBOX.\n");
	if (argc == 2 && strcmp(argv[1], "--version") == 0)
		return answer("sc-pid1 " SC_VERSION "\n");
	int keep_output;
	char **cmd = parse(argc, argv, &keep_output);
	/* Non-dumpable: sandboxed code (same uid, no capabilities) cannot
	 * ptrace us or open /proc/1/fd/REPORT_FD. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0) {
		say_str(SC_INIT_FAILED, "cannot make PID 1 non-dumpable (prctl)");
		return 125;
	}
	if (candidate_descriptors(keep_output) < 0) {
		say_str(SC_INIT_FAILED, "cannot set up the candidate's descriptors");
		return 125;
	}
	return run(cmd);
}
