#ifndef SC_CLOSEOUT_H
#define SC_CLOSEOUT_H
/* What a tool prints on stdout is its result: a write that failed late
 * (full disk, /dev/full, an I/O error surfacing only at fflush or close)
 * must not end in exit 0.  Call once at the start of main; at exit, stdout
 * is flushed and closed, and a failure becomes one error line and exit 3
 * (SC_EXIT_SYSTEM: the machine failed, not the input). */
void sc_check_stdout_at_exit(void);

#endif
