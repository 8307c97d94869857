#include "util/die.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *progname = "sphereceti";
static const char *note;

void sc_die_set_note(const char *n) { note = n; }

/* "what (where)" -> "what<SEP>TEXT (where)"; without a "(where)", at the
 * end: a note ("; ..."), or the cause of an errno (": ..."). */
static void add_before_where(char *raw, size_t size, const char *sep, const char *text)
{
	size_t n = strlen(raw);
	char *at = raw + n;
	if (n && raw[n - 1] == ')')
		for (char *p = raw + n - 1; p > raw; p--)
			if (p[0] == '(' && p[-1] == ' ') {
				at = p - 1;
				break;
			}
	char tail[2048];
	snprintf(tail, sizeof tail, "%s", at);
	snprintf(at, size - (size_t)(at - raw), "%s%s%s", sep, text, tail);
}

void sc_set_progname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	progname = slash ? slash + 1 : argv0;
}

const char *sc_progname(void) { return progname; }

/* One line, one write: keeps the message whole when stderr is shared. */
static void emit(const char *kind, const char *lead, const char *fmt, va_list ap,
                 const char *suffix)
{
	char raw[2048], msg[4 * sizeof raw];
	int n = vsnprintf(raw, sizeof raw, fmt, ap);
	if (n < 0)
		raw[0] = '\0';
	if (suffix)
		add_before_where(raw, sizeof raw, ": ", suffix);
	if (note && strcmp(kind, "error") == 0)
		add_before_where(raw, sizeof raw, "; ", note);
	sc_quote_line(raw, strlen(raw), msg, sizeof msg);
	fprintf(stderr, "%s: %s: %s%s\n", progname, kind, lead, msg);
	fflush(stderr);
}

void sc_quote_line(const char *raw, size_t n, char *out, size_t size)
{
	size_t k = 0;
	for (const unsigned char *p = (const unsigned char *)raw; p < (const unsigned char *)raw + n; p++) {
		if (k + 5 >= size)
			break;
		if (*p == '\n' || *p == '\r' || *p == '\t')
			out[k++] = ' ';
		else if (*p < 0x20 || *p == 0x7f)
			k += (size_t)snprintf(out + k, size - k, "\\x%02x", *p);
		else
			out[k++] = (char)*p;
	}
	out[k] = '\0';
}

static void say_va(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	char raw[4096], msg[4 * sizeof raw];
	int n = vsnprintf(raw, sizeof raw, fmt, ap);
	sc_quote_line(raw, n < 0 ? 0 : strlen(raw), msg, sizeof msg);
	fprintf(f, "%s%s\n", prefix, msg);
	fflush(f);
}

void sc_say(FILE *f, const char *prefix, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say_va(f, prefix, fmt, ap);
	va_end(ap);
}

void sc_warning(const char *fmt, ...)
{
	char prefix[256];
	snprintf(prefix, sizeof prefix, "%s: warning: ", progname);
	va_list ap;
	va_start(ap, fmt);
	say_va(stderr, prefix, fmt, ap);
	va_end(ap);
}

void sc_forward_lines(FILE *f, const char *buf, size_t len)
{
	while (len) {
		size_t n = 0;
		while (n < len && buf[n] != '\n')
			n++;
		char msg[4 * 4096];
		sc_quote_line(buf, n, msg, sizeof msg);
		fprintf(f, "%s\n", msg);
		buf += n < len ? n + 1 : n;
		len -= n < len ? n + 1 : n;
	}
	fflush(f);
}

static _Noreturn void die_va(int code, const char *suffix, const char *fmt, va_list ap)
{
	/* a change not measured by policy is said so in one place */
	emit("error", code == SC_EXIT_POLICY ? "not measured: " : "", fmt, ap, suffix);
	exit(code);
}

/* Each entry point only picks its code; errno is read before anything
 * else can change it. */
#define DIE_WITH(code, suffix)            \
	do {                              \
		const char *why_ = (suffix); \
		va_list ap;               \
		va_start(ap, fmt);        \
		die_va((code), why_, fmt, ap); \
	} while (0)

void sc_die_code(int code, const char *fmt, ...) { DIE_WITH(code, NULL); }
void sc_die(const char *fmt, ...) { DIE_WITH(SC_EXIT_USAGE, NULL); }
void sc_die_policy(const char *fmt, ...) { DIE_WITH(SC_EXIT_POLICY, NULL); }

const char *sc_errno_text(int e)
{
	/* A full disk is said one way in every tool and every test. */
	return e == ENOSPC ? "no space left on device" : strerror(e);
}

int sc_errno_is_input(int e)
{
	switch (e) {
	case ENOENT: case ENOTDIR: case EACCES: case EPERM: case ENAMETOOLONG: case ELOOP: case EROFS:
		return 1;
	default:
		return 0;
	}
}

void sc_die_path_errno(const char *fmt, ...)
{
	int e = errno;
	DIE_WITH(sc_errno_is_input(e) ? SC_EXIT_USAGE : SC_EXIT_SYSTEM, sc_errno_text(e));
}

void sc_die_fail(const char *fmt, ...) { DIE_WITH(SC_EXIT_FAIL, NULL); }
void sc_die_sys(const char *fmt, ...) { DIE_WITH(SC_EXIT_SYSTEM, NULL); }
void sc_die_sys_errno(const char *fmt, ...) { DIE_WITH(SC_EXIT_SYSTEM, sc_errno_text(errno)); }

void sc_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("error", "", fmt, ap, NULL);
	va_end(ap);
}
