#ifndef SC_UTIL_FSROOM_H
#define SC_UTIL_FSROOM_H
/* The bytes and the inodes an unprivileged writer has free on DIR's file
 * system (one statvfs); a file system that counts no inodes (f_files 0:
 * btrfs, for one) has no limit there: LLONG_MAX.  Returns 0, or -1 when
 * DIR's file system cannot be asked. */
int sc_fs_room(const char *dir, long long *bytes, long long *inodes);

#endif
