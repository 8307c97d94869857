#ifndef SC_SIGIGN_H
#define SC_SIGIGN_H
/* A stop signal that was ignored when we were started (nohup, a job that a
 * script put in the background) stays ignored: whoever started us chose
 * that, and a Ctrl-C meant for the script must not end the run.  Ask this
 * before installing a handler of our own for sig. */
int sc_signal_ignored(int sig);

#endif
