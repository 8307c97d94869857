#include "sandbox/dynuser.h"

#include <dirent.h>
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
#include <unistd.h>

#define RANGE (SC_DYNUSER_LAST - SC_DYNUSER_FIRST + 1)

static void mark(unsigned char *used, const char *fields)
{
	for (int i = 0; i < 4; i++) {
		char *end;
		unsigned long v = strtoul(fields, &end, 10);
		if (end == fields)
			return;
		if (v >= SC_DYNUSER_FIRST && v <= SC_DYNUSER_LAST)
			used[v - SC_DYNUSER_FIRST] = 1;
		fields = end;
	}
}

/* One process's Uid: and Gid: lines (a process gone meanwhile is skipped). */
static void scan_one(int procfd, const char *pid, unsigned char *used)
{
	char path[64], buf[4096];
	snprintf(path, sizeof path, "%s/status", pid);
	int fd = openat(procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (const char *key = "\nUid:"; key; key = key[1] == 'U' ? "\nGid:" : NULL) {
		const char *p = strstr(buf, key);
		if (p)
			mark(used, p + 5);
	}
}

int sc_dynuser_scan(const char *proc, unsigned char *used)
{
	DIR *d = opendir(proc);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			scan_one(dirfd(d), e->d_name, used);
	closedir(d);
	return 0;
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

/* 1 when uid is ours now (its lock held until we exit), 0 when taken. */
static int try_lock(int dirfd, unsigned uid)
{
	char name[32];
	snprintf(name, sizeof name, "%u.lock", uid);
	int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		return 0;
	}
	return 1; /* fd stays open: the lock lives as long as we do */
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
	unsigned char used[RANGE] = {0};
	if (sc_dynuser_scan("/proc", used) < 0) {
		sb_addf(err, "cannot list the host's processes to find a free sandbox uid (/proc)");
		return -1;
	}
	int dfd = lock_dir(err);
	if (dfd < 0)
		return -1;
	int got = 0;
	for (unsigned i = 0; i < RANGE && !got; i++) {
		unsigned u = SC_DYNUSER_FIRST + (start + i) % RANGE;
		if (used[u - SC_DYNUSER_FIRST] || getpwuid((uid_t)u) || getgrgid((gid_t)u))
			continue;
		if (try_lock(dfd, u)) {
			*uid = u;
			got = 1;
		}
	}
	close(dfd);
	if (!got)
		sb_addf(err, "no free sandbox uid in %u-%u: each is a user, a group, a process's or "
		        "another run's; name one with --sandbox-user", SC_DYNUSER_FIRST, SC_DYNUSER_LAST);
	return got ? 0 : -1;
}
