#ifndef SC_SECCOMP_RULES_H
#define SC_SECCOMP_RULES_H
/* The rule table of the sandbox's seccomp filter (sandbox/seccomp.h says
 * what it refuses and why), in libseccomp's terms.  libseccomp compiles it
 * to BPF once, at build time (common/gen/seccomp-bpf.c): a run loads the
 * bytes, it does not build the filter again.  t/unit/
 * test_seccomp.c holds the bytes to what libseccomp makes of this table. */
#include <seccomp.h>

/* A filter (default: allow) holding every rule, or NULL.  The caller
 * releases it (seccomp_release). */
scmp_filter_ctx sc_seccomp_rules(void);

#endif
