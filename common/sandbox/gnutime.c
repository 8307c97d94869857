#include "sandbox/gnutime.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int sc_gnu_time_check(void)
{
	static const char *const argv[] = {SC_GNU_TIME_PATH, "--version", NULL};
	static const char *const env[] = {NULL};
	struct strbuf out = STRBUF_INIT;
	int st = sc_spawn_capture(argv, env, NULL, SC_ERR_TO_OUT, &out);
	int ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
	         strstr(out.buf, "GNU Time");
	int e = st < 0 ? errno : ENOEXEC;
	sb_release(&out);
	if (ok)
		return 0;
	errno = e;
	return -1;
}
