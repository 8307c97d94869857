#include "sandbox/taskclock.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_counter(pid_t pid, int exclude_kernel)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof a;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.inherit = 1;
	a.exclude_kernel = (unsigned)exclude_kernel;
	a.exclude_hv = (unsigned)exclude_kernel;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int sc_task_clock_open(pid_t pid)
{
	int fd = open_counter(pid, 0);
	/* perf_event_paranoid >= 2 refuses an unprivileged counter that
	 * does not exclude the kernel.  The task clock ignores the exclusion
	 * bits (it is the time the task is on a CPU, in either mode; only
	 * sampling honours them), so the count is the same. */
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		fd = open_counter(pid, 1);
	return fd;
}

int sc_task_clock_read(int fd, unsigned long long *ns)
{
	unsigned long long v;
	ssize_t n;
	do
		n = read(fd, &v, sizeof v);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof v) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	*ns = v;
	return 0;
}
