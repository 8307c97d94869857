/* sc-init: the trusted PID 1 of a sphereceti sandbox.
 *
 *   sc-init REPORT_FD [--keep-output] -- CMD ARG...
 *   sc-init REPORT_FD --self-test NS=INODE...
 *   sc-init --host UID GID REPORT_FD [--max-procs N] [--seccomp-fd FD] -- BWRAP ARG...
 *                                                     (on the host)
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
 * no other descriptor at all (candidate_descriptors).
 *
 * --host is the trusted step between GNU time and bwrap on the host: it
 * closes every descriptor but 0-2 and REPORT_FD (GNU time's -o file, which
 * a candidate once used to forge its own counters; FD, the seccomp filter
 * bwrap reads, stays), drops to the sandbox user, bounds that user's
 * processes (RLIMIT_NPROC, which the user namespace bwrap makes inherits as
 * its ceiling) and joins a new, empty session keyring (keyrings are not
 * namespaced: the operator's would be the candidate's) before it execs
 * bwrap.  We exit with CMD's status (128 + signal when it was
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
#include <grp.h>
#include <sched.h>
#include <linux/keyctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "contract/initproto.h"
#include "contract/sandboxuser.h"
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

/* Close every descriptor but 0, 1, 2, keep and keep2 (-1: none). */
static int close_all_but_two(int keep, int keep2)
{
	int a = keep2 >= 0 && keep2 < keep ? keep2 : keep, b = keep2 > keep ? keep2 : keep;
	if (a > 3 && syscall(SYS_close_range, 3u, (unsigned)a - 1, 0u) < 0)
		return -1;
	if (b > a + 1 && syscall(SYS_close_range, (unsigned)a + 1, (unsigned)b - 1, 0u) < 0)
		return -1;
	if (syscall(SYS_close_range, (unsigned)b + 1, ~0u, 0u) < 0)
		return -1;
	return 0;
}

static int close_all_but(int keep)
{
	return close_all_but_two(keep, -1);
}

/* What the candidate gets: 0, 1, 2 on /dev/null, nothing of the host's
 * streams (they stay open only in bwrap, outside), and no other descriptor
 * but REPORT_FD, which the command's child closes before it execs.  With
 * --keep-output (sc-sandbox-exec --log) 1 and 2 stay what bwrap got: a pipe
 * the host reads, bounded, into an untrusted log.  The one place that
 * decides the candidate's descriptors. */
static int candidate_descriptors(int keep_output)
{
	if (close_all_but(report_fd) < 0)
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

static _Noreturn void host_fail(const char *what)
{
	char line[256];
	int n = snprintf(line, sizeof line, "sc-init: host step: %s (errno %d)\n", what, errno);
	if (n > 0 && write(2, line, (size_t)n) < 0) {
		/* GNU time's status says it failed */
	}
	_exit(125);
}

static unsigned host_number(const char *s, const char *what)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v >= 0xffffffffUL)
		host_fail(what);
	return (unsigned)v;
}

static unsigned host_id(const char *s)
{
	unsigned v;
	if (sc_id_parse(s, strlen(s), &v) < 0 || v == 0)
		host_fail("the sandbox uid and gid must be numbers other than 0");
	return v;
}

/* A new, empty session keyring, ours alone: nothing the operator's session
 * held is reachable from the sandbox (whose seccomp filter then refuses
 * keyctl altogether).  Where keyrings are out of reach already (a kernel
 * without them, a container's filter refusing keyctl), they are for the
 * candidate too. */
static void new_session_keyring(void)
{
	long old = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0);
	int old_errno = errno;
	long now = syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL);
	if (now < 0 && old < 0 && errno == old_errno && (errno == ENOSYS || errno == EPERM))
		return;
	if (now < 0 || now == old)
		host_fail("cannot join a new session keyring");
}

/* sc-init --host UID GID REPORT_FD [--max-procs N] [--seccomp-fd FD] -- PROGRAM ARG... */
static int host_step(int argc, char **argv)
{
	static const char usage[] =
		"usage: sc-init --host UID GID REPORT_FD [--max-procs N] [--seccomp-fd FD] -- PROGRAM ARG...";
	if (argc < 7)
		host_fail(usage);
	uid_t uid = host_id(argv[2]);
	gid_t gid = host_id(argv[3]);
	int keep = atoi(argv[4]), seccomp_fd = -1, i = 5;
	unsigned max_procs = 0;
	for (; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
		if (strcmp(argv[i], "--max-procs") == 0)
			max_procs = host_number(argv[i + 1], "--max-procs must be a positive number");
		else if (strcmp(argv[i], "--seccomp-fd") == 0 && atoi(argv[i + 1]) >= 3)
			seccomp_fd = atoi(argv[i + 1]);
		else
			host_fail(usage);
	}
	if (i + 1 >= argc || strcmp(argv[i], "--") != 0)
		host_fail(usage);
	if (keep < 3 || close_all_but_two(keep, seccomp_fd) < 0)
		host_fail("cannot close inherited descriptors");
	if (getuid() == 0 || geteuid() == 0) {
		if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
			host_fail("cannot drop to the sandbox user");
	}
	uid_t r, e, s;
	gid_t rg, eg, sg;
	if (getresuid(&r, &e, &s) < 0 || getresgid(&rg, &eg, &sg) < 0 || r != uid || e != uid ||
	    s != uid || rg != gid || eg != gid || sg != gid)
		host_fail("not running as the sandbox user");
	if (setuid(0) == 0)
		host_fail("root could be regained");
	struct rlimit nproc = {max_procs, max_procs};
	if (max_procs && setrlimit(RLIMIT_NPROC, &nproc) < 0)
		host_fail("cannot bound the sandbox user's processes (RLIMIT_NPROC)");
	new_session_keyring();
	execv(argv[i + 1], argv + i + 1);
	host_fail("cannot run bubblewrap");
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

/* ---- self-test: facts only a working sandbox shows ---- */

static int fail(const char *what)
{
	say_str(SC_INIT_SELF_TEST_FAILED, what);
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

/* Only 0, 1, 2 (on /dev/null) and the report pipe are open. */
static int only_own_descriptors(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return 0;
	struct dirent *e;
	int ok = 1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		int fd = atoi(e->d_name);
		if (fd == dirfd(d) || fd == report_fd)
			continue;
		char link[64], target[64];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, target, sizeof target - 1);
		if (fd > 2 || n != 9 || memcmp(target, "/dev/null", 9) != 0)
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
	unsigned long overflow = 65534;
	if (f) {
		if (fscanf(f, "%lu", &overflow) != 1)
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
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
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

/* bwrap's root and /dev are tmpfs sized at half the host's RAM: read-only. */
static const char *writable_root(void)
{
	static const char *const p[] = {"/.sc-self-test", "/dev/.sc-self-test", NULL};
	for (const char *const *q = p; *q; q++) {
		int fd = open(*q, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EROFS) {
			if (fd >= 0) {
				close(fd);
				unlink(*q);
			}
			return *q;
		}
	}
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
	if (!only_own_descriptors())
		return fail("a descriptor of the host is open, or 0-2 are not /dev/null");
	const char *w = writable_host_setting();
	if (w)
		return fail2("%s can be opened for writing", w);
	if (!nested_userns_refused())
		return fail("a nested user namespace can be created");
	if (host_root_mapped())
		return fail("the sandbox runs as host root");
	return sealed();
}

/* CPU that must reach the host's counters: an orphan burns after its
 * parent is gone (GNU time must count it), and a child whose parent ignores
 * SIGCHLD is autoreaped, so its CPU never reaches rusage and the host's
 * task clock must count it (with SIGCHLD ignored, wait returns once it is
 * gone). */
static void hidden_cpu_probes(void)
{
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

static int self_test(int argc, char **argv)
{
	if (getpid() != 1)
		return fail("not PID 1: no PID namespace");
	if (hardening())
		return 1;
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
	                                 "/project/.sc-self-test",
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
	int fd = open("/project/.lake/.sc-self-test", O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return fail("/project/.lake is not writable");
	close(fd);
	unlink("/project/.lake/.sc-self-test");
	static const char *const absent[] = {"/root", "/home", "/run/user", "/etc/passwd", "/var", NULL};
	for (const char *const *p = absent; *p; p++)
		if (access(*p, F_OK) == 0)
			return fail2("%s is visible", *p);
	hidden_cpu_probes();
	say_str(SC_INIT_SELF_TEST_OK, SC_INIT_NO_ARG);
	return 0;
}

/* Like every program of ours, -h/--help and --version; anything else that
 * is not one of the three forms is one error line, exit 2.  Without stdio:
 * nothing of it runs between fork and exec. */
static int answer(int fd, const char *text, int code)
{
	ssize_t w = write(fd, text, strlen(text));
	(void)w; /* the exit code says it either way */
	return code;
}

int main(int argc, char **argv)
{
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		return answer(1, "usage: sc-init REPORT_FD [--keep-output] -- CMD ARG...\n"
		                 "       sc-init REPORT_FD --self-test NS=INODE...\n"
		                 "       sc-init --host UID GID REPORT_FD [--max-procs N] [--seccomp-fd FD] -- BWRAP ARG...\n"
		                 "The sandbox's PID 1 and the host step before bwrap, started by\n"
		                 "sc-sandbox-exec; see sc-sandbox-exec(1), THE SANDBOX.\n", 0);
	if (argc == 2 && strcmp(argv[1], "--version") == 0)
		return answer(1, "sc-init " SC_VERSION "\n", 0);
	if (argc > 1 && strcmp(argv[1], "--host") == 0)
		return host_step(argc, argv);
	if (argc < 3 || sscanf(argv[1], "%d", &report_fd) != 1 || report_fd < 3)
		return answer(2, "sc-init: error: usage: sc-init REPORT_FD -- CMD ARG...; see sc-init "
		                 "--help (argv)\n", 2);
	/* Non-dumpable: sandboxed code (same uid, no capabilities) cannot
	 * ptrace us or open /proc/1/fd/REPORT_FD. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0) {
		say_str(SC_INIT_FAILED, "cannot make PID 1 non-dumpable (prctl)");
		return 125;
	}
	int keep_output = strcmp(argv[2], "--keep-output") == 0;
	if (keep_output)
		argv++, argc--;
	if (candidate_descriptors(keep_output) < 0) {
		say_str(SC_INIT_FAILED, "cannot set up the candidate's descriptors");
		return 125;
	}
	if (strcmp(argv[2], "--self-test") == 0)
		return self_test(argc - 3, argv + 3);
	if (strcmp(argv[2], "--") != 0 || argc < 4) {
		say_str(SC_INIT_FAILED, "usage");
		return 2;
	}
	return run(argv + 3);
}
