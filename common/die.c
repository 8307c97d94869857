#include "die.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *progname = "sphereceti";

void sc_set_progname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	progname = slash ? slash + 1 : argv0;
}

const char *sc_progname(void) { return progname; }

/* One line, one write: keeps the message whole when stderr is shared. */
static void emit(const char *kind, const char *fmt, va_list ap, const char *suffix)
{
	char msg[2048];
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	if (n < 0)
		msg[0] = '\0';
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	fprintf(stderr, "%s: %s: %s%s%s\n", progname, kind, msg,
	        suffix ? ": " : "", suffix ? suffix : "");
	fflush(stderr);
}

void sc_die_code(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("error", fmt, ap, NULL);
	va_end(ap);
	exit(code);
}

void sc_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("error", fmt, ap, NULL);
	va_end(ap);
	exit(SC_EXIT_USAGE);
}

void sc_die_errno(const char *fmt, ...)
{
	const char *why = strerror(errno);
	va_list ap;
	va_start(ap, fmt);
	emit("error", fmt, ap, why);
	va_end(ap);
	exit(SC_EXIT_USAGE);
}

void sc_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("error", fmt, ap, NULL);
	va_end(ap);
}

void sc_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("warning", fmt, ap, NULL);
	va_end(ap);
}
