#ifndef SC_SECCOMP_H
#define SC_SECCOMP_H
/* The sandbox's seccomp filter (Documentation/measurement.txt "Sealed measurement": no keyring
 * of the host, the usual container denials).  A deny list, modelled on
 * what Docker's default profile refuses, of calls real Lean and Lake never
 * make: keyrings, tracing, mounts and namespaces, modules, kexec, swap,
 * clocks, file handles, userfaultfd, BPF, perf, io_uring, odd
 * personalities.  Denied calls fail with EPERM (as Docker's); clone3 with
 * ENOSYS, so that libc falls back to clone, whose namespace flags the
 * filter can see.  Only x86_64 system calls pass: i386 (int 0x80) and x32
 * ones kill the process, so no other numbering slips past the list. */
#include "util/strbuf.h"

#include <stddef.h>

/* The filter as BPF (struct sock_filter, native byte order), compiled from
 * the rule table (sandbox/seccomp_rules.h) at build time. */
const unsigned char *sc_seccomp_filter(size_t *len);

/* The filter as BPF in a sealed memfd at offset 0, for bwrap's --seccomp
 * FD: inherited (not close-on-exec), the caller closes it once bwrap has
 * started.  Returns the descriptor, or -1 with the reason in err (errno
 * kept). */
int sc_seccomp_filter_fd(struct strbuf *err);

#endif
