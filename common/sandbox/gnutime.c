#include "sandbox/gnutime.h"
#include "util/run.h"
#include "util/safefile.h"
#include "util/strbuf.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int sc_gnu_time_check_version(void)
{
	static const char *const argv[] = {SC_GNU_TIME_PATH, "--version", NULL};
	static const char *const env[] = {NULL};
	struct strbuf out = STRBUF_INIT;
	int st = sc_run_capture(argv, env, NULL, SC_ERR_TO_OUT, &out);
	int ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
	         strstr(out.buf, "GNU Time");
	int e = st < 0 ? errno : ENOEXEC;
	sb_release(&out);
	if (ok)
		return 0;
	errno = e;
	return -1;
}

int sc_gnu_time_check_binary(void)
{
	struct strbuf bin = STRBUF_INIT;
	if (access(SC_GNU_TIME_PATH, X_OK) < 0 || sc_read_file(SC_GNU_TIME_PATH, &bin, 8u << 20) < 0) {
		int e = errno;
		sb_release(&bin);
		errno = e;
		return -1;
	}
	static const char ident[] = "GNU Time", status_msg[] = "Command exited with non-zero status";
	int ok = memmem(bin.buf, bin.len, ident, sizeof ident - 1) &&
	         memmem(bin.buf, bin.len, status_msg, sizeof status_msg - 1);
	sb_release(&bin);
	if (ok)
		return 0;
	errno = ENOEXEC;
	return -1;
}
