#ifndef SC_FDKEEP_H
#define SC_FDKEEP_H
/* Close every descriptor from 3 up but KEEP[0..N) (ascending, unique):
 * the host step and PID 1 each hand on only what the next program needs.
 * Returns 0, or -1 with errno (close_range). */
int sc_close_all_but(const int *keep, int n);

#endif
