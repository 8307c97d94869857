#include "sandbox/hostcheck.h"
#include "sandbox/gnutime.h"
#include "sandbox/user.h"
#include "util/die.h"
#include "util/execdir.h"
#include "util/pathcheck.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sc_sandbox_sane_stdio(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
			sc_die_sys_errno("cannot open /dev/null (fd %d)", fd);
}

char *sc_sandbox_resolve_bwrap(const char *path)
{
	char *real = realpath(path, NULL);
	if (!real || !sc_is_executable_file(real))
		sc_die_path_errno("bubblewrap is not an executable file (%s)", path);
	return real;
}

void sc_sandbox_check_gnu_time(void)
{
	if (sc_gnu_time_check() < 0)
		sc_die("GNU time is required: %s (%s; apt-get install time)",
		       errno == ENOEXEC ? "its --version does not say GNU Time" : strerror(errno),
		       SC_GNU_TIME_PATH);
}

char *sc_sandbox_find_init(const char *libexecdir)
{
	char *dir = sc_exec_dir();
	char *cands[] = {xasprintf("%s/sc-pid1", dir), xasprintf("%s/../libexec/sphereceti/sc-pid1", dir),
	                 xasprintf("%s/sphereceti/sc-pid1", libexecdir)};
	char *found = NULL;
	for (size_t i = 0; i < 3 && !found; i++) {
		char *real = realpath(cands[i], NULL);
		if (real && sc_is_executable_file(real))
			found = real;
		else
			free(real);
	}
	if (!found)
		sc_die("the sandbox init sc-pid1 is missing (%s, %s or %s)", cands[0], cands[1], cands[2]);
	for (size_t i = 0; i < 3; i++)
		free(cands[i]);
	free(dir);
	return found;
}

char *sc_sandbox_beside_init(const char *init, const char *name)
{
	size_t dir = (size_t)(strrchr(init, '/') - init);
	char *path = xasprintf("%.*s/%s", (int)dir, init, name);
	char *real = realpath(path, NULL);
	if (!real || !sc_is_executable_file(real) || strncmp(real, init, dir + 1) != 0 ||
	    strchr(real + dir + 1, '/'))
		sc_die("%s, installed with sc-pid1, is missing (%s)", name, path);
	free(path);
	return real;
}

void sc_sandbox_check_reachable(const struct sc_sandbox *sb, const char *path, const char *what)
{
	struct strbuf err = STRBUF_INIT;
	if (geteuid() == 0 && sc_sandbox_can_reach(path, sb->uid, sb->gid, &err) < 0)
		sc_die("%s (%s)", err.buf, what);
	sb_release(&err);
}

_Noreturn void sc_sandbox_reraise(int sig)
{
	signal(sig, SIG_DFL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig);
}
