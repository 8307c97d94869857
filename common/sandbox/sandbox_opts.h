#ifndef SC_SANDBOX_OPTS_H
#define SC_SANDBOX_OPTS_H
/* The options of every program that starts a sandbox (sc-sandbox-exec,
 * profile-run, doctor): who it runs as and what it may take of the host
 * (Documentation/sandbox.txt), each parsed and checked by one check as it
 * is read, each with one help text, so that the three programs take them
 * and refuse them alike (git's OPT_CALLBACK).  A program puts the entries
 * below in its own option table. */
#include "util/options.h"
#include "util/strbuf.h"

struct sc_sandbox_opts {
	int user_given;               /* --sandbox-user named one */
	unsigned uid, gid;            /* the sandbox's, once resolved */
	const char *tmp_size;         /* as given (checked), or NULL: passed on to a stage */
	unsigned long long tmp_bytes; /* its value; 0 when not given */
	const char *max_procs;        /* as given (checked), or NULL */
	unsigned max_procs_n;         /* its value; 0 when not given */
};

int sc_sandbox_opt_user(void *so, const char *arg, struct strbuf *why);
int sc_sandbox_opt_tmp_size(void *so, const char *arg, struct strbuf *why);
int sc_sandbox_opt_max_procs(void *so, const char *arg, struct strbuf *why);

#define SC_OPT_SANDBOX_USER(so)                                                          \
	SC_OPT_CALLBACK("sandbox-user", (so), "USER|UID:GID",                             \
	                "who the sandbox runs as (as root; default a uid of the run's own)", \
	                sc_sandbox_opt_user)
#define SC_OPT_SANDBOX_TMP_SIZE(so)                                                      \
	SC_OPT_CALLBACK("tmp-size", (so), "BYTES",                                        \
	                "size of the sandbox's /tmp and /dev/shm (K, M, G; default 1G)",  \
	                sc_sandbox_opt_tmp_size)
#define SC_OPT_SANDBOX_MAX_PROCS(so)                                                     \
	SC_OPT_CALLBACK("max-procs", (so), "N",                                           \
	                "the sandbox user's processes and threads (default 4096)",        \
	                sc_sandbox_opt_max_procs)

/* One help text for each of the inputs a sandbox mounts, in every
 * program that takes them. */
#define SC_SANDBOX_HELP_TOOLCHAIN "the Lean toolchain, holding bin/lean and bin/lake; read-only"
#define SC_SANDBOX_HELP_DEPS "prepared checkouts of the manifest's packages; read-only"
#define SC_SANDBOX_HELP_CACHE "a trusted Lake artifact cache; read-only"
#define SC_SANDBOX_HELP_BWRAP "the bubblewrap to run, which a pin must name (default /usr/bin/bwrap)"

/* After the options: the sandbox's user when none was named (the caller's
 * own, or as root a uid of the run's own, held for the whole run).  0, or
 * -1 with why not in WHY. */
int sc_sandbox_opts_finish(struct sc_sandbox_opts *so, struct strbuf *why);

#endif
