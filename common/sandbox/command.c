#include "sandbox/command.h"
#include "sandbox/hostcheck.h"
#include "sandbox/hostfile.h"
#include "sandbox/inputs.h"
#include "util/argv.h"
#include "util/die.h"
#include "util/fswalk.h"
#include "util/pathcheck.h"
#include "util/seconds.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The mounted folders, canonical (the fourth, --cache, optional: NULL);
 * name the option names. */
#define NMOUNTS 4
struct mounts {
	char *dir[NMOUNTS + 1]; /* NULL-terminated */
	const char *name[NMOUNTS];
	int n; /* 3, or 4 with --cache */
};

static char *dir_arg(const char *path, const char *flag)
{
	char *real = sc_canonical_dir(path);
	if (!real)
		sc_die_path_errno("%s is not a directory (%s)", flag, path);
	return real;
}

static void check_mounts(const struct sc_command_spec *spec, struct mounts *m)
{
	const char *in[] = {spec->tree, spec->toolchain, spec->deps, spec->lake_cache};
	const char *names[] = {"--tree", "--toolchain", "--dependencies", "--cache"};
	struct strbuf why = STRBUF_INIT;
	if (sc_toolchain_misnamed(spec->toolchain, NULL, &why))
		sc_die("%s", why.buf);
	sb_release(&why);
	m->n = spec->lake_cache ? 4 : 3;
	m->dir[3] = m->dir[4] = NULL;
	for (int i = 0; i < m->n; i++) {
		m->name[i] = names[i];
		m->dir[i] = dir_arg(in[i], names[i]);
	}
	/* the operator's cache is never written: disjoint from every other
	 * mount, the writable tree above all */
	for (int i = 0; i < m->n; i++)
		for (int j = i + 1; j < m->n; j++)
			if (sc_paths_overlap(m->dir[i], m->dir[j]))
				sc_die("%s and %s overlap (%s, %s)", names[i], names[j], m->dir[i], m->dir[j]);
}

/* bwrap mounts TREE/.lake read-write and the dependencies at
 * TREE/.lake/packages: sandboxed code of an earlier run could have made
 * either a symlink.  A tree without .lake gets one, the sandbox user's
 * (a uid of the run's own gets it, as every .lake, only for the run:
 * hand_over). */
static void check_mountpoint(const char *tree, const struct sc_sandbox *sb)
{
	const char *rel[] = {SC_SANDBOX_LAKE, SC_SANDBOX_LAKE "/packages"};
	for (int i = 0; i < 2; i++) {
		char *p = xasprintf("%s/%s", tree, rel[i]);
		struct stat st;
		if (i == 0 && lstat(p, &st) < 0 && errno == ENOENT) {
			if (mkdir(p, 0755) < 0)
				sc_die_path_errno("cannot create the tree's %s (%s)", rel[i], p);
			if (geteuid() == 0 && !sb->own_uid && lchown(p, sb->uid, sb->gid) < 0)
				sc_die_sys_errno("cannot hand the tree's %s to the sandbox user (%s)", rel[i], p);
		}
		if (lstat(p, &st) == 0 ? !S_ISDIR(st.st_mode) : i == 0)
			sc_die("the tree's %s is not a plain directory (%s)", rel[i], p);
		free(p);
	}
}

/* --read-only PATH: below the tree's .lake (not its packages), reached
 * beneath the tree through no link, a folder or a regular file. */
static void check_sealed(const char *tree, const char *const *sealed)
{
	int tfd = open(tree, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		sc_die_path_errno("cannot open the tree (%s)", tree);
	for (const char *const *p = sealed; p && *p; p++) {
		const char *rel = *p + strlen(SC_SANDBOX_LAKE "/");
		if (strncmp(*p, SC_SANDBOX_LAKE "/", strlen(SC_SANDBOX_LAKE "/")) != 0 || !*rel ||
		    strncmp(rel, "packages", 8) == 0 || strstr(*p, "/../") || strstr(*p, "//") ||
		    strcmp(*p + strlen(*p) - 3, "/..") == 0)
			sc_die("a read-only path must lie below the tree's .lake, not its packages (%s)", *p);
		struct open_how how = {.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		                       .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
		int fd = (int)syscall(SYS_openat2, tfd, *p, &how, sizeof how);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0 || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			sc_die("a read-only path is not a folder or file of the tree reached through no link (%s)", *p);
		close(fd);
	}
	close(tfd);
}

/* Who TREE/.lake belongs to after the run: with a uid of the run's own,
 * the tree's owner (uid and gid -1 otherwise: owners stay). */
struct lake_owner {
	long uid, gid;
};

/* Nothing the candidate made outlives the run: no setuid or setgid file
 * stays in the writable folder, and no file stays a uid's of the run's
 * own, which no user reserves (util/fswalk: no link followed). */
static void clear_leftovers(const char *tree, const struct lake_owner *back)
{
	char *lake = xasprintf("%s/" SC_SANDBOX_LAKE, tree), *where = NULL;
	if (sc_fswalk_seal(lake, back->uid, back->gid, &where) < 0)
		sc_die_sys_errno("cannot give the tree's %s back and clear setuid and setgid bits the "
		                 "sandbox left (%s)", SC_SANDBOX_LAKE, where ? where : lake);
	free(where);
	free(lake);
}

/* A uid of the run's own is a stranger to the tree and another one on
 * each run: TREE/.lake, every entry of it, is that uid's for the run, so
 * repeated runs on one tree work; clear_leftovers gives it back.  What the
 * walk handed before a failure goes back at once. */
static void hand_over(const struct sc_sandbox *sb, const struct lake_owner *back, char *tmp)
{
	char *lake = xasprintf("%s/" SC_SANDBOX_LAKE, sb->tree), *where = NULL, *ignored = NULL;
	if (sc_fswalk_seal(lake, sb->uid, sb->gid, &where) == 0) {
		free(lake);
		return;
	}
	int e = errno;
	sc_fswalk_seal(lake, back->uid, back->gid, &ignored);
	sc_time_file_abandon(tmp);
	errno = e;
	sc_die_sys_errno("cannot hand the tree's %s to the sandbox user %u:%u (%s)", SC_SANDBOX_LAKE,
	                 sb->uid, sb->gid, where ? where : lake);
}

/* The tree's owner, with a uid of the run's own; else -1, -1. */
static struct lake_owner lake_owner(const struct sc_sandbox *sb)
{
	struct lake_owner o = {-1, -1};
	struct stat st;
	if (!sb->own_uid)
		return o;
	if (stat(sb->tree, &st) < 0)
		sc_die_path_errno("cannot read the owner of the tree (%s)", sb->tree);
	o.uid = (long)st.st_uid, o.gid = (long)st.st_gid;
	return o;
}

/* bwrap runs as the sandbox user: a folder it cannot reach is named here,
 * not as bwrap's "Can't find source path". */
static void check_reach(const struct sc_sandbox *sb, const struct mounts *m, const char *init)
{
	char *init_dir = xstrdup(init);
	*strrchr(init_dir, '/') = '\0';
	for (int i = 0; i < m->n; i++)
		sc_sandbox_check_reachable(sb, m->dir[i], m->name[i]);
	sc_sandbox_check_reachable(sb, init_dir, "sc-pid1");
	free(init_dir);
}

static void init_args(const struct sc_command_spec *spec, int keep_output, struct sc_argv *a)
{
	if (keep_output)
		sc_argv_push(a, "--keep-output");
	sc_argv_push(a, "--");
	for (char **p = spec->argv; *p; p++)
		sc_argv_push(a, *p);
}

/* The run proper: from here a stop signal waits for the run loop, which
 * removes the temporary GNU time writes beside the final name. */
static void run(struct sc_sandbox *sb, const struct sc_command_spec *spec, double timeout,
                const char *time_file, const char *log, struct sc_outcome *o)
{
	struct lake_owner back = lake_owner(sb);
	sc_sandbox_hold_stop_signals();
	char *tmp = sc_time_file_begin(time_file);
	if (sb->own_uid)
		hand_over(sb, &back, tmp);
	struct sc_argv args = SC_ARGV_INIT;
	init_args(spec, log != NULL, &args);
	struct sc_sandbox_result r;
	int started = sc_sandbox_supervise(sb, tmp, args.v, timeout, &r);
	int e = errno;
	clear_leftovers(sb->tree, &back);
	if (started < 0) {
		sc_time_file_abandon(tmp);
		errno = e;
		sc_die_path_errno("cannot start the sandbox (%s)", SC_GNU_TIME_PATH);
	}
	sc_argv_release(&args);
	if (log && !r.interrupted)
		sc_sandbox_write_log(log, &r);
	sc_outcome_decide(&r, sb->bwrap, spec->argv[0], o);
	sc_sandbox_result_release(&r);
	if (o->keep) {
		sc_time_file_commit(tmp, time_file);
		free(tmp);
		return;
	}
	sc_time_file_abandon(tmp);
	if (o->reraise)
		sc_sandbox_reraise(o->reraise);
	if (!o->status_line)
		sc_die_code(o->exit, "%s", o->why.buf);
}

void sc_command_run(struct sc_sandbox sb, const struct sc_command_spec *spec, struct sc_outcome *o)
{
	double timeout;
	if (sc_parse_seconds(spec->timeout, &timeout) < 0)
		sc_die("the timeout must be a number of seconds in (0, %d] (%s)", SC_SECONDS_MAX,
		       spec->timeout);
	struct mounts m;
	check_mounts(spec, &m);
	const char *const *dirs = (const char *const *)m.dir;
	char *time_file = sc_host_file(spec->time_file, "time file", dirs, m.name);
	char *log = spec->log ? sc_host_file(spec->log, "log", dirs, m.name) : NULL;
	char *init = sc_sandbox_find_init(spec->libexecdir);
	if (sc_path_within(init, m.dir[0]) || sc_path_within(init, m.dir[2]) ||
	    (m.dir[3] && sc_path_within(init, m.dir[3])))
		sc_die("sc-pid1 lies inside a sandbox mount (%s)", init);
	check_mountpoint(m.dir[0], &sb);
	check_sealed(m.dir[0], spec->sealed);
	sb.sealed = spec->sealed;
	sb.lake_read_only = spec->lake_read_only;
	check_reach(&sb, &m, init);
	sb.keep_output = log != NULL;
	char *host_step = sc_sandbox_beside_init(init, "sc-confine");
	sb.init = init, sb.host_step = host_step;
	sb.tree = m.dir[0], sb.toolchain = m.dir[1], sb.deps = m.dir[2];
	sb.lake_cache = m.dir[3];
	run(&sb, spec, timeout, time_file, log, o);
	free(init);
	free(host_step);
	free(log);
	free(time_file);
	for (int i = 0; i < m.n; i++)
		free(m.dir[i]);
}
