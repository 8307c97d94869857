#ifndef SC_SANDBOX_ARGS_H
#define SC_SANDBOX_ARGS_H
/* The command line of one sandboxed run: GNU time around bwrap around
 * sc-init.  Kept in one place so that the run, the self-test and the man
 * page describe the same sandbox. */
#include "stage.h" /* struct sc_argv */

/* Fixed places inside the sandbox. */
#define SC_SANDBOX_PROJECT "/project"
#define SC_SANDBOX_TOOLCHAIN "/toolchain"
#define SC_SANDBOX_DEPS "/project/.lake/packages"
#define SC_SANDBOX_INIT "/sc-init"
#define SC_SANDBOX_PATH "/toolchain/bin:/usr/bin:/bin"
#define SC_SANDBOX_HOME "/tmp/home"
#include "gnutime.h"
#define SC_GNU_TIME SC_GNU_TIME_PATH

struct sc_sandbox {
	const char *bwrap;     /* canonical path of the bwrap binary */
	const char *init;      /* canonical path of sc-init on the host */
	const char *tree;      /* canonical; mounted read-write at /project */
	const char *toolchain; /* canonical; read-only at /toolchain */
	const char *deps;      /* canonical; read-only at /project/.lake/packages */
	int report_fd;         /* inherited pipe to the host (sc-init's REPORT_FD) */
};

/* Append "bwrap OPTIONS -- /sc-init FD" to a; the caller appends
 * "-- CMD ARG..." or "--self-test ...". */
void sc_sandbox_bwrap_argv(const struct sc_sandbox *sb, struct sc_argv *a);

/* Append "/usr/bin/time -o TIME_FILE -f FORMAT" to a. */
void sc_sandbox_time_argv(const char *time_file, struct sc_argv *a);

#endif
