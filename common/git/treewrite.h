#ifndef SC_TREEWRITE_H
#define SC_TREEWRITE_H
/* Writing a loaded tree (treewalk.h) as plain files, without git's
 * checkout machinery: no filters, attributes, hooks or index.  Every file
 * and directory is created relative to an O_NOFOLLOW directory descriptor
 * with O_EXCL, so no entry can reach outside the destination even if
 * something else races us inside it. */
#include "git/git.h"
#include "git/treewalk.h"

struct sc_write_stats {
	unsigned long long files, dirs, bytes;
};

/* Create every directory and regular file (100644, 100755 with its execute
 * bit; the umask applies as for any new file) of t below rootfd, reading
 * blobs through c in a pipeline; big blobs are streamed, never held whole.
 * Symlinks and submodules are never written: the caller decides about them
 * before.  Dies naming dest/<path> where it stopped: exit 3 when the
 * system failed (a full disk says "no space left on device"), 2 for a name
 * longer than the file system holds or a missing blob (the input's). */
void sc_tree_write(struct sc_catfile *c, const struct sc_tree *t, int rootfd, const char *dest,
                   struct sc_write_stats *st);

#endif
