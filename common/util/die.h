#ifndef SC_DIE_H
#define SC_DIE_H
/* Error reporting: every tool prints exactly one line
 *   sc-<tool>: error: <what> (<where>)
 * on stderr and exits nonzero.  The function called fixes the exit code
 * (execline's strerr_dieusage/strerr_diefu idea), the same in every tool,
 * so a caller can tell what to do next: fix its input (2), look at the
 * machine (3), read the report (1), or nothing at all (4: the change is
 * one sphereceti does not measure). */

#include <stddef.h>
#include <stdio.h>

/* The class of a failure, which is the exit code.  A library function
 * that can fail in more than one class returns it (SC_EXIT_OK when it did
 * not fail) with its reason in a strbuf, or dies with it; one that fails
 * in one way only returns 0 or -1 and leaves the class to its caller
 * (Documentation/architecture.txt "State flows forward"). */
enum sc_exit {
	SC_EXIT_OK = 0,
	SC_EXIT_FAIL = 1,   /* the work ran and failed: a measurement error, an error sample */
	SC_EXIT_USAGE = 2,  /* bad flags, bad input, unmet precondition: fix the input */
	SC_EXIT_SYSTEM = 3, /* valid input, but the system failed: out of memory, fork,
	                     * read or write errors, git failing unexpectedly */
	SC_EXIT_POLICY = 4, /* valid input, but a change sphereceti does not measure (a Lake
	                     * bump, more than 32 files, a name Lake cannot build): nothing
	                     * is wrong and nothing ran; Documentation/planning.txt
	                     * "Not measured by policy" */
};

void sc_set_progname(const char *argv0);
const char *sc_progname(void);

/* Print "sc-x: error: ..." and exit with code. */
_Noreturn void sc_die_code(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A change sphereceti does not measure: exit SC_EXIT_POLICY. */
_Noreturn void sc_die_policy(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Bad input: exit SC_EXIT_USAGE. */
_Noreturn void sc_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The _errno forms put errno's cause before the "(where)": one line
 *   what: cause (where)
 * whichever function is called.  A path the operator named (or their
 * TMPDIR) could not be used: bad input (2) when errno blames the path
 * (sc_errno_is_input), a system failure (3) when it blames the machine (a
 * full disk at mkstemp is the machine's).  The one place errno decides an
 * exit code. */
_Noreturn void sc_die_path_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 when errno E says the path is at fault (a missing or non-directory
 * component, no permission, read-only, too long, a link loop), 0 when it
 * says the machine failed (a full disk, an I/O error, no memory). */
int sc_errno_is_input(int e);
/* The work failed: exit SC_EXIT_FAIL. */
_Noreturn void sc_die_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The system failed: exit SC_EXIT_SYSTEM (the _errno form: whatever errno
 * says, e.g. a write to stdout). */
_Noreturn void sc_die_sys(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void sc_die_sys_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* errno E's cause as error lines say it: strerror, but a full disk is
 * "no space left on device" everywhere. */
const char *sc_errno_text(int e);
/* A note every later error line carries before its "(where)", e.g. that a
 * folder left behind must be removed to retry; NULL for none. */
void sc_die_set_note(const char *note);
/* Print the error line without exiting (for tools that clean up first). */
void sc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The one quoting of every line a tool prints for a person or a CI log,
 * error lines included (Documentation/threat-model.txt "The fourth
 * round"): it stays one line (CR, LF and TAB become spaces) and no other
 * control byte reaches the reader (\xNN), so a name from candidate data
 * can neither start a line of its own (a workflow command after a CR, for
 * the Actions runner) nor rewrite the terminal (ESC).  RAW's N bytes
 * appended to OUT (SIZE bytes, always NUL-terminated, cut if need be). */
void sc_quote_line(const char *raw, size_t n, char *out, size_t size);
/* PREFIX then FMT as one quoted line on F, written at once. */
void sc_say(FILE *f, const char *prefix, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "sc-x: warning: ..." as one quoted line on stderr. */
void sc_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A stage's output passed on: each of its lines quoted. */
void sc_forward_lines(FILE *f, const char *buf, size_t len);

#endif
