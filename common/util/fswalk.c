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
	 * fix_entry, the removal's remove_entry, or the list's visit. */
	int (*entry)(struct walk *w, int dfd, const char *path, const char *name,
	             const struct stat *st, int bound);
	int (*visit)(const char *rel, const struct stat *st, void *ctx);
	void *ctx;
	size_t root_len;
	/* The seal and the removal carry on past an error (the first one is
	 * kept: where, and its errno); the list stops at its first. */
	int carry_on, first_errno;
	int rootfd;       /* the removal: where folders at the depth bound go */
	unsigned hoisted; /* ... under names of their own */
};

static int fail(struct walk *w, const char *path, const char *name)
{
	int e = errno;
	if (!w->first_errno) {
		w->first_errno = e ? e : EIO;
		if (w->where && !*w->where)
			*w->where = name ? xasprintf("%s/%s", path, name) : xstrdup(path);
	}
	errno = e;
	return -1;
}

/* An O_PATH descriptor of the entry NAME below DFD that was looked at as
 * ST (ESTALE when the name holds another entry now: nobody may write
 * there while we walk), or -1.  chmod and chown of /proc/self/fd/N act on
 * the file itself, never on what a name leads to. */
static int open_entry(int dfd, const char *name, const struct stat *st, struct stat *now)
{
	int fd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int e = 0;
	if (fstat(fd, now) < 0)
		e = errno;
	else if (now->st_dev != st->st_dev || now->st_ino != st->st_ino)
		e = ESTALE;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int chmod_entry(int dfd, const char *name, const struct stat *st, mode_t mode)
{
	struct stat now;
	int fd = open_entry(dfd, name, st, &now);
	if (fd < 0)
		return -1;
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	int rc = chmod(proc, mode), e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* A folder the candidate closed (mode 000, or no search or write bit for
 * its owner) is opened all the same: as its owner, or as root, the walk
 * gives the owner rwx first.  Documentation/threat-model.txt "Sealed
 * measurement": the walk never stops at a candidate's folder. */
static int open_folder(int dfd, const char *name, struct stat *st)
{
	if ((st->st_mode & 0700) != 0700) {
		if (chmod_entry(dfd, name, st, (st->st_mode & 07777) | 0700) < 0)
			return -1;
		st->st_mode |= 0700;
	}
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* The walk's own folder, opened the way open_folder opens one below it. */
static int open_root(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES)
		return fd;
	struct stat st;
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		errno = EACCES;
		return -1;
	}
	return open_folder(AT_FDCWD, dir, &st);
}

/* Change one entry through its own O_PATH descriptor (open_entry). */
static int fix_entry(struct walk *w, int dfd, const char *path, const char *name,
                     const struct stat *st, int close_it)
{
	(void)path;
	struct stat now;
	int fd = open_entry(dfd, name, st, &now);
	if (fd < 0)
		return -1;
	int rc = 0;
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

/* The removal: a folder is empty by now (its entries went first); one at
 * the depth bound moves up to the root instead, under a name of its own,
 * and is taken apart from there: no chain is too deep. */
static int remove_entry(struct walk *w, int dfd, const char *path, const char *name,
                        const struct stat *st, int bound)
{
	(void)path;
	if (bound) {
		/* moving a folder rewrites its "..": its owner needs write
		 * there, and the seal may have closed it (mode 000) */
		char to[48];
		snprintf(to, sizeof to, ".sc-deep-%u", w->hoisted++);
		if ((st->st_mode & 0700) != 0700 && chmod_entry(dfd, name, st, (st->st_mode & 07777) | 0700) < 0)
			return -1;
		return renameat(dfd, name, w->rootfd, to);
	}
	return unlinkat(dfd, name, S_ISDIR(st->st_mode) ? AT_REMOVEDIR : 0);
}

static int walk_dir(struct walk *w, int dfd, const char *path, int depth)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return fail(w, path, NULL);
	}
	int rc = 0;
	struct dirent *e;
	errno = 0;
	while ((rc == 0 || w->carry_on) && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				rc = fail(w, path, e->d_name);
			errno = 0;
			continue;
		}
		int bound = S_ISDIR(st.st_mode) && depth >= SC_FSWALK_MAX_DEPTH;
		int sub_rc = 0;
		if (S_ISDIR(st.st_mode) && !bound) {
			int sub = w->carry_on ? open_folder(dirfd(d), e->d_name, &st)
			                      : openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				sub_rc = fail(w, path, e->d_name);
			else {
				char *subpath = xasprintf("%s/%s", path, e->d_name);
				sub_rc = walk_dir(w, sub, subpath, depth + 1);
				free(subpath);
			}
		}
		/* a folder that could not be emptied is not removed; the seal
		 * still fixes it */
		if ((sub_rc == 0 || w->entry != remove_entry) && (sub_rc == 0 || w->carry_on) &&
		    w->entry(w, dirfd(d), path, e->d_name, &st, bound) < 0)
			sub_rc = fail(w, path, e->d_name);
		if (sub_rc < 0)
			rc = -1;
		errno = 0;
	}
	if (errno != 0)
		rc = fail(w, path, NULL);
	closedir(d);
	return rc;
}

/* The first error, as the walk's result. */
static int result(const struct walk *w, int rc)
{
	if (w->first_errno) {
		errno = w->first_errno;
		return -1;
	}
	return rc;
}

int sc_fswalk_seal(const char *dir, long uid, long gid, char **where)
{
	struct walk w = {.uid = uid, .gid = gid, .where = where, .entry = fix_entry, .carry_on = 1};
	if (where)
		*where = NULL;
	int fd = open_root(dir);
	if (fd < 0)
		return fail(&w, dir, NULL);
	struct stat st;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return fail(&w, dir, NULL);
	}
	if ((uid != -1 || gid != -1) && fchown(fd, (uid_t)uid, (gid_t)gid) < 0)
		(void)fail(&w, dir, NULL);
	if ((st.st_mode & (S_ISUID | S_ISGID)) && fchmod(fd, st.st_mode & 07777 & ~(mode_t)(S_ISUID | S_ISGID)) < 0)
		(void)fail(&w, dir, NULL);
	return result(&w, walk_dir(&w, fd, dir, 1));
}

int sc_fswalk_remove(const char *dir, char **where)
{
	struct walk w = {.uid = -1, .gid = -1, .where = where, .entry = remove_entry, .carry_on = 1};
	if (where)
		*where = NULL;
	w.rootfd = open_root(dir);
	if (w.rootfd < 0)
		return errno == ENOENT ? 0 : fail(&w, dir, NULL);
	/* what the depth bound moved up is taken apart in later passes; each
	 * pass empties SC_FSWALK_MAX_DEPTH levels of every chain */
	int rc;
	unsigned before;
	do {
		before = w.hoisted;
		/* a listing of its own each pass (a dup would share the offset) */
		int fd = openat(w.rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		rc = fd < 0 ? fail(&w, dir, NULL) : walk_dir(&w, fd, dir, 1);
	} while (rc == 0 && w.hoisted != before);
	char *parent = xstrdup(dir), *slash = strrchr(parent, '/');
	const char *name = dir;
	int pfd = AT_FDCWD;
	if (slash) {
		*slash = '\0';
		name = slash + 1;
		pfd = open(slash == parent ? "/" : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (rc == 0 && (pfd == -1 || unlinkat(pfd, name, AT_REMOVEDIR) < 0))
		rc = fail(&w, dir, NULL);
	if (pfd >= 0)
		close(pfd);
	free(parent);
	close(w.rootfd);
	return result(&w, rc);
}

static int list_entry(struct walk *w, int dfd, const char *path, const char *name,
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
	struct walk w = {.uid = -1, .gid = -1, .where = where, .entry = list_entry, .visit = visit,
	                 .ctx = ctx, .root_len = strlen(dir)};
	if (where)
		*where = NULL;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(&w, dir, NULL);
	return result(&w, walk_dir(&w, fd, dir, 1));
}
