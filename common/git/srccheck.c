#include "git/srccheck.h"
#include "git/gittree.h"
#include "util/oid.h"
#include "util/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* Beneath dirfd, no symlink anywhere on the path, no magic link. */
static int open_beneath(int dirfd, const char *path)
{
	struct open_how how = {
		.flags = LEAF_FLAGS,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
	return fd < 0 && errno == ENOSYS ? open_walk(dirfd, path) : fd;
}

static int read_bounded(int fd, size_t size, struct strbuf *sb)
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

static int mismatch(struct strbuf *why, const char *what)
{
	sb_adds(why, what);
	return 0;
}

int sc_data_is_blob(const void *data, size_t len, const char *oid)
{
	unsigned char raw[32];
	char hex[65];
	size_t n = sc_gitobj_id(strlen(oid) == 40 ? SC_HASH_SHA1 : SC_HASH_SHA256, "blob", data, len, raw);
	sc_hex(raw, n, hex);
	return strcmp(hex, oid) == 0;
}

int sc_source_is_blob(const char *tree, const char *path, const char *oid, struct strbuf *why)
{
	size_t hexsz = strlen(oid);
	if ((hexsz != 40 && hexsz != 64) || !sc_is_lower_hex(oid, hexsz))
		return mismatch(why, "the plan's blob ID is not a full object ID");
	int dirfd = open(tree, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return mismatch(why, "the tree cannot be opened");
	int fd = open_beneath(dirfd, path);
	int e = errno;
	close(dirfd);
	if (fd < 0)
		return mismatch(why, e == ELOOP || e == EXDEV ? "a link on its path" :
		                     e == ENOENT ? "it is missing" : "it cannot be opened");
	struct stat st;
	struct strbuf data = STRBUF_INIT;
	const char *bad = NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		bad = "not a regular file";
	else if (st.st_size > SC_SRCCHECK_MAX)
		bad = "larger than any source we measure";
	else if (read_bounded(fd, (size_t)st.st_size, &data) < 0)
		bad = "it cannot be read whole";
	close(fd);
	if (!bad && !sc_data_is_blob(data.buf, data.len, oid))
		bad = "content differs";
	sb_release(&data);
	return bad ? mismatch(why, bad) : 1;
}
