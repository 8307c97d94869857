#include "git/treewrite.h"
#include "util/die.h"
#include "util/safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static _Noreturn void stopped_at(const char *what, const struct sc_tree *t, size_t idx,
                                 const char *dest)
{
	int err = errno;
	struct strbuf raw = STRBUF_INIT, where = STRBUF_INIT;
	sc_tree_path(t, idx, &raw);
	sb_adds(&where, dest);
	sb_addc(&where, '/');
	sc_quote_path(&where, raw.buf, raw.len);
	errno = err;
	if (err == ENAMETOOLONG) /* the tree's name, not the machine: bad input */
		sc_die_path_errno("cannot %s (%s)", what, where.buf);
	sc_die_sys_errno("cannot %s (%s)", what, where.buf);
}

/* Names go to git in batches (one write each), topped up when half the
 * window is free or when the next blob has not been asked for yet. */
#define QUEUE_BATCH 64

static void queue_blobs(struct sc_catfile *c, const struct sc_tree *t, size_t i, size_t *q)
{
	char hex[SC_MAX_HEXSZ + 1];
	if (*q > i && sc_catfile_queue_room(c) < QUEUE_BATCH)
		return;
	for (; *q < t->n - 1 && sc_catfile_queue_room(c); ++*q) {
		unsigned mode = t->nodes[t->order[*q]].mode;
		if (mode == SC_MODE_BLOB || mode == SC_MODE_EXEC) {
			sc_tree_hex(t, t->order[*q], hex);
			sc_catfile_queue(c, hex);
		}
	}
}

static void write_blob(struct sc_catfile *c, const struct sc_tree *t, size_t k, int dirfd,
                       const char *name, const char *dest, struct sc_write_stats *st)
{
	char type[16];
	size_t size;
	int found = sc_catfile_next(c, type, &size) == 0;
	if (!found || strcmp(type, "blob") != 0) {
		struct strbuf raw = STRBUF_INIT, q = STRBUF_INIT;
		sc_tree_path(t, k, &raw);
		sc_quote_path(&q, raw.buf, raw.len);
		if (!found)
			sc_die("missing blob object (%s)", q.buf);
		sc_die("entry is a file but its object is a %s (%s)", type, q.buf);
	}
	mode_t mode = t->nodes[k].mode == SC_MODE_EXEC ? 0777 : 0666;
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		stopped_at("create file", t, k, dest);
	int failed = sc_catfile_stream(c, fd) < 0;
	int err = errno;
	if (close(fd) < 0 && !failed) {
		failed = 1;
		err = errno;
	}
	if (failed) {
		/* A truncated file must not stand under its final name. */
		unlinkat(dirfd, name, 0);
		errno = err;
		stopped_at("write file", t, k, dest);
	}
	st->files++;
	st->bytes += size;
}

void sc_tree_write(struct sc_catfile *c, const struct sc_tree *t, int rootfd, const char *dest,
                   struct sc_write_stats *st)
{
	/* fds[d] is the open directory at depth d on the current path. */
	int fds[SC_TREE_MAX_DEPTH + 1];
	for (int d = 0; d <= SC_TREE_MAX_DEPTH; d++)
		fds[d] = -1;
	fds[0] = rootfd;
	memset(st, 0, sizeof *st);
	struct strbuf name = STRBUF_INIT;
	size_t q = 0;
	for (size_t i = 0; i + 1 < t->n; i++) {
		size_t k = t->order[i];
		const struct sc_tree_node *n = &t->nodes[k];
		int dirfd = fds[n->depth - 1];
		sb_reset(&name);
		sb_add(&name, n->name, n->namelen);
		if (n->mode == SC_MODE_TREE) {
			if (mkdirat(dirfd, name.buf, 0777) < 0)
				stopped_at("create directory", t, k, dest);
			int fd = openat(dirfd, name.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				stopped_at("open directory", t, k, dest);
			if (fds[n->depth] >= 0)
				close(fds[n->depth]);
			fds[n->depth] = fd;
			st->dirs++;
		} else if (n->mode == SC_MODE_BLOB || n->mode == SC_MODE_EXEC) {
			queue_blobs(c, t, i, &q);
			write_blob(c, t, k, dirfd, name.buf, dest, st);
		}
	}
	for (int d = 1; d <= SC_TREE_MAX_DEPTH; d++)
		if (fds[d] >= 0)
			close(fds[d]);
	sb_release(&name);
}
