#ifndef SC_GNUTIME_H
#define SC_GNUTIME_H
/* GNU time is the host-side counter of every sandboxed run. */
#define SC_GNU_TIME_PATH "/usr/bin/time"

/* Is SC_GNU_TIME_PATH GNU time?  `time --version` (empty environment)
 * says "GNU Time".  Asked once, where a host is judged (profile-run's
 * preconditions, the self-test), never per sandboxed run: a program that
 * is not GNU time writes no sc-time/1 file, and its run's sample is
 * invalid_counters.  Returns 0, or -1 with errno (ENOENT, ENOEXEC for a
 * different program). */
int sc_gnu_time_check(void);

#endif
