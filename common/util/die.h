#ifndef SC_DIE_H
#define SC_DIE_H
/* Error reporting: every tool prints exactly one line
 *   sc-<tool>: error: <what> (<where>)
 * on stderr and exits nonzero.  Exit codes are shared by all tools so that
 * the dispatcher can tell a failed measurement from bad input. */

#define SC_EXIT_OK 0
#define SC_EXIT_FAIL 1   /* the work ran and failed: measurement error, bad sample */
#define SC_EXIT_USAGE 2  /* bad flags, bad input, unmet precondition */

void sc_set_progname(const char *argv0);
const char *sc_progname(void);

/* Print "sc-x: error: ..." and exit with code. */
_Noreturn void sc_die_code(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Same, exit code SC_EXIT_USAGE. */
_Noreturn void sc_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same with ": strerror(errno)" appended before nothing else. */
_Noreturn void sc_die_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A note every later error line carries before its "(where)", e.g. that a
 * folder left behind must be removed to retry; NULL for none. */
void sc_die_set_note(const char *note);
/* Print the error line without exiting (for tools that clean up first). */
void sc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
