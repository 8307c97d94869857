#ifndef SC_SAFEFILE_H
#define SC_SAFEFILE_H
#include <stddef.h>
#include <sys/types.h>

/* Write buf to path so that path either does not exist or holds all of
 * buf: a temporary file beside it, fsync, rename.  The temporary is removed
 * on failure.  Returns 0, or -1 with errno (ENOSPC etc.). */
int sc_write_file_atomic(const char *path, const void *buf, size_t len, mode_t mode);
/* Same, dying with "cannot write <what>: <reason> (<path>)", exit 3: a
 * file that cannot be written is the machine's failure (a full disk). */
void sc_write_file_atomic_or_die(const char *path, const void *buf, size_t len,
                                 const char *what);
/* Read a whole regular file; returns 0 or -1 (errno). Refuses > max bytes (EFBIG). */
struct strbuf;
int sc_read_file(const char *path, struct strbuf *sb, size_t max);

/* Open PATH beneath DIRFD for reading: no link followed anywhere on the
 * way (a planted one is ELOOP or EXDEV), no "..", non-blocking (a planted
 * FIFO cannot stall us), close-on-exec.  The fd, or -1 (errno). */
int sc_open_beneath(int dirfd, const char *path);
/* Read FD to its end into SB, refusing more than SIZE bytes (EFBIG: it
 * grew while we read); 0 or -1 (errno). */
int sc_read_fd_bounded(int fd, size_t size, struct strbuf *sb);
#endif
