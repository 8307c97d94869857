#include "sandbox/hostfile.h"
#include "util/die.h"
#include "util/pathcheck.h"
#include "util/safefile.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The unfinished time file: removed, and its name freed, on every way out
 * that dies (a name only the stack holds would count as a leak). */
void sc_time_file_abandon(char *tmp)
{
	unlink(tmp);
	free(tmp);
}

/* --log: the run's stdout and stderr (untrusted text, bounded), written
 * whole under a temporary name, then renamed; never printed, never parsed. */
void sc_sandbox_write_log(const char *log, const struct sc_sandbox_result *r)
{
	struct strbuf text = STRBUF_INIT;
	sb_add(&text, r->output.buf, r->output.len);
	if (r->dropped)
		sb_addf(&text, "\n[sc-sandbox-exec: %zu more bytes of output dropped]\n", r->dropped);
	sc_write_file_atomic_or_die(log, text.buf, text.len, "log");
	sb_release(&text);
}

/* A new file outside every mount of the sandbox, for the time file and the log. */
char *sc_host_file(const char *in, const char *what, const char *const *dirs, const char *const *names)
{
	char *f = sc_canonical_new_file(in);
	if (!f) {
		if (errno == EEXIST)
			sc_die("the %s already exists (%s)", what, in);
		sc_die_path_errno("the %s's folder is not usable (%s)", what, in);
	}
	for (int i = 0; dirs[i]; i++)
		if (sc_path_within(f, dirs[i]))
			sc_die("the %s lies inside %s: the sandbox could write it (%s)", what, names[i], f);
	return f;
}

char *sc_time_file_begin(const char *time_file)
{
	char *tmp = xasprintf("%s.tmp-XXXXXX", time_file);
	int fd = mkstemp(tmp);
	if (fd < 0)
		sc_die_path_errno("cannot create the time file (%s)", tmp);
	if (fchmod(fd, 0644) < 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		sc_die_sys_errno("cannot create the time file (%s)", tmp);
	}
	close(fd);
	return tmp;
}

void sc_time_file_commit(char *tmp, const char *time_file)
{
	int tfd = open(tmp, O_RDONLY | O_CLOEXEC);
	if (tfd < 0 || fsync(tfd) < 0 || renameat2(AT_FDCWD, tmp, AT_FDCWD, time_file, RENAME_NOREPLACE) < 0) {
		int e = errno;
		sc_time_file_abandon(tmp);
		errno = e;
		sc_die_sys_errno("cannot put the time file in place (%s)", time_file);
	}
	close(tfd);
}
