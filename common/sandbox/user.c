/* Who the sandbox runs as, and what that user can reach
 * (Documentation/sandbox.txt). */
#include "sandbox/user.h"
#include "contract/sandboxuser.h"
#include "sandbox/dynuser.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sc_sandbox_user(const char *spec, unsigned *uid, unsigned *gid, struct strbuf *err)
{
	int root = geteuid() == 0;
	if (!spec && !root) {
		*uid = (unsigned)getuid();
		*gid = (unsigned)getgid();
		return 0;
	}
	if (!spec) {
		if (sc_dynuser_acquire(uid, err) < 0)
			return -1;
		*gid = *uid;
		return 0;
	}
	const char *name = spec;
	const char *colon = strchr(name, ':');
	if (colon) {
		if (sc_uid_gid_parse(name, uid, gid) < 0) {
			sb_addf(err, "the sandbox's user is a USER or UID:GID");
			return -1;
		}
	} else {
		errno = 0;
		struct passwd *pw = getpwnam(name);
		if (!pw) {
			sb_addf(err, "no such user");
			return -1;
		}
		*uid = (unsigned)pw->pw_uid;
		*gid = (unsigned)pw->pw_gid;
	}
	if (*uid == 0 || *gid == 0) {
		sb_addf(err, "the sandbox never runs as root: name an unprivileged user");
		return -1;
	}
	if (!root && (*uid != (unsigned)getuid() || *gid != (unsigned)getgid())) {
		sb_addf(err, "only root can run the sandbox as another user");
		return -1;
	}
	return 0;
}

static int may_search(const struct stat *st, unsigned uid, unsigned gid)
{
	if (st->st_uid == uid)
		return (st->st_mode & S_IXUSR) != 0;
	if (st->st_gid == gid)
		return (st->st_mode & S_IXGRP) != 0;
	return (st->st_mode & S_IXOTH) != 0;
}

int sc_sandbox_can_reach(const char *path, unsigned uid, unsigned gid, struct strbuf *err)
{
	char *real = realpath(path, NULL);
	if (!real)
		return 0; /* missing: the caller's own use of it says so */
	int rc = 0;
	size_t n = strlen(real);
	for (size_t i = 1; i <= n && rc == 0; i++) {
		if (real[i] != '/' && real[i] != '\0')
			continue;
		char c = real[i];
		real[i] = '\0';
		struct stat st;
		if (stat(i == 0 ? "/" : real, &st) == 0 && S_ISDIR(st.st_mode) && !may_search(&st, uid, gid)) {
			sb_addf(err, "the sandbox user %u:%u cannot search %s (mode %03o, owner %u:%u)", uid, gid,
			        real, (unsigned)(st.st_mode & 0777), (unsigned)st.st_uid, (unsigned)st.st_gid);
			rc = -1;
		}
		real[i] = c;
	}
	free(real);
	return rc;
}
