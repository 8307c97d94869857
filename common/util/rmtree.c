#include "util/rmtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* One pass over the folder: 1 when it removed an entry, 0 when none was
 * left to remove, -1 on a failure. */
static int remove_entries(DIR *d, int depth)
{
	int removed = 0;
	struct dirent *e;
	errno = 0;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (sc_remove_tree_at(dirfd(d), e->d_name, depth) < 0)
			return -1;
		removed = 1;
		errno = 0;
	}
	return errno ? -1 : removed;
}

int sc_remove_tree_at(int parent, const char *name, int depth)
{
	/* Linux says EISDIR for a folder: one call for the common case. */
	if (unlinkat(parent, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR)
		return -1;
	if (depth <= 0) {
		errno = ELOOP;
		return -1;
	}
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	/* A listing need not show what changed under it: again until a pass
	 * finds nothing. */
	int rc;
	while ((rc = remove_entries(d, depth - 1)) > 0)
		rewinddir(d);
	int e = errno;
	closedir(d);
	if (rc < 0) {
		errno = e;
		return -1;
	}
	return unlinkat(parent, name, AT_REMOVEDIR);
}
