#include "util/fdkeep.h"

#include <sys/syscall.h>
#include <unistd.h>

int sc_close_all_but(const int *keep, int n)
{
	unsigned from = 3;
	for (int i = 0; i < n; i++) {
		if ((unsigned)keep[i] > from && syscall(SYS_close_range, from, (unsigned)keep[i] - 1, 0u) < 0)
			return -1;
		from = (unsigned)keep[i] + 1;
	}
	return (int)syscall(SYS_close_range, from, ~0u, 0u);
}
