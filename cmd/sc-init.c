/* sc-init: the trusted PID 1 of a sphereceti sandbox.
 *
 *   sc-init REPORT_FD -- CMD ARG...
 *   sc-init REPORT_FD --self-test NS=INODE...
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
 * never see REPORT_FD.  We exit with CMD's status (128 + signal when it was
 * killed), so bwrap and GNU time pass it on.
 *
 * Static, no library, nothing from the sandbox: it must not depend on
 * anything candidate code could have influenced. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* Point 0, 1, 2 at /dev/null: nothing in the sandbox may reach the host's
 * streams (they stay open only in bwrap, outside). */
static int null_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		return -1;
	for (int i = 0; i < 3; i++)
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
	/* The child reports a failed exec on a close-on-exec copy: a
	 * successful exec leaves CMD without any path to the host. */
	int child_fd = fcntl(report_fd, F_DUPFD_CLOEXEC, 3);
	if (child_fd < 0) {
		say_str("init-failed", "cannot set up descriptors");
		return 125;
	}
	say_str("ready", "-"); /* the sandbox is up, CMD starts now */
	pid_t pid = fork();
	if (pid < 0) {
		say_str("init-failed", "fork");
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
		int n = snprintf(line, sizeof line, "exec-failed %d\n", e);
		if (write(child_fd, line, (size_t)n) < 0) {
			/* nothing more to say */
		}
		_exit(e == ENOENT ? 127 : 126);
	}
	close(child_fd);
	int status = reap_all(pid, 0, 0);
	if (status < 0) {
		say_str("init-failed", "lost the command");
		return 125;
	}
	if (WIFSIGNALED(status)) {
		say("signal %ld\n", WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	say("exit %ld\n", WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

/* ---- self-test: facts only a working sandbox shows ---- */

static int fail(const char *what)
{
	say_str("self-test-failed", what);
	return 1;
}

static int fail2(const char *fmt, const char *arg)
{
	char msg[256];
	snprintf(msg, sizeof msg, fmt, arg);
	return fail(msg);
}

static unsigned long long ns_inode(const char *ns)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof path, "/proc/self/ns/%s", ns);
	if (stat(path, &st) < 0)
		return 0;
	return (unsigned long long)st.st_ino;
}

static void burn(double seconds)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
}

static int only_loopback(void)
{
	DIR *d = opendir("/sys/class/net");
	if (d) {
		struct dirent *e;
		int bad = 0;
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && strcmp(e->d_name, "lo") != 0)
				bad = 1;
		closedir(d);
		return !bad;
	}
	/* No sysfs in the sandbox: /proc/net/dev lists the namespace's links. */
	FILE *f = fopen("/proc/net/dev", "r");
	if (!f)
		return 0;
	char line[512];
	int n = 0, bad = 0;
	while (fgets(line, sizeof line, f)) {
		if (++n <= 2)
			continue;
		char *p = line;
		while (*p == ' ')
			p++;
		if (strncmp(p, "lo:", 3) != 0)
			bad = 1;
	}
	fclose(f);
	return !bad;
}

static int self_test(int argc, char **argv)
{
	if (getpid() != 1)
		return fail("not PID 1: no PID namespace");
	for (int i = 0; i < argc; i++) {
		char name[32];
		unsigned long long host;
		if (sscanf(argv[i], "%31[a-z_]=%llu", name, &host) != 2)
			return fail("bad namespace argument");
		unsigned long long here = ns_inode(name);
		if (here == 0 || here == host)
			return fail2("the %s namespace is the host's", name);
	}
	DIR *d = opendir("/proc");
	if (!d)
		return fail("/proc is not readable");
	struct dirent *e;
	int procs = 0;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			procs++;
	closedir(d);
	if (procs != 1)
		return fail("/proc shows processes outside the sandbox");
	if (!only_loopback())
		return fail("a network interface other than lo is visible");
	static const char *const ro[] = {"/usr/.sc-self-test", "/toolchain/.sc-self-test",
	                                 "/project/.lake/packages/.sc-self-test", NULL};
	for (const char *const *p = ro; *p; p++) {
		int fd = open(*p, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd >= 0 || errno != EROFS) {
			if (fd >= 0) {
				close(fd);
				unlink(*p);
			}
			return fail2("%s is writable", *p);
		}
	}
	int fd = open("/project/.sc-self-test", O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return fail("/project is not writable");
	close(fd);
	unlink("/project/.sc-self-test");
	static const char *const absent[] = {"/root", "/home", "/run/user", "/etc/passwd", "/var", NULL};
	for (const char *const *p = absent; *p; p++)
		if (access(*p, F_OK) == 0)
			return fail2("%s is visible", *p);
	/* An orphan burns CPU after its parent is gone; the host checks that
	 * GNU time counts it. */
	pid_t c = fork();
	if (c == 0) {
		if (fork() == 0) {
			burn(0.2);
			_exit(0);
		}
		_exit(0);
	}
	int st;
	while (wait(&st) > 0 || errno == EINTR)
		;
	say_str("self-test-ok", "-");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3 || sscanf(argv[1], "%d", &report_fd) != 1 || report_fd < 3) {
		static const char usage[] = "sc-init: usage: sc-init REPORT_FD -- CMD ARG...\n";
		if (write(2, usage, sizeof usage - 1) < 0)
			return 2;
		return 2;
	}
	/* Non-dumpable: sandboxed code (same uid, no capabilities) cannot
	 * ptrace us or open /proc/1/fd/REPORT_FD. */
	prctl(PR_SET_DUMPABLE, 0);
	if (null_stdio() < 0) {
		say_str("init-failed", "no /dev/null");
		return 125;
	}
	if (strcmp(argv[2], "--self-test") == 0)
		return self_test(argc - 3, argv + 3);
	if (strcmp(argv[2], "--") != 0 || argc < 4) {
		say_str("init-failed", "usage");
		return 2;
	}
	return run(argv + 3);
}
