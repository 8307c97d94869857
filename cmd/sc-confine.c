/* sc-confine: the host step between GNU time and bwrap, a chain-loading
 * program (change this process, exec the rest) that does more than s6's
 * s6-applyuidgid, its model, and so is not named after it.  Why one
 * program and not a chain of one-job programs: Documentation/sandbox.txt
 * "The host step".
 *
 *   sc-confine --uid UID --gid GID [--max-procs N] [--max-files N]
 *                  [--tmpfs-size BYTES --tmpfs-inodes N] [--keep-fd FD]... -- PROG ARG...
 *
 * In order: close every descriptor but 0-2 and each --keep-fd (GNU time's
 * -o file among them, through which a candidate once forged its own
 * counters; the report pipe and the seccomp filter bwrap reads are kept),
 * make the sandbox's /tmp and /dev/shm when root (two tmpfs bounded in
 * bytes and inodes, in a mount namespace of this chain's own; bwrap binds
 * them), drop to UID:GID with no supplementary group when root (and check
 * that root cannot be regained), bound that user's processes
 * (RLIMIT_NPROC, which each user namespace made after takes as its
 * ceiling), bound each process's open files (a hard RLIMIT_NOFILE: with
 * the process limit it keeps the kernel's file table the host's) and
 * forbid core dumps (a hard RLIMIT_CORE of 0: where core_pattern is a
 * pipe, every crash would start the host's helper as root), make /tmp and
 * /dev/shm when not root (in a user namespace of the operator's own ids),
 * join a new, empty session keyring
 * (keyrings are not namespaced: the operator's would be the candidate's),
 * then exec PROG.  Documentation/threat-model.txt "Kernel-wide pools".
 *
 * Static and standalone like sc-pid1: nothing between GNU time and bwrap
 * loads a library or reads a file.  A bad call is one error line, exit 2;
 * a step that fails, exit 3: PROG never starts half-changed. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/keyctl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "contract/scratch.h"
#include "util/decimal.h"
#include "util/die.h"
#include "util/fdkeep.h"
#include "version.h"

#define USAGE \
	"usage: sc-confine --uid UID --gid GID [--max-procs N] [--max-files N] " \
	"[--tmpfs-size BYTES --tmpfs-inodes N] [--keep-fd FD]... -- PROG ARG..."
#define KEEP_MAX 8

struct step {
	unsigned uid, gid, max_procs, max_files, tmpfs_inodes;
	unsigned long long tmpfs_size;
	int keep[KEEP_MAX], nkeep;
	char **prog;
};

/* Write TEXT to the /proc/self file NAME (a user namespace's id maps). */
static void write_proc(const char *name, const char *text)
{
	int fd = open(name, O_WRONLY | O_CLOEXEC);
	size_t n = strlen(text);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n)
		sc_die_sys_errno("cannot set up the scratch user namespace (%s)", name);
	if (close(fd) < 0)
		sc_die_sys_errno("cannot set up the scratch user namespace (%s)", name);
}

static void mount_tmpfs(const char *where, const char *opts)
{
	if (mount("tmpfs", where, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
		sc_die_sys_errno("cannot mount the sandbox's scratch tmpfs (%s)", where);
}

/* The sandbox's /tmp and /dev/shm: bwrap's --tmpfs bounds bytes but not
 * inodes, and six million empty files use no block yet pin gigabytes of
 * host memory charged to no process.  So they are made here, each bounded
 * in both, over SC_SANDBOX_SCRATCH, in a mount namespace of the chain's
 * own, made private before anything is mounted (the host never sees
 * them), for bwrap to bind.  As root (AS_ROOT: before the drop) the mount
 * namespace is ours to make; any other operator makes it in a user
 * namespace that maps only its own uid and gid, inside which bwrap then
 * makes its own.  Documentation/threat-model.txt "Kernel-wide pools". */
static void scratch(const struct step *st, int as_root)
{
	char opts[96];
	if (as_root) {
		if (unshare(CLONE_NEWNS) < 0)
			sc_die_sys_errno("cannot make the sandbox's scratch mount namespace (unshare)");
	} else {
		uid_t uid = geteuid();
		gid_t gid = getegid();
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			sc_die_sys_errno("cannot make the sandbox's scratch namespaces (unshare)");
		write_proc("/proc/self/setgroups", "deny");
		snprintf(opts, sizeof opts, "%u %u 1", (unsigned)uid, (unsigned)uid);
		write_proc("/proc/self/uid_map", opts);
		snprintf(opts, sizeof opts, "%u %u 1", (unsigned)gid, (unsigned)gid);
		write_proc("/proc/self/gid_map", opts);
	}
	/* nothing mounted here may reach the host's namespace */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		sc_die_sys_errno("cannot make the scratch mount namespace private (/)");
	mount_tmpfs(SC_SANDBOX_SCRATCH, "size=16k,nr_inodes=16,mode=0755");
	snprintf(opts, sizeof opts, "size=%llu,nr_inodes=%u,mode=1777", st->tmpfs_size, st->tmpfs_inodes);
	const char *dirs[] = {SC_SANDBOX_SCRATCH_TMP, SC_SANDBOX_SCRATCH_SHM};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		if (mkdir(dirs[i], 0755) < 0)
			sc_die_sys_errno("cannot make the sandbox's scratch folder (%s)", dirs[i]);
		mount_tmpfs(dirs[i], opts);
	}
}

static void drop_to(unsigned uid, unsigned gid)
{
	if (getuid() == 0 || geteuid() == 0) {
		if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
			sc_die_sys_errno("cannot drop to the sandbox user (%u:%u)", uid, gid);
	}
	uid_t r, e, s;
	gid_t rg, eg, sg;
	if (getresuid(&r, &e, &s) < 0 || getresgid(&rg, &eg, &sg) < 0 || r != uid || e != uid ||
	    s != uid || rg != gid || eg != gid || sg != gid)
		sc_die_sys("not running as the sandbox user (%u:%u)", uid, gid);
	if (setuid(0) == 0)
		sc_die_sys("root could be regained (%u:%u)", uid, gid);
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
		sc_die_sys("cannot join a new session keyring (keyctl)");
}

/* Hard limits the sandbox cannot raise: no core file ever, and at most
 * MAX_FILES open files per process (0: as inherited; never above the
 * inherited hard limit, which an unprivileged process cannot raise). */
static void bound_files_and_cores(unsigned max_files)
{
	struct rlimit none = {0, 0}, nofile;
	if (setrlimit(RLIMIT_CORE, &none) < 0)
		sc_die_sys_errno("cannot forbid core dumps (RLIMIT_CORE)");
	if (!max_files)
		return;
	if (getrlimit(RLIMIT_NOFILE, &nofile) < 0)
		sc_die_sys_errno("cannot read the open-file limit (RLIMIT_NOFILE)");
	if (nofile.rlim_max == RLIM_INFINITY || nofile.rlim_max > max_files)
		nofile.rlim_max = max_files;
	nofile.rlim_cur = nofile.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &nofile) < 0)
		sc_die_sys_errno("cannot bound the open files (RLIMIT_NOFILE)");
}

static unsigned id_arg(const char *opt, const char *v)
{
	unsigned id;
	if (sc_decimal_uint(v, 1, 0xfffffffeu, &id) < 0)
		sc_die("%s wants a number from 1 to 4294967294, never root (%s)", opt, v);
	return id;
}

static void add_keep(struct step *st, const char *v)
{
	int fd;
	if (sc_decimal_int(v, 3, INT_MAX, &fd) < 0)
		sc_die("--keep-fd wants a descriptor number, 3 or more (%s)", v);
	if (st->nkeep == KEEP_MAX)
		sc_die("at most %d --keep-fd (%s)", KEEP_MAX, v);
	int i = st->nkeep++;
	for (; i > 0 && st->keep[i - 1] > fd; i--)
		st->keep[i] = st->keep[i - 1];
	if (i > 0 && st->keep[i - 1] == fd)
		sc_die("--keep-fd names a descriptor twice (%s)", v);
	st->keep[i] = fd;
}

static void parse(int argc, char **argv, struct step *st)
{
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(o, "--uid") && strcmp(o, "--gid") && strcmp(o, "--max-procs") &&
		    strcmp(o, "--max-files") && strcmp(o, "--tmpfs-size") && strcmp(o, "--tmpfs-inodes") &&
		    strcmp(o, "--keep-fd"))
			sc_die("unknown option; " USAGE " (%s)", o);
		if (!v)
			sc_die("%s wants a value (argv)", o);
		if (strcmp(o, "--uid") == 0)
			st->uid = id_arg(o, v);
		else if (strcmp(o, "--gid") == 0)
			st->gid = id_arg(o, v);
		else if (strcmp(o, "--max-procs") == 0 && sc_decimal_uint(v, 1, 0xfffffffeu, &st->max_procs) < 0)
			sc_die("--max-procs wants a positive number (%s)", v);
		else if (strcmp(o, "--max-files") == 0 && sc_decimal_uint(v, 3, 0xfffffffeu, &st->max_files) < 0)
			sc_die("--max-files wants a number, 3 or more (%s)", v);
		else if (strcmp(o, "--tmpfs-size") == 0 &&
		         sc_decimal(v, strlen(v), 1u << 20, 1ull << 40, &st->tmpfs_size) < 0)
			sc_die("--tmpfs-size wants bytes from 1048576 to 2^40 (%s)", v);
		else if (strcmp(o, "--tmpfs-inodes") == 0 &&
		         sc_decimal_uint(v, 64, 0xfffffffeu, &st->tmpfs_inodes) < 0)
			sc_die("--tmpfs-inodes wants a number, 64 or more (%s)", v);
		else if (strcmp(o, "--keep-fd") == 0)
			add_keep(st, v);
	}
	if (!st->tmpfs_size != !st->tmpfs_inodes)
		sc_die("--tmpfs-size and --tmpfs-inodes go together; " USAGE " (argv)");
	if (!st->uid || !st->gid)
		sc_die("--uid and --gid are required; " USAGE " (argv)");
	if (i >= argc || i + 1 >= argc)
		sc_die("no program after --; " USAGE " (argv)");
	st->prog = argv + i + 1;
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-confine");
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		static const char help[] = USAGE "\nThe host step between GNU time and bwrap, started by\n"
		                           "sc-sandbox-exec; see sc-sandbox-exec(1).\n";
		return write(1, help, sizeof help - 1) < 0 ? 3 : 0;
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		static const char version[] = "sc-confine " SC_VERSION "\n";
		return write(1, version, sizeof version - 1) < 0 ? 3 : 0;
	}
	struct step st = {0};
	parse(argc, argv, &st);
	if (sc_close_all_but(st.keep, st.nkeep) < 0)
		sc_die_sys_errno("cannot close inherited descriptors (close_range)");
	int as_root = geteuid() == 0;
	if (st.tmpfs_size && as_root)
		scratch(&st, 1);
	drop_to(st.uid, st.gid);
	struct rlimit nproc = {st.max_procs, st.max_procs};
	if (st.max_procs && setrlimit(RLIMIT_NPROC, &nproc) < 0)
		sc_die_sys_errno("cannot bound the sandbox user's processes (RLIMIT_NPROC)");
	bound_files_and_cores(st.max_files);
	/* after the process bound: a user namespace takes the RLIMIT_NPROC of
	 * its maker as its ceiling */
	if (st.tmpfs_size && !as_root)
		scratch(&st, 0);
	new_session_keyring();
	execv(st.prog[0], st.prog);
	sc_die_sys_errno("cannot run the program (%s)", st.prog[0]);
}
