#include "sandbox/dynuser.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RANGE (SC_DYNUSER_LAST - SC_DYNUSER_FIRST + 1)

/* PF_NPROC_EXCEEDED in the flags of /proc/self/stat (field 9). */
static int nproc_exceeded(void)
{
	char buf[1024];
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	unsigned long flags;
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return -1;
	return (flags & 0x00001000ul) != 0;
}

/* Does any process run as uid?  The kernel counts each real uid's
 * processes (RLIMIT_NPROC's count, to which a user namespace's processes
 * also charge its creator's uid), and setresuid notes whether the new real
 * uid is over our limit (PF_NPROC_EXCEEDED).  With a limit of 0 that is
 * "any process at all": we become uid for a moment (real and effective; the
 * saved uid stays 0 to come back), read the flag, and return.  No fork, no
 * reading every /proc/PID/status (milliseconds on a busy host).  Raw
 * system calls: glibc's setresuid would act on every thread.  1 yes, 0 no,
 * -1 unknown.  A process whose real uid is another's (a setuid file run by
 * someone else) is not counted. */
int sc_dynuser_in_use(unsigned uid)
{
	struct rlimit old, zero;
	if (getrlimit(RLIMIT_NPROC, &old) < 0)
		return -1;
	zero = (struct rlimit){0, old.rlim_max};
	if (setrlimit(RLIMIT_NPROC, &zero) < 0)
		return -1;
	int rc = -1;
	if (syscall(SYS_setresuid, uid, uid, 0) == 0) {
		rc = nproc_exceeded();
		if (syscall(SYS_setresuid, 0, 0, 0) != 0)
			abort(); /* the saved uid 0 always brings us back */
	}
	setrlimit(RLIMIT_NPROC, &old);
	return rc;
}

/* The lock folder: root's own, no one else may write or plant there. */
static int lock_dir(struct strbuf *err)
{
	if (mkdir(SC_DYNUSER_LOCKDIR, 0755) < 0 && errno != EEXIST) {
		sb_addf(err, "cannot create the sandbox uid lock folder: %s (%s)", strerror(errno),
		        SC_DYNUSER_LOCKDIR);
		return -1;
	}
	int fd = open(SC_DYNUSER_LOCKDIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_uid != 0 || (st.st_mode & 022)) {
		sb_addf(err, "the sandbox uid lock folder must be a folder of root's that only root "
		        "writes (%s)", SC_DYNUSER_LOCKDIR);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The lock of uid, held (its descriptor), or -1 when another run holds it. */
static int try_lock(int dirfd, unsigned uid)
{
	char name[32];
	snprintf(name, sizeof name, "%u.lock", uid);
	int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int sc_dynuser_acquire(unsigned *uid, struct strbuf *err)
{
	unsigned start;
	if (getrandom(&start, sizeof start, 0) != (ssize_t)sizeof start)
		start = (unsigned)getpid();
	return sc_dynuser_acquire_at(start, uid, err);
}

int sc_dynuser_acquire_at(unsigned start, unsigned *uid, struct strbuf *err)
{
	int dfd = lock_dir(err);
	if (dfd < 0)
		return -1;
	int got = 0;
	for (unsigned i = 0; i < RANGE && !got; i++) {
		unsigned u = SC_DYNUSER_FIRST + (start + i) % RANGE;
		if (getpwuid((uid_t)u) || getgrgid((gid_t)u))
			continue;
		int fd = try_lock(dfd, u);
		if (fd < 0)
			continue;
		int busy = sc_dynuser_in_use(u);
		if (busy == 0) {
			*uid = u; /* fd stays open: the lock lives as long as we do */
			got = 1;
			continue;
		}
		close(fd);
		if (busy < 0) {
			sb_addf(err, "cannot tell whether a process runs as uid %u (/proc/self/stat)", u);
			close(dfd);
			return -1;
		}
	}
	close(dfd);
	if (!got)
		sb_addf(err, "no free sandbox uid in %u-%u: each is a user, a group, a process's or "
		        "another run's: name the sandbox's user", SC_DYNUSER_FIRST, SC_DYNUSER_LAST);
	return got ? 0 : -1;
}
