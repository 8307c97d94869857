#include "util/fsroom.h"

#include <limits.h>
#include <sys/statvfs.h>

int sc_fs_room(const char *dir, long long *bytes, long long *inodes)
{
	struct statvfs v;
	if (statvfs(dir, &v) < 0)
		return -1;
	*bytes = (long long)v.f_bavail * (long long)v.f_frsize;
	*inodes = v.f_files == 0 ? LLONG_MAX : (long long)v.f_favail;
	return 0;
}
