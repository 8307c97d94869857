/* sc-sandbox-exec: run one command sealed in bubblewrap, timed from the
 * host by GNU time.  See man/sc-sandbox-exec.1 for the contract. */
#include "util/closeout.h"
#include "util/badopt.h"
#include "util/die.h"
#include "util/execdir.h"
#include "paths.h"
#include "util/json.h"
#include "util/pathcheck.h"
#include "sandbox/bwrap_pin.h"
#include "sandbox/hostfile.h"
#include "sandbox/initproto.h"
#include "sandbox/precond.h"
#include "util/run.h"
#include "util/safefile.h"
#include "report/sample.h"
#include "sandbox/sandbox_args.h"
#include "sandbox/sandbox_run.h"
#include "sandbox/gnutime.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "sandbox/timefile.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_BWRAP "/usr/bin/bwrap"
#define MAX_TIMEOUT_S 86400.0

static const char usage_line[] =
	"usage: sc-sandbox-exec --tree DIR --toolchain DIR --dependencies DIR --time-file FILE "
	"--timeout SECONDS [--log FILE] [--sandbox-user USER|UID:GID] [--tmp-size BYTES] [--bwrap PATH] -- CMD ARG... | "
	"--self-test [--sandbox-user USER|UID:GID] [--tmp-size BYTES] [--bwrap PATH] | "
	"--check-bwrap SHA256 VERSION [--bwrap PATH]";

/* First line of the wrapper's own messages (GNU time, bwrap), for errors. */
static const char *first_line(const struct strbuf *sb)
{
	static char line[512];
	const char *s = sb->buf;
	size_t n = strcspn(s, "\n");
	snprintf(line, sizeof line, "%.*s", (int)(n < 511 ? n : 511), s);
	return line[0] ? line : NULL;
}

static char *resolve_bwrap(const char *path)
{
	char *real = realpath(path, NULL);
	if (!real || !sc_is_executable_file(real))
		sc_die_errno("bubblewrap is not an executable file (%s)", path);
	return real;
}

static void check_gnu_time(void)
{
	if (sc_gnu_time_check_binary() < 0)
		sc_die("GNU time is required: %s (%s)",
		       errno == ENOEXEC ? "this is not GNU time" : strerror(errno), SC_GNU_TIME);
}

/* sc-init beside us (build tree), in ../libexec/sphereceti (installed), or
 * in the libexecdir the build was configured with. */
static char *find_init(void)
{
	char *dir = sc_exec_dir();
	const char *cands[] = {"%s/sc-init", "%s/../libexec/sphereceti/sc-init",
	                       SC_LIBEXECDIR "/sphereceti/sc-init%.0s"};
	for (size_t i = 0; i < 3; i++) {
		char *c = xasprintf(cands[i], dir);
		char *real = realpath(c, NULL);
		free(c);
		if (real && sc_is_executable_file(real)) {
			free(dir);
			return real;
		}
		free(real);
	}
	sc_die("the sandbox init sc-init is missing (%s/sc-init, %s/../libexec/sphereceti/sc-init or "
	       SC_LIBEXECDIR "/sphereceti/sc-init)", dir, dir);
}

static char *dir_arg(const char *path, const char *flag)
{
	if (!path)
		sc_die("%s is required (%s)", flag, usage_line);
	char *real = sc_canonical_dir(path);
	if (!real)
		sc_die_errno("%s is not a directory (%s)", flag, path);
	return real;
}

static double timeout_arg(const char *s)
{
	char *end;
	errno = 0;
	double v = s ? strtod(s, &end) : NAN;
	if (!s || errno || end == s || *end || !isfinite(v) || v <= 0 || v > MAX_TIMEOUT_S)
		sc_die("--timeout must be a number of seconds in (0, %.0f] (%s)", MAX_TIMEOUT_S,
		       s ? s : "missing");
	return v;
}

/* bwrap mounts the dependencies at TREE/.lake/packages: sandboxed code of
 * an earlier run could have made either a symlink. */
static void check_mountpoint(const char *tree)
{
	const char *rel[] = {".lake", ".lake/packages"};
	for (int i = 0; i < 2; i++) {
		char *p = xasprintf("%s/%s", tree, rel[i]);
		struct stat st;
		if (lstat(p, &st) == 0 && !S_ISDIR(st.st_mode))
			sc_die("the tree's %s is not a plain directory (%s)", rel[i], p);
		free(p);
	}
}

/* bwrap runs as the sandbox user: a folder it cannot reach is named here,
 * not as bwrap's "Can't find source path". */
static void check_reachable(const struct sc_sandbox *sb, const char *path, const char *what)
{
	struct strbuf err = STRBUF_INIT;
	if (geteuid() == 0 && sc_sandbox_can_reach(path, sb->uid, sb->gid, &err) < 0)
		sc_die("%s (%s)", err.buf, what);
	sb_release(&err);
}

static void print_status(const struct sc_status *st)
{
	struct strbuf out = STRBUF_INIT;
	sc_status_to_json(st, &out);
	if (sc_write_all(1, out.buf, out.len) < 0)
		sc_die_errno("cannot write the status line (stdout)");
	sb_release(&out);
}

/* Make sure 0, 1, 2 are open, so no pipe of ours lands there. */
static void sane_stdio(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
			sc_die_errno("cannot open /dev/null (fd %d)", fd);
}

static _Noreturn void reraise(int sig)
{
	signal(sig, SIG_DFL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig);
}

static int run_command(struct sc_sandbox sb, char **argv, const char *tree_in, const char *tc_in,
                       const char *deps_in, const char *time_in, const char *timeout_in,
                       const char *log_in)
{
	const char *bwrap = sb.bwrap;
	double timeout = timeout_arg(timeout_in);
	if (!time_in)
		sc_die("--time-file is required (%s)", usage_line);
	char *tree = dir_arg(tree_in, "--tree");
	char *tc = dir_arg(tc_in, "--toolchain");
	char *deps = dir_arg(deps_in, "--dependencies");
	if (!argv[0])
		sc_die("no command given after -- (%s)", usage_line);
	const char *names[] = {"--tree", "--toolchain", "--dependencies"};
	const char *dirs[] = {tree, tc, deps};
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (sc_paths_overlap(dirs[i], dirs[j]))
				sc_die("%s and %s overlap (%s, %s)", names[i], names[j], dirs[i], dirs[j]);
	char *time_file = sc_host_file(time_in, "time file", dirs, names);
	char *log = log_in ? sc_host_file(log_in, "log", dirs, names) : NULL;
	sb.keep_output = log != NULL;
	char *init = find_init();
	if (sc_path_within(init, tree) || sc_path_within(init, deps))
		sc_die("sc-init lies inside a sandbox mount (%s)", init);
	check_mountpoint(tree);
	check_gnu_time();
	const char *whats[] = {"--tree", "--toolchain", "--dependencies", "sc-init"};
	char *init_dir = xstrdup(init);
	*strrchr(init_dir, '/') = '\0';
	const char *reach[] = {tree, tc, deps, init_dir};
	for (int i = 0; i < 4; i++)
		check_reachable(&sb, reach[i], whats[i]);
	free(init_dir);

	/* GNU time writes a temporary beside the final name; only a complete
	 * run renames it into place.  From here a stop signal waits for the
	 * run loop, which removes the temporary. */
	sc_sandbox_hold_stop_signals();
	char *tmp = sc_time_file_begin(time_file);

	sb.init = init, sb.tree = tree, sb.toolchain = tc, sb.deps = deps;
	struct sc_argv init_args = SC_ARGV_INIT;
	if (log)
		sc_argv_push(&init_args, "--keep-output");
	sc_argv_push(&init_args, "--");
	for (char **a = argv; *a; a++)
		sc_argv_push(&init_args, *a);
	struct sc_sandbox_result r;
	if (sc_sandbox_run(&sb, tmp, init_args.v, timeout, &r) < 0) {
		int e = errno;
		sc_time_file_abandon(tmp);
		errno = e;
		sc_die_errno("cannot start the sandbox (%s)", bwrap);
	}
	sc_argv_release(&init_args);
	if (log && !r.interrupted)
		sc_sandbox_write_log(log, &r);
	free(log);
	struct sc_init_report ir;
	sc_init_report_parse(r.report.buf, &ir);
	int keep = 0, rc = SC_EXIT_FAIL;
	struct sc_status st = {.wall_s = r.wall_s};

	if (r.interrupted) {
		sc_time_file_abandon(tmp);
		reraise(r.interrupted);
	}
	if (r.timed_out) {
		st.timed_out = 1;
		st.exit_code = -1;
		st.signal = WIFSIGNALED(r.wrapper_status) ? WTERMSIG(r.wrapper_status) : SIGKILL;
	} else if (!ir.ready) {
		sc_time_file_abandon(tmp);
		const char *why = first_line(&r.output);
		sc_die("the sandbox did not start: %s (%s)",
		       why ? why : sc_describe_status(r.wrapper_status), bwrap);
	} else if (ir.exec_errno) {
		sc_time_file_abandon(tmp);
		sc_die("cannot run the command in the sandbox: %s (%s)", strerror(ir.exec_errno), argv[0]);
	} else if (!ir.has_status) {
		sc_time_file_abandon(tmp);
		sc_die("the sandbox ended without the command's status: %s (%s)",
		       ir.failure[0] ? ir.failure : sc_describe_status(r.wrapper_status), bwrap);
	} else {
		/* bwrap and GNU time pass sc-init's status on unchanged. */
		int expect = ir.signal ? 128 + ir.signal : ir.exit_code;
		if (!WIFEXITED(r.wrapper_status) || WEXITSTATUS(r.wrapper_status) != expect) {
			sc_time_file_abandon(tmp);
			sc_die("the wrapper's status (%s) disagrees with the command's (%d) (%s)",
			       sc_describe_status(r.wrapper_status), expect, SC_GNU_TIME);
		}
		st.exit_code = ir.exit_code;
		st.signal = ir.signal;
		keep = 1;
		rc = ir.exit_code == 0 && !ir.signal ? SC_EXIT_OK : SC_EXIT_FAIL;
	}
	if (keep) {
		sc_time_file_commit(tmp, time_file);
	} else {
		unlink(tmp);
	}
	print_status(&st);
	sc_sandbox_result_release(&r);
	free(tmp);
	free(time_file);
	free(init);
	free(tree);
	free(tc);
	free(deps);
	return rc;
}

/* ---- --self-test ---- */

/* The sandbox user must reach and write the self-test's folders. */
static void hand_over(const char *p, const struct sc_sandbox *sb)
{
	if (geteuid() == 0 && lchown(p, sb->uid, sb->gid) < 0)
		sc_die_errno("cannot hand a self-test folder to the sandbox user (%s)", p);
}

static char *mkdir_in(const char *base, const char *name, const struct sc_sandbox *sb)
{
	char *p = xasprintf("%s/%s", base, name);
	if (mkdir(p, 0700) < 0)
		sc_die_errno("cannot create a self-test folder (%s)", p);
	hand_over(p, sb);
	return p;
}

static void remove_quietly(const char *base, const char *const *rel)
{
	for (const char *const *p = rel; *p; p++) {
		char *path = xasprintf("%s/%s", base, *p);
		if (unlink(path) < 0)
			rmdir(path);
		free(path);
	}
	rmdir(base);
}

static int self_test(struct sc_sandbox sb)
{
	const char *bwrap = sb.bwrap;
	check_gnu_time();
	char *init = find_init();
	/* A stop signal waits for the run loop; the folder is removed before
	 * we die of it. */
	sc_sandbox_hold_stop_signals();
	const char *tmpdir = getenv("TMPDIR");
	tmpdir = tmpdir && *tmpdir == '/' ? tmpdir : "/tmp";
	check_reachable(&sb, tmpdir, "the self-test's folder, in TMPDIR");
	char *base = xasprintf("%s/sc-self-test-XXXXXX", tmpdir);
	if (!mkdtemp(base))
		sc_die_errno("cannot create a self-test folder (%s)", base);
	hand_over(base, &sb);
	char *tree = mkdir_in(base, "tree", &sb), *tc = mkdir_in(base, "toolchain", &sb),
	     *deps = mkdir_in(base, "deps", &sb);
	char *time_file = xasprintf("%s/time", base);

	/* Our own namespaces: the sandbox must have different ones. */
	static const char *const ns[] = {"pid", "net", "mnt", "ipc", "uts", NULL};
	struct sc_argv args = SC_ARGV_INIT;
	sc_argv_push(&args, "--self-test");
	for (const char *const *n = ns; *n; n++) {
		char *path = xasprintf("/proc/self/ns/%s", *n);
		struct stat st;
		if (stat(path, &st) < 0)
			sc_die_errno("cannot inspect our namespaces (%s)", path);
		free(path);
		sc_argv_push_owned(&args, xasprintf("%s=%llu", *n, (unsigned long long)st.st_ino));
	}
	sb.init = init, sb.tree = tree, sb.toolchain = tc, sb.deps = deps;
	struct sc_sandbox_result r;
	int ran = sc_sandbox_run(&sb, time_file, args.v, 60, &r);
	int e = errno;
	struct strbuf tf_buf = STRBUF_INIT, err = STRBUF_INIT;
	struct sc_timefile tf;
	int tf_ok = ran == 0 && sc_read_file(time_file, &tf_buf, 65536) == 0 &&
	            sc_timefile_parse(tf_buf.buf, tf_buf.len, &tf, &err) == 0;
	static const char *const made[] = {"time", "tree/.lake/packages", "tree/.lake", "tree", "toolchain", "deps", NULL};
	remove_quietly(base, made);
	if (ran < 0) {
		errno = e;
		sc_die_errno("self-test: cannot start the sandbox (%s)", bwrap);
	}
	if (r.interrupted)
		reraise(r.interrupted);
	struct sc_init_report ir;
	sc_init_report_parse(r.report.buf, &ir);
	if (r.timed_out)
		sc_die("self-test: the sandbox did not finish within 60 s (%s)", bwrap);
	if (!ir.ready && !ir.self_test_ok && !ir.failure[0]) {
		const char *why = first_line(&r.output);
		sc_die("self-test: the sandbox did not start: %s (%s)",
		       why ? why : sc_describe_status(r.wrapper_status), bwrap);
	}
	if (!ir.self_test_ok)
		sc_die("self-test: %s (%s)", ir.failure[0] ? ir.failure : "the sandbox check did not finish", bwrap);
	if (!tf_ok)
		sc_die("self-test: GNU time wrote no valid counters: %s (%s)", err.len ? err.buf : "unreadable",
		       time_file);
	/* The sandbox burned 0.2 s in an orphaned grandchild. */
	if (tf.user_s + tf.sys_s < 0.1)
		sc_die("self-test: GNU time counted %.2f s of the 0.2 s an orphan burned: CPU is being lost "
		       "(%s)", tf.user_s + tf.sys_s, bwrap);
	printf("self-test ok: own PID, network, mount, IPC and UTS namespaces; only lo; "
	       "read-only mounts refuse writes; no inherited descriptor; /proc/sys not writable; "
	       "nested user namespaces refused; uid %u, gid %u (never host root); "
	       "orphan CPU counted (%.2f s of 0.20 s)\n",
	       sb.uid, sb.gid, tf.user_s + tf.sys_s);
	sb_release(&tf_buf);
	sb_release(&err);
	sc_argv_release(&args);
	sc_sandbox_result_release(&r);
	free(tree), free(tc), free(deps), free(time_file), free(base), free(init);
	return fflush(stdout) == 0 ? SC_EXIT_OK : SC_EXIT_USAGE;
}

/* ---- --check-bwrap ---- */

/* A bubblewrap update breaks the pin: what the operator does about it. */
int main(int argc, char **argv)
{
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	sane_stdio();
	if (sc_sandbox_no_inherited_descriptors() < 0)
		sc_die_errno("cannot keep our descriptors from the sandbox (close_range)");
	/* Nobody is left to read the status line when whoever started us dies:
	 * SIGTERM then takes the sandbox down like an interrupt. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	enum { O_TREE = 256, O_TC, O_DEPS, O_TIME, O_TIMEOUT, O_BWRAP, O_SELF, O_CHECK, O_USER, O_TMP,
	       O_LOG };
	static const struct option opts[] = {
		{"tree", required_argument, NULL, O_TREE},
		{"toolchain", required_argument, NULL, O_TC},
		{"dependencies", required_argument, NULL, O_DEPS},
		{"time-file", required_argument, NULL, O_TIME},
		{"timeout", required_argument, NULL, O_TIMEOUT},
		{"bwrap", required_argument, NULL, O_BWRAP},
		{"self-test", no_argument, NULL, O_SELF},
		{"check-bwrap", no_argument, NULL, O_CHECK},
		{"sandbox-user", required_argument, NULL, O_USER},
		{"tmp-size", required_argument, NULL, O_TMP},
		{"log", required_argument, NULL, O_LOG},
		{NULL, 0, NULL, 0},
	};
	const char *tree = NULL, *tc = NULL, *deps = NULL, *time_file = NULL, *timeout = NULL;
	const char *user = NULL, *tmp_size = NULL, *log = NULL;
	const char *bwrap_in = DEFAULT_BWRAP;
	int self = 0, check = 0, c;
	const char *pin[2] = {NULL, NULL};
	int npin = 0;
	opterr = 0;
	/* "+": stop at the first non-option, so CMD's own flags stay CMD's;
	 * --check-bwrap's two values are taken wherever they stand. */
	for (;;) {
		c = getopt_long(argc, argv, "+", opts, NULL);
		if (c == -1) {
			if (check && optind < argc && strcmp(argv[optind - 1], "--") != 0) {
				if (npin == 2)
					sc_die("--check-bwrap takes two values, SHA256 and VERSION (%s)", argv[optind]);
				pin[npin++] = argv[optind++];
				continue;
			}
			break;
		}
		const char **slot = NULL;
		switch (c) {
		case O_TREE: slot = &tree; break;
		case O_TC: slot = &tc; break;
		case O_DEPS: slot = &deps; break;
		case O_TIME: slot = &time_file; break;
		case O_TIMEOUT: slot = &timeout; break;
		case O_BWRAP: bwrap_in = optarg; break;
		case O_SELF: self = 1; break;
		case O_CHECK: check = 1; break;
		case O_USER: slot = &user; break;
		case O_TMP: slot = &tmp_size; break;
		case O_LOG: slot = &log; break;
		default:
			sc_die_bad_option(opts, argv[optind - 1]);
		}
		if (slot) {
			if (*slot)
				sc_die("an option is given twice (%s)", usage_line);
			*slot = optarg;
		}
	}
	char *bwrap = resolve_bwrap(bwrap_in);
	int rc;
	if (self + check > 1 || ((self || check) && (tree || tc || deps || time_file || timeout || log)) ||
	    (check && (user || tmp_size)))
		sc_die("--self-test and --check-bwrap stand alone (%s)", usage_line);
	struct sc_sandbox sb = {.bwrap = bwrap};
	struct strbuf err = STRBUF_INIT;
	if (sc_sandbox_user(user, &sb.uid, &sb.gid, &err) < 0)
		sc_die("%s", err.buf);
	sb.tmp_size = SC_SANDBOX_TMP_DEFAULT;
	if (tmp_size && sc_sandbox_tmp_size(tmp_size, &sb.tmp_size) < 0)
		sc_die("--tmp-size wants bytes (K, M, G suffixes allowed), at least 1M (%s)", tmp_size);
	if (check) {
		if (npin != 2 || optind != argc)
			sc_die("--check-bwrap needs SHA256 and VERSION (%s)", usage_line);
		rc = sc_bwrap_pin_check(bwrap, pin[0], pin[1]);
	} else if (self) {
		if (optind != argc)
			sc_die("--self-test takes no arguments (%s)", argv[optind]);
		rc = self_test(sb);
	} else {
		if (optind >= argc || strcmp(argv[optind - 1], "--") != 0)
			sc_die("the command must follow -- (%s)", usage_line);
		rc = run_command(sb, argv + optind, tree, tc, deps, time_file, timeout, log);
	}
	free(bwrap);
	return rc;
}
