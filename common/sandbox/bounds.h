#ifndef SC_SANDBOX_BOUNDS_H
#define SC_SANDBOX_BOUNDS_H
/* What a sandbox may take of the host, and the options that set it
 * (--tmp-size, --max-procs): each value's parser and its bound. */
#include "util/strbuf.h"

/* The private /tmp lives in host RAM: bounded.  1 GiB by default. */
#define SC_SANDBOX_TMP_DEFAULT (1ull << 30)
/* RLIMIT_NPROC of the sandbox user (--max-procs): counts threads too.  Above
 * what real Lake and Lean start on a big machine (about one Lean per core,
 * each with up to a worker thread per core: 4096 covers 60 cores), far below
 * what stalls a host. */
#define SC_SANDBOX_MAX_PROCS_DEFAULT 4096u

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

#endif
