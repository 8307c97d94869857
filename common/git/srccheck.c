#include "git/srccheck.h"
#include "git/gittree.h"
#include "util/oid.h"
#include "util/safefile.h"
#include "util/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	int fd = sc_open_beneath(dirfd, path);
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
	else if (sc_read_fd_bounded(fd, (size_t)st.st_size, &data) < 0)
		bad = "it cannot be read whole";
	close(fd);
	if (!bad && !sc_data_is_blob(data.buf, data.len, oid))
		bad = "content differs";
	sb_release(&data);
	return bad ? mismatch(why, bad) : 1;
}
