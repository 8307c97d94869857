#ifndef SC_DYNUSER_H
#define SC_DYNUSER_H
/* A uid/gid of the run's own (Documentation/measurement.txt "Sealed measurement"), modelled on
 * systemd's DynamicUser: a number in SC_DYNUSER_FIRST..SC_DYNUSER_LAST that
 * no user or group of the host names (getpwuid/getgrgid, so NSS modules
 * such as systemd's own dynamic users count), no running process has as
 * its real uid (the kernel's count of the uid's processes), and no other
 * run holds: each run keeps an
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

/* 1 when a process runs as uid (the kernel's RLIMIT_NPROC count: real uid,
 * and every process of a user namespace that uid made), 0 when none, -1
 * when it cannot tell.  Root only. */
int sc_dynuser_in_use(unsigned uid);

#endif
