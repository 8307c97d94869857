#ifndef SC_STOPSIGNALS_H
#define SC_STOPSIGNALS_H
/* The stop signals, and the ones a program must leave alone. */
#include <signal.h>
#include <stddef.h>

/* What asks a program to stop, one list for the porcelain and the sandbox:
 * SIGINT and SIGQUIT (the terminal's Ctrl-C and Ctrl-\), SIGHUP (the
 * terminal or session went away), SIGTERM (kill, a supervisor, our
 * parent's death).  Each of them means "stop now, clean up": left at its
 * default, SIGQUIT would end us with the workspace and the time file's
 * temporary behind.  SIGPIPE is not one: it says a write failed, which the
 * write's own error reports. */
extern const int sc_stop_signals[];
extern const size_t sc_stop_signals_n;

/* A stop signal that was ignored when we were started (nohup, a job that a
 * script put in the background) stays ignored: whoever started us chose
 * that, and a Ctrl-C meant for the script must not end the run.  Ask this
 * before installing a handler of our own for sig. */
int sc_signal_ignored(int sig);

/* *set = the stop signals not ignored when we were started. */
void sc_stop_signal_set(sigset_t *set);

#endif
