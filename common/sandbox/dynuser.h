#ifndef SC_DYNUSER_H
#define SC_DYNUSER_H
/* A uid/gid of the run's own (DESIGN.md "Sealed measurement"), modelled on
 * systemd's DynamicUser: a number in SC_DYNUSER_FIRST..SC_DYNUSER_LAST that
 * no user or group of the host names (getpwuid/getgrgid, so NSS modules
 * such as systemd's own dynamic users count), no running process holds as
 * any of its uids or gids, and no other run holds: each run keeps an
 * exclusive flock on SC_DYNUSER_LOCKDIR/UID.lock for as long as it lives
 * (the kernel drops it when the holder dies, however it dies; the empty
 * files stay, /run is cleared at boot).  The gid is the same number. */
#include "util/strbuf.h"

#define SC_DYNUSER_FIRST 61184u
#define SC_DYNUSER_LAST 65519u
#define SC_DYNUSER_LOCKDIR "/run/sphereceti"

/* Root only.  Picks a free uid from a random start, locks it for the rest
 * of this process's life (the lock's descriptor is close-on-exec: a child
 * never holds it past us).  Returns 0, or -1 with the reason in err. */
int sc_dynuser_acquire(unsigned *uid, struct strbuf *err);
/* The same from SC_DYNUSER_FIRST + start % range on (tests: a fixed start). */
int sc_dynuser_acquire_at(unsigned start, unsigned *uid, struct strbuf *err);

/* Mark in used[] (one byte per uid of the range) every uid and gid of the
 * range that a process in /proc holds, real, effective, saved or
 * filesystem.  Returns 0, or -1 when /proc cannot be read. */
int sc_dynuser_scan(const char *proc, unsigned char *used);

#endif
