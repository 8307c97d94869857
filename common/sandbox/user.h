#ifndef SC_SANDBOX_USER_H
#define SC_SANDBOX_USER_H
/* Who the sandbox runs as, and what that user can reach. */
#include "util/strbuf.h"

/* Who the sandbox runs as.  spec is NULL (the default), "USER" or
 * "UID:GID".  A root operator gets a uid/gid of the run's own by default
 * (sandbox/dynuser.h: held until this process exits) and may name any user
 * but root; any other operator runs the sandbox as itself.  Returns 0, or
 * -1 with a message in err. */
int sc_sandbox_user(const char *spec, unsigned *uid, unsigned *gid, struct strbuf *err);

/* Can uid:gid (no supplementary groups: the host step clears them) search
 * every folder from / down to path, path included?  bwrap, already running
 * as that user, must reach what it mounts.  Returns 0, or -1 naming the
 * first folder it cannot pass in err (a path that does not resolve is not
 * judged here: 0).  Only meaningful for a root operator
 * (any other runs the sandbox as itself, with its groups). */
int sc_sandbox_can_reach(const char *path, unsigned uid, unsigned gid, struct strbuf *err);

#endif
