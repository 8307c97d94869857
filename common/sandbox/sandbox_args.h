#ifndef SC_SANDBOX_ARGS_H
#define SC_SANDBOX_ARGS_H
/* The command line of one sandboxed run: GNU time around bwrap around
 * sc-init.  Kept in one place so that the run, the self-test and the man
 * page describe the same sandbox. */
#include "util/argv.h" /* struct sc_argv */
#include "util/strbuf.h"

/* Fixed places inside the sandbox. */
#define SC_SANDBOX_PROJECT "/project"
#define SC_SANDBOX_TOOLCHAIN "/toolchain"
#define SC_SANDBOX_LAKE ".lake" /* the one writable folder of the tree */
#define SC_SANDBOX_DEPS "/project/.lake/packages"
#define SC_SANDBOX_INIT "/sc-init"
#define SC_SANDBOX_PROBE "/sc-sandbox-probe" /* the self-test's command, only there */
#define SC_SANDBOX_PATH "/toolchain/bin:/usr/bin:/bin"
#define SC_SANDBOX_HOME "/tmp/home"
/* Lake's cache folder: the operator's --cache, read-only, else one of the
 * sandbox's own in its private /tmp. */
#define SC_SANDBOX_LAKE_CACHE "/lake-cache"
#define SC_SANDBOX_OWN_CACHE "/tmp/lake-cache"
/* The private /tmp lives in host RAM: bounded.  1 GiB by default. */
#define SC_SANDBOX_TMP_DEFAULT (1ull << 30)
/* RLIMIT_NPROC of the sandbox user (--max-procs): counts threads too.  Above
 * what real Lake and Lean start on a big machine (about one Lean per core,
 * each with up to a worker thread per core: 4096 covers 60 cores), far below
 * what stalls a host. */
#define SC_SANDBOX_MAX_PROCS_DEFAULT 4096u
#include "contract/scratch.h"
#include "sandbox/gnutime.h"
#define SC_GNU_TIME SC_GNU_TIME_PATH

struct sc_sandbox {
	const char *bwrap;     /* canonical path of the bwrap binary */
	const char *init;      /* canonical path of sc-init on the host */
	const char *host_step; /* canonical path of sc-confine, beside it */
	const char *probe;     /* sc-sandbox-probe, bound at SC_SANDBOX_PROBE; NULL: none */
	const char *tree;      /* canonical; read-only at /project, its .lake read-write */
	const char *const *sealed; /* paths below TREE/.lake, read-only on top; NULL-terminated or NULL */
	int lake_read_only;    /* TREE/.lake read-only too: a step that must leave nothing behind */
	const char *toolchain; /* canonical; read-only at /toolchain */
	const char *deps;      /* canonical; read-only at /project/.lake/packages */
	const char *lake_cache; /* canonical --cache, read-only at /lake-cache; NULL: none */
	int report_fd;         /* inherited pipe to the host (sc-init's REPORT_FD) */
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

/* --tmp-size: bytes, with an optional K, M or G suffix (powers of 1024),
 * at least 1 MiB.  Returns 0, or -1 when s is not such a size, with what
 * such a value wants in WHY (the caller names its flag). */
int sc_sandbox_tmp_size(const char *s, unsigned long long *bytes, struct strbuf *why);

/* The inodes of a bounded tmpfs of BYTES: one per 16 KiB, never fewer
 * than 1024 (65536 for the default 1 GiB).  An empty file uses no block
 * but about a KiB of host memory, charged to no process.
 * Documentation/threat-model.txt "Kernel-wide pools". */
unsigned sc_sandbox_tmp_inodes(unsigned long long bytes);

/* --max-procs: a decimal count in [SC_SANDBOX_MAX_PROCS_MIN, 4194304].
 * Returns 0, or -1 when s is not such a count, with what such a value
 * wants in WHY. */
#define SC_SANDBOX_MAX_PROCS_MIN 8u
int sc_sandbox_max_procs(const char *s, unsigned *n, struct strbuf *why);

/* The open files each sandboxed process may hold, so that all of them
 * together (MAX_PROCS of them) hold at most half of the kernel's file
 * table (fs.file-max, FILE_MAX): never above 1024, the usual default under
 * which Lean and Lake run, nor below 256.  Documentation/threat-model.txt
 * "Kernel-wide pools". */
#define SC_SANDBOX_MAX_FILES_CEIL 1024u
#define SC_SANDBOX_MAX_FILES_FLOOR 256u
unsigned sc_sandbox_max_files(unsigned long long file_max, unsigned max_procs);

/* Append "sc-confine --uid UID --gid GID --max-procs N --tmpfs-size B --tmpfs-inodes N
 * --keep-fd FD --keep-fd FD --
 * bwrap OPTIONS -- /sc-init FD" to a (the seccomp filter's --keep-fd and bwrap's --seccomp
 * only when sb->seccomp_fd > 2); the caller appends "[--keep-output] -- CMD ARG...". */
void sc_sandbox_bwrap_argv(const struct sc_sandbox *sb, struct sc_argv *a);

/* Append "/usr/bin/time -o TIME_FILE -f FORMAT" to a. */
void sc_sandbox_time_argv(const char *time_file, struct sc_argv *a);

#endif
