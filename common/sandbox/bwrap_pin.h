#ifndef SC_BWRAP_PIN_H
#define SC_BWRAP_PIN_H
/* The bubblewrap pin (DESIGN.md "The sandbox holds against hostile code"):
 * the sandbox trusts only the binary whose SHA-256 and version the tooling
 * commit's .sphereceti names. */

/* The pinned SHA-256 in lowercase: 0, or -1 when it is not 64 hex digits. */
int sc_bwrap_pin_sha(const char *want, char lower[65]);

/* Dies (exit 2, with the remedy) unless BWRAP hashes to WANT_SHA and its
 * --version says WANT_VERSION (with or without "bubblewrap "); prints the
 * match on stdout.  Returns the exit code. */
int sc_bwrap_pin_check(const char *bwrap, const char *want_sha, const char *want_version);

#endif
