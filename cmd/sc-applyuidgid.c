/* sc-applyuidgid: the host step between GNU time and bwrap, a chain-loading
 * program in the manner of s6-applyuidgid: change this process, exec the
 * rest.
 *
 *   sc-applyuidgid --uid UID --gid GID [--max-procs N] [--max-files N] [--keep-fd FD]...
 *                  -- PROG ARG...
 *
 * In order: close every descriptor but 0-2 and each --keep-fd (GNU time's
 * -o file among them, through which a candidate once forged its own
 * counters; the report pipe and the seccomp filter bwrap reads are kept),
 * drop to UID:GID with no supplementary group when root (and check that
 * root cannot be regained), bound that user's processes (RLIMIT_NPROC,
 * which the user namespace bwrap makes inherits as its ceiling), bound
 * each process's open files (a hard RLIMIT_NOFILE: with the process limit
 * it keeps the kernel's file table the host's) and forbid core dumps (a
 * hard RLIMIT_CORE of 0: where core_pattern is a pipe, every crash would
 * start the host's helper as root), join a new, empty session keyring
 * (keyrings are not namespaced: the operator's would be the candidate's),
 * then exec PROG.  Documentation/threat-model.txt "Kernel-wide pools".
 *
 * Static and standalone like sc-init: nothing between GNU time and bwrap
 * loads a library or reads a file.  A bad call is one error line, exit 2;
 * a step that fails, exit 3: PROG never starts half-changed. */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <linux/keyctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/decimal.h"
#include "util/die.h"
#include "util/fdkeep.h"
#include "version.h"

#define USAGE \
	"usage: sc-applyuidgid --uid UID --gid GID [--max-procs N] [--max-files N] [--keep-fd FD]... " \
	"-- PROG ARG..."
#define KEEP_MAX 8

struct step {
	unsigned uid, gid, max_procs, max_files;
	int keep[KEEP_MAX], nkeep;
	char **prog;
};

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
		    strcmp(o, "--max-files") && strcmp(o, "--keep-fd"))
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
		else if (strcmp(o, "--keep-fd") == 0)
			add_keep(st, v);
	}
	if (!st->uid || !st->gid)
		sc_die("--uid and --gid are required; " USAGE " (argv)");
	if (i >= argc || i + 1 >= argc)
		sc_die("no program after --; " USAGE " (argv)");
	st->prog = argv + i + 1;
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-applyuidgid");
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		static const char help[] = USAGE "\nThe host step between GNU time and bwrap, started by\n"
		                           "sc-sandbox-exec; see sc-sandbox-exec(1).\n";
		return write(1, help, sizeof help - 1) < 0 ? 3 : 0;
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		static const char version[] = "sc-applyuidgid " SC_VERSION "\n";
		return write(1, version, sizeof version - 1) < 0 ? 3 : 0;
	}
	struct step st = {0};
	parse(argc, argv, &st);
	if (sc_close_all_but(st.keep, st.nkeep) < 0)
		sc_die_sys_errno("cannot close inherited descriptors (close_range)");
	drop_to(st.uid, st.gid);
	struct rlimit nproc = {st.max_procs, st.max_procs};
	if (st.max_procs && setrlimit(RLIMIT_NPROC, &nproc) < 0)
		sc_die_sys_errno("cannot bound the sandbox user's processes (RLIMIT_NPROC)");
	bound_files_and_cores(st.max_files);
	new_session_keyring();
	execv(st.prog[0], st.prog);
	sc_die_sys_errno("cannot run the program (%s)", st.prog[0]);
}
