#include "sandbox/selftest.h"
#include "sandbox/hostcheck.h"
#include "sandbox/initreport.h"
#include "sandbox/outcome.h"
#include "util/argv.h"
#include "util/die.h"
#include "util/spawn.h"
#include "util/safefile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The self-test's scratch folders, handed to the sandbox user. */
struct scratch {
	char *base, *tree, *toolchain, *deps, *time_file;
};

static void hand_over(const char *p, const struct sc_sandbox *sb)
{
	if (geteuid() == 0 && lchown(p, sb->uid, sb->gid) < 0)
		sc_die_sys_errno("cannot hand a self-test folder to the sandbox user (%s)", p);
}

static char *mkdir_in(const char *base, const char *name, const struct sc_sandbox *sb)
{
	char *p = xasprintf("%s/%s", base, name);
	if (mkdir(p, 0700) < 0)
		sc_die_path_errno("cannot create a self-test folder (%s)", p);
	hand_over(p, sb);
	return p;
}

/* In TMPDIR (absolute) or /tmp, which the sandbox user must reach. */
static void scratch_make(struct scratch *s, const struct sc_sandbox *sb)
{
	const char *tmpdir = getenv("TMPDIR");
	tmpdir = tmpdir && *tmpdir == '/' ? tmpdir : "/tmp";
	sc_sandbox_check_reachable(sb, tmpdir, "the self-test's folder, in TMPDIR");
	s->base = xasprintf("%s/sc-self-test-XXXXXX", tmpdir);
	if (!mkdtemp(s->base))
		sc_die_path_errno("cannot create a self-test folder (%s)", s->base);
	hand_over(s->base, sb);
	s->tree = mkdir_in(s->base, "tree", sb);
	free(mkdir_in(s->base, "tree/" SC_SANDBOX_LAKE, sb)); /* the tree's one writable folder */
	s->toolchain = mkdir_in(s->base, "toolchain", sb);
	s->deps = mkdir_in(s->base, "deps", sb);
	s->time_file = xasprintf("%s/time", s->base);
}

static void scratch_remove(struct scratch *s)
{
	static const char *const made[] = {"time", "tree/.lake/packages", "tree/.lake", "tree",
	                                   "toolchain", "deps", NULL};
	for (const char *const *p = made; *p; p++) {
		char *path = xasprintf("%s/%s", s->base, *p);
		if (unlink(path) < 0)
			rmdir(path);
		free(path);
	}
	rmdir(s->base);
	free(s->tree), free(s->toolchain), free(s->deps), free(s->base);
}

/* "--keep-output -- /sc-sandbox-probe pid=INODE ...": the probe runs as a
 * candidate of a --log run does, and says on its stdout whether our own
 * namespaces, which the sandbox's must differ from, and everything else
 * a candidate must see, hold. */
static void self_test_args(struct sc_argv *args)
{
	static const char *const ns[] = {"pid", "net", "mnt", "ipc", "uts", NULL};
	sc_argv_push(args, "--keep-output");
	sc_argv_push(args, "--");
	sc_argv_push(args, SC_SANDBOX_PROBE);
	for (const char *const *n = ns; *n; n++) {
		char *path = xasprintf("/proc/self/ns/%s", *n);
		struct stat st;
		if (stat(path, &st) < 0)
			sc_die_sys_errno("cannot inspect our namespaces (%s)", path);
		free(path);
		sc_argv_push_owned(args, xasprintf("%s=%llu", *n, (unsigned long long)st.st_ino));
	}
}

enum sc_exit sc_selftest_verdict(const struct sc_sandbox_result *r, const struct sc_timefile *tf,
                        const char *tf_err, const char *bwrap, const char *time_file,
                        struct strbuf *why)
{
	struct sc_init_report ir, probe;
	sc_init_report_parse(r->report.buf, &ir);
	sc_init_report_parse(r->output.buf, &probe);
	int probe_ok = probe.self_test_ok && ir.has_status && ir.exit_code == 0;
	const char *failure = probe.failure[0] ? probe.failure : ir.failure;
	if (r->timed_out) {
		sb_addf(why, "self-test: the sandbox did not finish within %d s (%s)", SC_SELFTEST_TIMEOUT_S,
		        bwrap);
	} else if (!ir.ready && !ir.failure[0]) {
		sb_adds(why, "self-test: ");
		sc_outcome_why_not_started(r, bwrap, why);
	} else if (!probe_ok) {
		if (ir.exec_errno)
			sb_addf(why, "self-test: cannot run the probe %s: %s (%s)", SC_SANDBOX_PROBE,
			        strerror(ir.exec_errno), bwrap);
		else if (*failure)
			sb_addf(why, "self-test: %s (%s)", failure, bwrap);
		else if (!ir.has_status)
			sb_addf(why, "self-test: the sandbox check did not finish (%s)", bwrap);
		else
			sb_addf(why, "self-test: the sandbox check did not finish: the probe ended with %s %d (%s)",
			        ir.signal ? "signal" : "exit", ir.signal ? ir.signal : ir.exit_code, bwrap);
	} else if (*tf_err) {
		sb_addf(why, "self-test: GNU time wrote no valid counters: %s (%s)", tf_err, time_file);
	} else if (tf->user_s + tf->sys_s < SC_SELFTEST_MIN_CPU_S) {
		sb_addf(why, "self-test: GNU time counted %.2f s of the 0.2 s an orphan burned: CPU is being "
		        "lost (%s)", tf->user_s + tf->sys_s, bwrap);
	} else if (r->task_clock_errno == 0 && r->task_clock_s < SC_SELFTEST_MIN_CLOCK_S) {
		sb_addf(why, "self-test: the task clock counted %.2f s of the 0.3 s an orphan and an "
		        "autoreaped child burned: CPU is being lost (perf_event_open)", r->task_clock_s);
	} else {
		return SC_EXIT_OK;
	}
	/* The self-test is the precondition "this host holds the sandbox": a
	 * host that does not is the operator's to fix (2), as a missing GNU
	 * time is; only a self-test that ran out of time may be the machine's
	 * load of the moment (3). */
	return r->timed_out ? SC_EXIT_SYSTEM : SC_EXIT_USAGE;
}

/* The time file the run left, parsed; *err empty when it is valid. */
static void read_counters(const char *time_file, struct sc_timefile *tf, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	memset(tf, 0, sizeof *tf);
	if (sc_read_file(time_file, &buf, 65536) < 0)
		sb_adds(err, "unreadable");
	else if (sc_timefile_parse(buf.buf, buf.len, tf, err) < 0 && !err->len)
		sb_adds(err, "unreadable");
	sb_release(&buf);
}

static void report_ok(const struct sc_sandbox *sb, double cpu_s, const struct sc_sandbox_result *r)
{
	struct strbuf line = STRBUF_INIT;
	sb_addf(&line, "self-test ok: own PID, network, mount, IPC and UTS namespaces; only lo; "
	        "read-only mounts refuse writes; no inherited descriptor; /proc/sys not writable; "
	        "nested user namespaces refused; seccomp filter on, keyrings refused; / and /dev "
	        "read-only; uid %u, gid %u (never host root); "
	        "orphan CPU counted (%.2f s of 0.20 s); ", sb->uid, sb->gid, cpu_s);
	if (r->task_clock_errno == 0)
		sb_addf(&line, "task clock counted an autoreaped child (%.2f s of 0.30 s, rusage %.2f s)\n",
		        r->task_clock_s, cpu_s);
	else
		sb_addf(&line, "no task clock (perf_event_open: %s): an autoreaped child's CPU is not "
		        "counted\n", strerror(r->task_clock_errno));
	if (sc_write_all(1, line.buf, line.len) < 0)
		sc_die_sys_errno("cannot write the self-test's result (stdout)");
	sb_release(&line);
}

int sc_selftest_run(struct sc_sandbox sb, const char *libexecdir)
{
	sc_sandbox_check_gnu_time();
	char *init = sc_sandbox_find_init(libexecdir);
	char *host_step = sc_sandbox_beside_init(init, "sc-confine");
	char *probe = sc_sandbox_beside_init(init, "sc-sandbox-probe");
	/* A stop signal waits for the run loop; the folder is removed before
	 * we die of it. */
	sc_sandbox_hold_stop_signals();
	struct scratch s;
	scratch_make(&s, &sb);
	struct sc_argv args = SC_ARGV_INIT;
	self_test_args(&args);
	sb.init = init, sb.host_step = host_step, sb.probe = probe, sb.keep_output = 1;
	sb.tree = s.tree, sb.toolchain = s.toolchain, sb.deps = s.deps;
	struct sc_sandbox_result r;
	int ran = sc_sandbox_supervise(&sb, s.time_file, args.v, SC_SELFTEST_TIMEOUT_S, &r);
	int e = errno;
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct sc_timefile tf;
	if (ran == 0)
		read_counters(s.time_file, &tf, &err);
	scratch_remove(&s);
	if (ran < 0) {
		errno = e;
		sc_die_sys_errno("self-test: cannot start the sandbox (%s)", sb.bwrap);
	}
	if (r.interrupted)
		sc_sandbox_reraise(r.interrupted);
	int rc = sc_selftest_verdict(&r, &tf, err.buf, sb.bwrap, s.time_file, &why);
	if (rc)
		sc_die_code(rc, "%s", why.buf);
	report_ok(&sb, tf.user_s + tf.sys_s, &r);
	sb_release(&err), sb_release(&why);
	sc_argv_release(&args);
	sc_sandbox_result_release(&r);
	free(s.time_file), free(init), free(host_step), free(probe);
	return SC_EXIT_OK;
}
