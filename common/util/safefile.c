#include "util/safefile.h"
#include "util/die.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int sc_write_file_atomic(const char *path, const void *buf, size_t len, mode_t mode)
{
	char *tmp = xasprintf("%s.tmp.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	int rc = sc_write_all(fd, buf, len);
	if (rc == 0 && fchmod(fd, mode) < 0)
		rc = -1;
	if (rc == 0 && fsync(fd) < 0)
		rc = -1;
	int e = errno;
	if (close(fd) < 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	if (rc == 0 && rename(tmp, path) < 0) {
		rc = -1;
		e = errno;
	}
	if (rc < 0)
		unlink(tmp);
	free(tmp);
	errno = e;
	return rc;
}

void sc_write_file_atomic_or_die(const char *path, const void *buf, size_t len, const char *what)
{
	if (sc_write_file_atomic(path, buf, len, 0644) < 0)
		sc_die_sys_errno("cannot write %s (%s)", what, path);
}

int sc_read_file(const char *path, struct strbuf *sb, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	errno = 0;
	memset(&st, 0, sizeof st);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = errno;
		if (e == 0 || S_ISDIR(st.st_mode))
			e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = e;
		return -1;
	}
	if ((size_t)st.st_size > max) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	int rc = sc_read_all(fd, sb);
	int e = errno;
	close(fd);
	if (rc == 0 && sb->len > max) {
		errno = EFBIG;
		return -1;
	}
	errno = e;
	return rc;
}

#define LEAF_FLAGS (O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)

/* Without openat2 (before Linux 5.6; valgrind): component by component,
 * each with O_NOFOLLOW, no "..", ".", empty or absolute component. */
static int open_walk(int dirfd, const char *path)
{
	int cur = dup(dirfd);
	const char *p = path;
	while (cur >= 0) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		char name[256];
		if (n == 0 || n >= sizeof name || (p[0] == '.' && (n == 1 || (n == 2 && p[1] == '.')))) {
			close(cur);
			errno = EXDEV;
			return -1;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		int next = openat(cur, name, slash ? O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC : LEAF_FLAGS);
		int e = errno;
		close(cur);
		if (!slash || next < 0) {
			errno = e == ENOTDIR && next < 0 ? ELOOP : e;
			return next;
		}
		cur = next;
		p = slash + 1;
	}
	return -1;
}

int sc_open_beneath(int dirfd, const char *path)
{
	struct open_how how = {
		.flags = LEAF_FLAGS,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
	return fd < 0 && errno == ENOSYS ? open_walk(dirfd, path) : fd;
}

int sc_read_fd_bounded(int fd, size_t size, struct strbuf *sb)
{
	sb_grow(sb, size + 1);
	size_t got = 0;
	while (got <= size) {
		ssize_t n = read(fd, sb->buf + got, size + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			sb->len = got;
			return 0;
		}
		got += (size_t)n;
	}
	errno = EFBIG; /* it grew while we read */
	return -1;
}
