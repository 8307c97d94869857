#ifndef SC_SANDBOX_ARGS_H
#define SC_SANDBOX_ARGS_H
/* The command line of one sandboxed run: GNU time around bwrap around
 * sc-pid1.  Kept in one place so that the run, the self-test and the man
 * page describe the same sandbox. */
#include "util/argv.h" /* struct sc_argv */
#include "util/strbuf.h"
#include "sandbox/bounds.h"

/* Fixed places inside the sandbox. */
#define SC_SANDBOX_PROJECT "/project"
#define SC_SANDBOX_TOOLCHAIN "/toolchain"
#define SC_SANDBOX_LAKE ".lake" /* the one writable folder of the tree */
#define SC_SANDBOX_DEPS "/project/.lake/packages"
#define SC_SANDBOX_INIT "/sc-pid1"
#define SC_SANDBOX_PROBE "/sc-sandbox-probe" /* the self-test's command, only there */
#define SC_SANDBOX_PATH "/toolchain/bin:/usr/bin:/bin"
#define SC_SANDBOX_HOME "/tmp/home"
/* Lake's cache folder: the operator's --cache, read-only, else one of the
 * sandbox's own in its private /tmp. */
#define SC_SANDBOX_LAKE_CACHE "/lake-cache"
#define SC_SANDBOX_OWN_CACHE "/tmp/lake-cache"
#include "contract/scratch.h"
#include "sandbox/gnutime.h"
#define SC_GNU_TIME SC_GNU_TIME_PATH

struct sc_sandbox {
	const char *bwrap;     /* canonical path of the bwrap binary */
	const char *init;      /* canonical path of sc-pid1 on the host */
	const char *host_step; /* canonical path of sc-confine, beside it */
	const char *probe;     /* sc-sandbox-probe, bound at SC_SANDBOX_PROBE; NULL: none */
	const char *tree;      /* canonical; read-only at /project, its .lake read-write */
	const char *const *sealed; /* paths below TREE/.lake, read-only on top; NULL-terminated or NULL */
	int lake_read_only;    /* TREE/.lake read-only too: a step that must leave nothing behind */
	const char *toolchain; /* canonical; read-only at /toolchain */
	const char *deps;      /* canonical; read-only at /project/.lake/packages */
	const char *lake_cache; /* canonical --cache, read-only at /lake-cache; NULL: none */
	int report_fd;         /* inherited pipe to the host (sc-pid1's REPORT_FD) */
	unsigned uid, gid;     /* host uid/gid the sandbox runs as (never 0) */
	int own_uid;           /* uid/gid are the run's own (sandbox/dynuser.h), not named */
	unsigned long long tmp_size; /* bytes of the private /tmp, and of /dev/shm */
	unsigned max_procs;    /* RLIMIT_NPROC of the sandbox user; 0: the default */
	unsigned max_files;    /* hard RLIMIT_NOFILE of every sandboxed process; 0: unchanged */
	int seccomp_fd;        /* inherited memfd with the filter (bwrap --seccomp), > 2 */
	int keep_output;       /* --log: the candidate's stdout and stderr reach the host */
};

/* --log keeps at most this much of a run's stdout and stderr (together). */
#define SC_SANDBOX_LOG_MAX (2u << 20)

/* Append "sc-confine --uid UID --gid GID --max-procs N --tmpfs-size B --tmpfs-inodes N
 * --keep-fd FD --keep-fd FD --
 * bwrap OPTIONS -- /sc-pid1 FD" to a (the seccomp filter's --keep-fd and bwrap's --seccomp
 * only when sb->seccomp_fd > 2); the caller appends "[--keep-output] -- CMD ARG...". */
void sc_sandbox_bwrap_argv(const struct sc_sandbox *sb, struct sc_argv *a);

/* Append "/usr/bin/time -o TIME_FILE -f FORMAT" to a. */
void sc_sandbox_time_argv(const char *time_file, struct sc_argv *a);

#endif
