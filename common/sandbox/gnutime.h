#ifndef SC_GNUTIME_H
#define SC_GNUTIME_H
/* GNU time is the host-side counter of every sandboxed run. */
#define SC_GNU_TIME_PATH "/usr/bin/time"

/* Thorough check, once per run: `time --version` (empty environment) says
 * "GNU Time".  Returns 0, or -1 with errno (ENOENT, ENOEXEC for a different
 * program). */
int sc_gnu_time_check_version(void);

/* Cheap check, per invocation: the binary is a regular executable file
 * that carries GNU time's identification and its exit-status message (no
 * process started: on slow hosts one process start costs more than the
 * whole sandbox set-up).  Returns 0 or -1 with errno as above. */
int sc_gnu_time_check_binary(void);

#endif
