#include "util/fswalk.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct walk {
	long uid, gid;
	char **where;
	/* What is done to each entry, after what a folder holds: the seal's
	 * fix_entry, or the list's visit. */
	int (*entry)(const struct walk *w, int dfd, const char *path, const char *name,
	             const struct stat *st, int bound);
	int (*visit)(const char *rel, const struct stat *st, void *ctx);
	void *ctx;
	size_t root_len;
};

static int fail(const struct walk *w, const char *path, const char *name)
{
	int e = errno;
	if (w->where && !*w->where)
		*w->where = name ? xasprintf("%s/%s", path, name) : xstrdup(path);
	errno = e;
	return -1;
}

/* Change one entry through its own O_PATH descriptor: chmod and chown of
 * /proc/self/fd/N act on the file itself, never on what a name leads to. */
static int fix_entry(const struct walk *w, int dfd, const char *path, const char *name,
                     const struct stat *st, int close_it)
{
	(void)path;
	int fd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat now;
	int rc = fstat(fd, &now);
	if (rc == 0 && (now.st_dev != st->st_dev || now.st_ino != st->st_ino)) {
		errno = ESTALE; /* replaced under us: nobody may write here now */
		rc = -1;
	}
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	if (rc == 0 && (w->uid != -1 || w->gid != -1) && !S_ISLNK(now.st_mode))
		rc = chown(proc, (uid_t)w->uid, (gid_t)w->gid);
	else if (rc == 0 && (w->uid != -1 || w->gid != -1))
		rc = fchownat(fd, "", (uid_t)w->uid, (gid_t)w->gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	/* chown may itself clear the bits: the mode is taken afresh */
	if (rc == 0 && !S_ISLNK(now.st_mode) && fstat(fd, &now) == 0) {
		mode_t mode = now.st_mode & 07777;
		mode_t want = close_it ? 0 : mode & ~(mode_t)(S_ISUID | S_ISGID);
		if (want != mode)
			rc = chmod(proc, want);
	}
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

static int walk_dir(const struct walk *w, int dfd, const char *path, int depth)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return fail(w, path, NULL);
	}
	int rc = 0;
	struct dirent *e;
	errno = 0;
	while (rc == 0 && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rc = errno == ENOENT ? 0 : fail(w, path, e->d_name);
			continue;
		}
		int bound = S_ISDIR(st.st_mode) && depth >= SC_FSWALK_MAX_DEPTH;
		if (S_ISDIR(st.st_mode) && !bound) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				rc = fail(w, path, e->d_name);
			else {
				char *subpath = xasprintf("%s/%s", path, e->d_name);
				rc = walk_dir(w, sub, subpath, depth + 1);
				free(subpath);
			}
		}
		if (rc == 0 && (rc = w->entry(w, dirfd(d), path, e->d_name, &st, bound)) < 0)
			rc = fail(w, path, e->d_name);
		errno = 0;
	}
	if (rc == 0 && errno != 0)
		rc = fail(w, path, NULL);
	int err = errno;
	closedir(d);
	errno = err;
	return rc;
}

int sc_fswalk_seal(const char *dir, long uid, long gid, char **where)
{
	struct walk w = {uid, gid, where, fix_entry, NULL, NULL, 0};
	if (where)
		*where = NULL;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(&w, dir, NULL);
	struct stat st;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return fail(&w, dir, NULL);
	}
	if ((uid != -1 || gid != -1) && fchown(fd, (uid_t)uid, (gid_t)gid) < 0) {
		close(fd);
		return fail(&w, dir, NULL);
	}
	if ((st.st_mode & (S_ISUID | S_ISGID)) && fchmod(fd, st.st_mode & 07777 & ~(mode_t)(S_ISUID | S_ISGID)) < 0) {
		close(fd);
		return fail(&w, dir, NULL);
	}
	return walk_dir(&w, fd, dir, 1);
}

static int list_entry(const struct walk *w, int dfd, const char *path, const char *name,
                      const struct stat *st, int bound)
{
	(void)dfd, (void)bound;
	char *full = xasprintf("%s/%s", path, name);
	int rc = w->visit(full + w->root_len + 1, st, w->ctx);
	free(full);
	return rc;
}

int sc_fswalk_list(const char *dir, int (*visit)(const char *rel, const struct stat *st, void *ctx),
                   void *ctx, char **where)
{
	struct walk w = {-1, -1, where, list_entry, visit, ctx, strlen(dir)};
	if (where)
		*where = NULL;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(&w, dir, NULL);
	return walk_dir(&w, fd, dir, 1);
}
