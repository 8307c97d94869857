#include "util/safefile.h"
#include "util/die.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
