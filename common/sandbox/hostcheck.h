#ifndef SC_HOSTCHECK_H
#define SC_HOSTCHECK_H
/* The host's checks before a sandbox starts (Documentation/threat-model.txt "The sandbox holds
 * against hostile code"), shared by a command's run and the self-test.
 * Each dies with one error line, exit 2: what it finds wrong is the
 * operator's to fix (a path, a permission, a missing program). */
#include "sandbox/sandbox_args.h"

/* Descriptors 0, 1 and 2 open (on /dev/null if closed), so no pipe of ours
 * lands there; dies (exit 3) when that fails. */
void sc_sandbox_sane_stdio(void);

/* The canonical path of the bubblewrap binary (allocated). */
char *sc_sandbox_resolve_bwrap(const char *path);

/* GNU time is where SC_GNU_TIME_PATH says (sc_gnu_time_check: asked where a
 * host is judged, not per run); else one error line, exit 2. */
void sc_sandbox_check_gnu_time(void);

/* sc-pid1 beside this program (build tree), in ../libexec/sphereceti
 * (installed), or in LIBEXECDIR/sphereceti, the folder the build was
 * configured with.  Canonical, allocated. */
char *sc_sandbox_find_init(const char *libexecdir);

/* NAME, a standalone program installed with sc-pid1 (sc-confine,
 * sc-sandbox-probe), in INIT's folder itself, not a link out of it: what
 * is checked of sc-pid1's place holds for it.  Canonical, allocated. */
char *sc_sandbox_beside_init(const char *init, const char *name);

/* Run as root, the sandbox user must search every folder down to path;
 * WHAT names it in the error. */
void sc_sandbox_check_reachable(const struct sc_sandbox *sb, const char *path, const char *what);

/* Die of sig, which we held and took up: default action, unblocked. */
_Noreturn void sc_sandbox_reraise(int sig);

#endif
