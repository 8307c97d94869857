#include "sandbox/sandbox_args.h"
#include "util/strbuf.h"
#include "contract/timefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The root-level entries of /usr-based systems: on a merged-/usr host
 * they are symlinks and stay symlinks; otherwise the directory itself is
 * bound read-only. */
static const char *const usr_links[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", NULL};

static void root_dirs(struct sc_argv *a)
{
	for (const char *const *p = usr_links; *p; p++) {
		struct stat st;
		if (lstat(*p, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(*p, target, sizeof target - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			sc_argv_push(a, "--symlink");
			sc_argv_push_owned(a, xstrdup(target));
			sc_argv_push(a, *p);
		} else if (S_ISDIR(st.st_mode)) {
			sc_argv_push(a, "--ro-bind");
			sc_argv_push(a, *p);
			sc_argv_push(a, *p);
		}
	}
}

/* /proc as runc masks it (its default spec): these read-only ... */
static const char *const proc_read_only[] = {"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
                                             "/proc/sysrq-trigger", NULL};
/* ... and these hidden (files behind /dev/null, folders behind an empty
 * read-only tmpfs), each where this kernel has it: bwrap cannot mount over
 * an entry that does not exist. */
static const char *const proc_masked[] = {"/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys",
                                          "/proc/latency_stats", "/proc/timer_list",
                                          "/proc/timer_stats", "/proc/sched_debug", "/proc/scsi",
                                          NULL};

static void push3(struct sc_argv *a, const char *x, const char *y, const char *z)
{
	sc_argv_push(a, x);
	sc_argv_push(a, y);
	sc_argv_push(a, z);
}

/* The sandbox's /proc is its own PID namespace's; the bind sources are the
 * host's entries of the same kernel (sysctls answer for the reader's
 * namespaces, not the mount's). */
static void proc_masks(struct sc_argv *a)
{
	struct stat st;
	for (const char *const *p = proc_read_only; *p; p++)
		if (lstat(*p, &st) == 0)
			push3(a, "--ro-bind", *p, *p);
	for (const char *const *p = proc_masked; *p; p++) {
		if (lstat(*p, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			sc_argv_push(a, "--tmpfs");
			sc_argv_push(a, *p);
			sc_argv_push(a, "--remount-ro");
			sc_argv_push(a, *p);
		} else {
			/* as runc does: a plain bind (a read-only one costs a
			 * remount per entry; /dev/null on a nodev mount reads
			 * and writes nothing) */
			push3(a, "--bind", "/dev/null", *p);
		}
	}
}

/* Lake's artifact cache (Config/Env.lean Env.compute; Config/Workspace.lean
 * enableArtifactCache; README "The sandbox's Lake environment").  Set
 * explicitly: an empty value counts as unspecified, and then reads default
 * to on.  Without --cache: off, and LAKE_CACHE_DIR a folder of this sandbox
 * alone (its private /tmp; unset, Lake would fall back to the toolchain's
 * or the home's cache).  With --cache: the operator's cache read-only at
 * SC_SANDBOX_LAKE_CACHE, LAKE_ARTIFACT_CACHE left unset so that reads
 * default to on and writes to off (Config/Monad.lean
 * isArtifactCacheReadable / isArtifactCacheWritable), and restored
 * artifacts copied into the tree's .lake/build (LAKE_RESTORE_ARTIFACTS,
 * Lean >= 4.31), where `lake lean` finds them. */
static void lake_cache(const struct sc_sandbox *sb, struct sc_argv *a)
{
	if (!sb->lake_cache) {
		push3(a, "--setenv", "LAKE_ARTIFACT_CACHE", "false");
		push3(a, "--setenv", "LAKE_RESTORE_ARTIFACTS", "false");
		push3(a, "--setenv", "LAKE_CACHE_DIR", SC_SANDBOX_OWN_CACHE);
		return;
	}
	push3(a, "--ro-bind", sb->lake_cache, SC_SANDBOX_LAKE_CACHE);
	push3(a, "--setenv", "LAKE_RESTORE_ARTIFACTS", "true");
	push3(a, "--setenv", "LAKE_CACHE_DIR", SC_SANDBOX_LAKE_CACHE);
}

/* Between GNU time and bwrap, on the host: sc-confine closes every
 * descriptor but 0-2, the report pipe and the seccomp filter (GNU time's -o
 * file among them), drops to the sandbox user, bounds its processes and
 * joins a new session keyring, then execs bwrap. */
static void host_step(const struct sc_sandbox *sb, struct sc_argv *a)
{
	sc_argv_push(a, sb->host_step);
	sc_argv_push(a, "--uid");
	sc_argv_push_owned(a, xasprintf("%u", sb->uid));
	sc_argv_push(a, "--gid");
	sc_argv_push_owned(a, xasprintf("%u", sb->gid));
	sc_argv_push(a, "--max-procs");
	sc_argv_push_owned(a, xasprintf("%u", sb->max_procs ? sb->max_procs : SC_SANDBOX_MAX_PROCS_DEFAULT));
	unsigned long long tmp = sb->tmp_size ? sb->tmp_size : SC_SANDBOX_TMP_DEFAULT;
	sc_argv_push(a, "--tmpfs-size");
	sc_argv_push_owned(a, xasprintf("%llu", tmp));
	sc_argv_push(a, "--tmpfs-inodes");
	sc_argv_push_owned(a, xasprintf("%u", sc_sandbox_tmp_inodes(tmp)));
	if (sb->max_files) {
		sc_argv_push(a, "--max-files");
		sc_argv_push_owned(a, xasprintf("%u", sb->max_files));
	}
	sc_argv_push(a, "--keep-fd");
	sc_argv_push_owned(a, xasprintf("%d", sb->report_fd));
	if (sb->seccomp_fd > 2) {
		sc_argv_push(a, "--keep-fd");
		sc_argv_push_owned(a, xasprintf("%d", sb->seccomp_fd));
	}
	sc_argv_push(a, "--");
}

static void remount_ro(struct sc_argv *a, const char *path)
{
	sc_argv_push(a, "--remount-ro");
	sc_argv_push(a, path);
}

/* Every tmpfs the candidate can write is bounded by --tmp-size, in bytes
 * and in inodes: /tmp and /dev/shm are the host step's (bwrap's --tmpfs
 * bounds no inode), bound from SC_SANDBOX_SCRATCH; /dev and bwrap's root,
 * sized at half the host's RAM, are remounted read-only (this one after
 * /dev/shm is mounted in it, / after the last mount point is made there).
 * tmpfs pages and inodes are charged to no process. */
static void bounded_tmpfs(struct sc_argv *a, const char *scratch, const char *path)
{
	push3(a, "--bind", scratch, path);
}

/* The tree read-only, its .lake (the build folder) read-write on top, and
 * what the host sealed there (Lake's compiled configuration, made by the
 * preflight from T's files) read-only again: candidate code can change
 * neither the sources nor the Lake configuration that is measured.  With
 * lake_read_only .lake is read-only too: a sample that must leave nothing
 * for the next one (Documentation/measurement.txt "Confirmation"). */
static void tree_binds(const struct sc_sandbox *sb, struct sc_argv *a)
{
	push3(a, "--ro-bind", sb->tree, SC_SANDBOX_PROJECT);
	sc_argv_push(a, sb->lake_read_only ? "--ro-bind" : "--bind");
	sc_argv_push_owned(a, xasprintf("%s/" SC_SANDBOX_LAKE, sb->tree));
	sc_argv_push(a, SC_SANDBOX_PROJECT "/" SC_SANDBOX_LAKE);
	for (const char *const *p = sb->sealed; p && *p; p++) {
		sc_argv_push(a, "--ro-bind");
		sc_argv_push_owned(a, xasprintf("%s/%s", sb->tree, *p));
		sc_argv_push_owned(a, xasprintf(SC_SANDBOX_PROJECT "/%s", *p));
	}
}

void sc_sandbox_bwrap_argv(const struct sc_sandbox *sb, struct sc_argv *a)
{
	static const char *const fixed[] = {
		/* every namespace (no network), a user namespace even for a
		 * non-root operator and none nested inside (a nested PID
		 * namespace's members are autoreaped: their CPU would never
		 * reach GNU time), no capabilities, gone when the host wrapper
		 * goes, no controlling terminal */
		"--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
		"--die-with-parent", "--new-session",
		/* our sc-pid1 is PID 1: bwrap's own monitor would hide the
		 * candidate's CPU from GNU time */
		"--as-pid-1",
		"--clearenv", "--setenv", "PATH", SC_SANDBOX_PATH, "--setenv", "HOME", SC_SANDBOX_HOME,
		/* Lake runs git in every dependency, owned by another uid than
		 * the sandbox's: without safe.directory git says "dubious
		 * ownership"; that owner and a ctime git never recorded would
		 * make every `git diff` re-hash every tracked file (checkStat,
		 * trustctime) */
		"--setenv", "GIT_CONFIG_COUNT", "3", "--setenv", "GIT_CONFIG_KEY_0", "safe.directory",
		"--setenv", "GIT_CONFIG_VALUE_0", "*",
		"--setenv", "GIT_CONFIG_KEY_1", "core.checkStat", "--setenv", "GIT_CONFIG_VALUE_1", "minimal",
		"--setenv", "GIT_CONFIG_KEY_2", "core.trustctime", "--setenv", "GIT_CONFIG_VALUE_2", "false",
		/* Lake (Config/Env.lean Env.compute): no release-cache downloads
		 * (git and curl inside timed samples otherwise) */
		"--setenv", "LAKE_NO_CACHE", "1",
		"--ro-bind", "/usr", "/usr", NULL};
	host_step(sb, a);
	sc_argv_push(a, sb->bwrap);
	for (const char *const *p = fixed; *p; p++)
		sc_argv_push(a, *p);
	root_dirs(a);
	/* the loader's cache only: dynamically linked toolchains resolve
	 * libraries as on the host; nothing else of /etc */
	push3(a, "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache");
	sc_argv_push(a, "--proc");
	sc_argv_push(a, "/proc");
	proc_masks(a);
	sc_argv_push(a, "--dev");
	sc_argv_push(a, "/dev");
	bounded_tmpfs(a, SC_SANDBOX_SCRATCH_SHM, "/dev/shm");
	/* no pseudo-terminal: they are a kernel-wide pool (kernel.pty.max);
	 * an empty, read-only /dev/pts leaves /dev/ptmx pointing at nothing */
	sc_argv_push(a, "--perms");
	sc_argv_push(a, "0555");
	sc_argv_push(a, "--size");
	sc_argv_push(a, "4096");
	sc_argv_push(a, "--tmpfs");
	sc_argv_push(a, "/dev/pts");
	remount_ro(a, "/dev/pts");
	remount_ro(a, "/dev");
	/* private /tmp (lake lean writes its --setup file there) */
	bounded_tmpfs(a, SC_SANDBOX_SCRATCH_TMP, "/tmp");
	sc_argv_push(a, "--dir");
	sc_argv_push(a, SC_SANDBOX_HOME);
	push3(a, "--ro-bind", sb->toolchain, SC_SANDBOX_TOOLCHAIN);
	tree_binds(sb, a);
	push3(a, "--ro-bind", sb->deps, SC_SANDBOX_DEPS);
	push3(a, "--ro-bind", sb->init, SC_SANDBOX_INIT);
	if (sb->probe)
		push3(a, "--ro-bind", sb->probe, SC_SANDBOX_PROBE);
	lake_cache(sb, a);
	remount_ro(a, "/");
	if (sb->seccomp_fd > 2) {
		/* installed by bwrap right before it execs sc-pid1 */
		sc_argv_push(a, "--seccomp");
		sc_argv_push_owned(a, xasprintf("%d", sb->seccomp_fd));
	}
	sc_argv_push(a, "--chdir");
	sc_argv_push(a, SC_SANDBOX_PROJECT);
	sc_argv_push(a, "--");
	sc_argv_push(a, SC_SANDBOX_INIT);
	sc_argv_push_owned(a, xasprintf("%d", sb->report_fd));
}

void sc_sandbox_time_argv(const char *time_file, struct sc_argv *a)
{
	sc_argv_push(a, SC_GNU_TIME);
	sc_argv_push(a, "-o");
	sc_argv_push(a, time_file);
	sc_argv_push(a, "-f");
	sc_argv_push(a, SC_TIME_FORMAT);
}
