#include "util/closeout.h"
#include "util/die.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void close_stdout(void)
{
	int pending = __fpending(stdout) != 0;
	int failed_before = ferror(stdout);
	errno = 0;
	int failed_close = fclose(stdout) != 0;
	int e = errno;
	/* A stdout closed by our caller is only an error if we wrote to it. */
	if (failed_before || (failed_close && (pending || e != EBADF))) {
		const char *why = e ? sc_errno_text(e) : "write error";
		sc_error("cannot write standard output: %s (stdout)", why);
		_exit(SC_EXIT_SYSTEM);
	}
}

void sc_check_stdout_at_exit(void)
{
	atexit(close_stdout);
}
