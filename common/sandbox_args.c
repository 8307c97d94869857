#include "sandbox_args.h"
#include "strbuf.h"
#include "timefile.h"

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

void sc_sandbox_bwrap_argv(const struct sc_sandbox *sb, struct sc_argv *a)
{
	static const char *const fixed[] = {
		/* every namespace (no network), no capabilities even for root,
		 * gone when the host wrapper goes, no controlling terminal */
		"--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--new-session",
		/* our sc-init is PID 1: bwrap's own monitor would hide the
		 * candidate's CPU from GNU time */
		"--as-pid-1",
		"--clearenv", "--setenv", "PATH", SC_SANDBOX_PATH, "--setenv", "HOME", SC_SANDBOX_HOME,
		"--ro-bind", "/usr", "/usr", NULL};
	sc_argv_push(a, sb->bwrap);
	for (const char *const *p = fixed; *p; p++)
		sc_argv_push(a, *p);
	root_dirs(a);
	static const char *const rest[] = {
		/* the loader's cache only: dynamically linked toolchains resolve
		 * libraries as on the host; nothing else of /etc */
		"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
		"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", SC_SANDBOX_HOME, NULL};
	for (const char *const *p = rest; *p; p++)
		sc_argv_push(a, *p);
	const char *binds[][3] = {
		{"--ro-bind", sb->toolchain, SC_SANDBOX_TOOLCHAIN},
		{"--bind", sb->tree, SC_SANDBOX_PROJECT},
		{"--ro-bind", sb->deps, SC_SANDBOX_DEPS},
		{"--ro-bind", sb->init, SC_SANDBOX_INIT},
	};
	for (size_t i = 0; i < sizeof binds / sizeof *binds; i++)
		for (int j = 0; j < 3; j++)
			sc_argv_push(a, binds[i][j]);
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
