/* sc-sandbox-probe: the self-test's checks, run as the command of an
 * ordinary sandbox run (sc-sandbox-exec --self-test), so that they see
 * exactly what a candidate sees: its descriptors, its uid, its namespaces,
 * mounts, seccomp filter and keyrings, and its orphans' CPU reaching GNU
 * time through sc-pid1.
 *
 *   sc-sandbox-probe NS=INODE...
 *
 * Each NS (pid, net, ...) must differ from the host's namespace of that
 * INODE.  Prints one line on stdout, which the self-test keeps as a --log
 * run keeps a candidate's: "self-test-ok -", or "self-test-failed WHAT"
 * (exit 1).  Facts only a working sandbox shows; outside one it fails.
 *
 * Static and standalone like sc-pid1: the self-test runs before anything
 * else is trusted. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/keyctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "contract/initproto.h"
#include "util/decimal.h"
#include "util/die.h"
#include "version.h"

#define USAGE "usage: sc-sandbox-probe NS=INODE...  (the command sc-sandbox-exec --self-test runs)"

/* The one line the host reads (sc-pid1's protocol words): on stdout,
 * which the self-test keeps as a --log run keeps a candidate's. */
static int say(const char *what, const char *detail)
{
	return printf("%s %s\n", what, detail) < 0 || fflush(stdout) == EOF ? -1 : 0;
}

static int fail(const char *what)
{
	say(SC_INIT_SELF_TEST_FAILED, what);
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

static int is_dev_null(int fd)
{
	char link[64], target[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof target - 1);
	return n == 9 && memcmp(target, "/dev/null", 9) == 0;
}

/* What a candidate of a --log run has: 0 on /dev/null, 1 and 2 on the
 * host's log pipe, and nothing else at all (no report pipe, no host
 * descriptor). */
static int only_candidate_descriptors(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return 0;
	struct dirent *e;
	int ok = 1;
	while ((e = readdir(d))) {
		int fd;
		if (e->d_name[0] == '.' || sc_decimal_int(e->d_name, 0, INT_MAX, &fd) < 0 || fd == dirfd(d))
			continue;
		struct stat st;
		if (fd > 2 || (fd == 0 && !is_dev_null(fd)) ||
		    (fd > 0 && (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode))))
			ok = 0;
	}
	closedir(d);
	return ok;
}

/* Host settings: none may be opened for writing (never written). */
static const char *writable_host_setting(void)
{
	static const char *const p[] = {"/proc/sys/kernel/core_pattern", "/proc/sys/vm/swappiness",
	                                "/proc/sys/vm/drop_caches", "/proc/sys/fs/suid_dumpable",
	                                "/proc/sysrq-trigger", NULL};
	for (const char *const *q = p; *q; q++) {
		int fd = open(*q, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			return *q;
		}
	}
	return NULL;
}

/* Files of the kernel belong to host root; they show as the overflow uid
 * unless host root is mapped into our namespace, and bwrap maps exactly
 * one uid: ours. */
static int host_root_mapped(void)
{
	struct stat st;
	FILE *f = fopen("/proc/sys/kernel/overflowuid", "r");
	unsigned long long overflow = 65534;
	char line[32];
	if (f) {
		if (!fgets(line, sizeof line, f) ||
		    sc_decimal(line, strcspn(line, "\n"), 0, 0xffffffffu, &overflow) < 0)
			overflow = 65534;
		fclose(f);
	}
	return stat("/proc/sys/kernel/core_pattern", &st) < 0 || st.st_uid != overflow;
}

/* A new user namespace (the way to a nested PID namespace) is refused. */
static int nested_userns_refused(void)
{
	pid_t c = fork();
	if (c == 0)
		_exit(unshare(CLONE_NEWUSER) == 0 ? 1 : 0);
	int st;
	while (waitpid(c, &st, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Our seccomp mode (the Seccomp: line of /proc/self/status), or -1. */
static int seccomp_mode(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[256];
	int mode = -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "Seccomp:", 8) == 0) {
			const char *v = line + 8 + strspn(line + 8, " \t");
			if (sc_decimal(v, strcspn(v, "\n"), 0, 2, &(unsigned long long){0}) == 0)
				mode = v[0] - '0';
			break;
		}
	fclose(f);
	return mode;
}

/* The filter refuses every keyring call (EPERM, as it says), so no
 * keyring is reachable, the host step's new session keyring included. */
static const char *keyring_reachable(void)
{
	errno = 0;
	if (syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0) >= 0 || errno != EPERM)
		return "keyctl";
	errno = 0;
	if (syscall(SYS_add_key, "user", "sc-self-test", "x", 1, KEY_SPEC_SESSION_KEYRING) >= 0 ||
	    errno != EPERM)
		return "add_key";
	errno = 0;
	if (syscall(SYS_request_key, "user", "sc-self-test", NULL, 0) >= 0 || errno != EPERM)
		return "request_key";
	return NULL;
}

/* Can a file be made at PATH?  Anything but EROFS counts as writable
 * (a file that was made is removed again). */
static int writable(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	return fd >= 0 || errno != EROFS;
}

/* bwrap's root and /dev are tmpfs sized at half the host's RAM: read-only. */
static const char *writable_root(void)
{
	static const char *const p[] = {"/.sc-self-test", "/dev/.sc-self-test", NULL};
	for (const char *const *q = p; *q; q++)
		if (writable(*q))
			return *q;
	return NULL;
}

static int sealed(void)
{
	if (seccomp_mode() != 2)
		return fail("no seccomp filter is active (Seccomp: 2 in /proc/self/status)");
	const char *k = keyring_reachable();
	if (k)
		return fail2("%s reaches a keyring (the seccomp filter must refuse it)", k);
	const char *w = writable_root();
	if (w)
		return fail2("%s can be created: / and /dev must be read-only", w);
	return 0;
}

static int hardening(void)
{
	if (!only_candidate_descriptors())
		return fail("a descriptor other than the candidate's is open, or 0 is not /dev/null");
	const char *w = writable_host_setting();
	if (w)
		return fail2("%s can be opened for writing", w);
	if (!nested_userns_refused())
		return fail("a nested user namespace can be created");
	if (host_root_mapped())
		return fail("the sandbox runs as host root");
	return sealed();
}

/* Our orphan: a grandchild that outlives its parent, reparented to PID 1
 * (sc-pid1), whose reaping hands its CPU up to GNU time.  It holds the
 * write end of a pipe: EOF says it is gone, so we exit (and sc-pid1's
 * kill(-1) comes) only after it burned. */
static void orphan_burns(void)
{
	int p[2];
	if (pipe(p) < 0)
		return;
	pid_t c = fork();
	if (c == 0) {
		close(p[0]);
		if (fork() == 0) {
			burn(0.2);
			_exit(0);
		}
		_exit(0);
	}
	close(p[1]);
	char b;
	while (read(p[0], &b, 1) > 0 || errno == EINTR)
		;
	close(p[0]);
	int st;
	while (waitpid(c, &st, 0) < 0 && errno == EINTR)
		;
}

/* A child whose parent ignores SIGCHLD is autoreaped, so its CPU never
 * reaches rusage and the host's task clock must count it (with SIGCHLD
 * ignored, wait returns once it is gone). */
static void autoreaped_burns(void)
{
	int st;
	if (fork() == 0) {
		signal(SIGCHLD, SIG_IGN);
		if (fork() == 0) {
			burn(0.1);
			_exit(0);
		}
		while (wait(&st) > 0 || errno == EINTR)
			;
		_exit(0);
	}
	while (wait(&st) > 0 || errno == EINTR)
		;
}

/* NAME=INODE: our namespace NAME must not be the host's (INODE). */
static int own_namespace(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	unsigned long long host;
	if (!n || n > 16 || strspn(arg, "abcdefghijklmnopqrstuvwxyz_") != n ||
	    sc_decimal(eq + 1, strlen(eq + 1), 1, ~0ull, &host) < 0)
		return fail2("bad namespace argument (%s)", arg);
	char name[17];
	snprintf(name, sizeof name, "%.*s", (int)n, arg);
	unsigned long long here = ns_inode(name);
	if (here == 0 || here == host)
		return fail2("the %s namespace is the host's", name);
	return 0;
}

/* Only sc-pid1 (PID 1) and we are in the PID namespace, and we are its
 * child. */
static int alone_with_init(void)
{
	DIR *d = opendir("/proc");
	if (!d)
		return fail("/proc is not readable");
	struct dirent *e;
	int ok = getppid() == 1;
	while ((e = readdir(d))) {
		int pid;
		if (sc_decimal_int(e->d_name, 1, INT_MAX, &pid) == 0 && pid != 1 && pid != getpid())
			ok = 0;
	}
	closedir(d);
	return ok ? 0 : fail("/proc shows processes outside the sandbox");
}

/* The mounts as Documentation/sandbox.txt "The process chain" has them: read-only but the tree's .lake; the
 * host's homes and files absent. */
static int mounts(void)
{
	static const char *const ro[] = {"/usr/.sc-self-test", "/toolchain/.sc-self-test",
	                                 "/project/.sc-self-test",
	                                 "/project/.lake/packages/.sc-self-test", NULL};
	for (const char *const *p = ro; *p; p++)
		if (writable(*p))
			return fail2("%s is writable", *p);
	int fd = open("/project/.lake/.sc-self-test", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail("/project/.lake is not writable");
	close(fd);
	unlink("/project/.lake/.sc-self-test");
	static const char *const absent[] = {"/root", "/home", "/run/user", "/etc/passwd", "/var", NULL};
	for (const char *const *p = absent; *p; p++)
		if (access(*p, F_OK) == 0)
			return fail2("%s is visible", *p);
	return 0;
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-sandbox-probe");
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		return printf("%s\n", USAGE) < 0;
	if (argc == 2 && strcmp(argv[1], "--version") == 0)
		return printf("sc-sandbox-probe " SC_VERSION "\n") < 0;
	if (hardening() || alone_with_init())
		return 1;
	for (int i = 1; i < argc; i++)
		if (own_namespace(argv[i]))
			return 1;
	if (!only_loopback())
		return fail("a network interface other than lo is visible");
	if (mounts())
		return 1;
	orphan_burns();
	autoreaped_burns();
	return say(SC_INIT_SELF_TEST_OK, SC_INIT_NO_ARG) < 0;
}
