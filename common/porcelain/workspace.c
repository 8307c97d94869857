#include "porcelain/workspace.h"
#include "util/fswalk.h"
#include "util/die.h"
#include "util/safefile.h"
#include "util/sha256.h"
#include "util/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "util/fsroom.h"
#include <unistd.h>

char *sc_workspace_claim(const char *ws, const char *plan, size_t len)
{
	if (mkdir(ws, 0700) < 0) {
		if (errno == EEXIST)
			sc_die("workspace already exists; runs are never resumed or overwritten (%s)", ws);
		sc_die_path_errno("cannot create workspace (%s)", ws);
	}
	char real[PATH_MAX];
	if (!realpath(ws, real))
		sc_die_sys_errno("cannot resolve workspace (%s)", ws);
	char *r = xstrdup(real);
	sc_die_set_note(xasprintf("the workspace stays: remove %s to retry", r));
	char *marker = xasprintf("%s/" SC_WORKSPACE_INCOMPLETE, r);
	static const char text[] = "This profile run has not finished: no report here is complete.\n";
	sc_write_file_atomic_or_die(marker, text, sizeof text - 1, "workspace marker");
	free(marker);
	char *path = xasprintf("%s/plan.json", r);
	sc_write_file_atomic_or_die(path, plan, len, "plan");
	free(path);
	return r;
}

void sc_workspace_complete(const char *ws)
{
	char *marker = xasprintf("%s/" SC_WORKSPACE_INCOMPLETE, ws);
	unlink(marker);
	free(marker);
}

char *sc_workspace_parent(const char *ws)
{
	const char *slash = strrchr(ws, '/');
	if (!slash)
		return xstrdup(".");
	return xstrndup(ws, slash == ws ? 1 : (size_t)(slash - ws));
}

/* A module name is chosen by the candidate and may be far longer than a
 * file name can be (NAME_MAX, 255 bytes): past SC_STEM_MAX bytes the stem
 * is its first bytes and a digest of the whole name, so that every step
 * still gets a file of its own and a hostile path cannot cost the run. */
#define SC_STEM_MAX 160
char *sc_workspace_stem(const char *side, const char *name)
{
	if (strlen(name) <= SC_STEM_MAX)
		return xasprintf("%s-%s", side, name);
	char hex[65];
	sc_sha256_hex(name, strlen(name), hex);
	return xasprintf("%s-%.*s-%.16s", side, SC_STEM_MAX - 17, name, hex);
}

char *sc_workspace_raw(const char *ws, const char *side, const char *name, const char *ext)
{
	char *stem = sc_workspace_stem(side, name);
	char *path = xasprintf("%s/raw/%s.%s", ws, stem, ext);
	free(stem);
	return path;
}

void sc_workspace_restrict(const char *ws, long gid)
{
	int share = gid != -1 && (gid_t)gid != getegid();
	if (chown(ws, (uid_t)-1, share ? (gid_t)gid : getegid()) < 0 || chmod(ws, share ? 0710 : 0700) < 0)
		sc_die_sys_errno("cannot set the workspace's owner and mode (%s)", ws);
}

static char *reserve_dir(const char *ws) { return xasprintf("%s/.reserve", ws); }

void sc_workspace_reserve(const char *ws)
{
	char *dir = reserve_dir(ws);
	if (mkdir(dir, 0700) < 0)
		sc_die_sys_errno("cannot reserve inodes for the report (%s)", dir);
	for (int i = 0; i < SC_WORKSPACE_RESERVE_INODES; i++) {
		char *f = xasprintf("%s/%d", dir, i);
		int fd = open(f, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			sc_die_sys_errno("cannot reserve inodes for the report (%s)", f);
		close(fd);
		free(f);
	}
	free(dir);

	char *path = xasprintf("%s/" SC_WORKSPACE_INCOMPLETE, ws);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	struct stat st;
	int rc = fd < 0 || fstat(fd, &st) < 0 ? -1
	         : fallocate(fd, FALLOC_FL_KEEP_SIZE, st.st_size, (off_t)SC_WORKSPACE_RESERVE);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (rc < 0) {
		errno = e;
		sc_die_sys_errno("cannot reserve %llu MiB for the report (%s)", SC_WORKSPACE_RESERVE >> 20, path);
	}
	free(path);
}

void sc_workspace_unreserve(const char *ws)
{
	char *dir = reserve_dir(ws), *where = NULL;
	(void)sc_fswalk_remove(dir, &where); /* our own empty files: nothing to fail but ENOENT */
	free(where);
	free(dir);
	char *path = xasprintf("%s/" SC_WORKSPACE_INCOMPLETE, ws);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0)
		fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, st.st_size,
		          (off_t)SC_WORKSPACE_RESERVE);
	if (fd >= 0)
		close(fd);
	free(path);
}
