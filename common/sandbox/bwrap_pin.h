#ifndef SC_BWRAP_PIN_H
#define SC_BWRAP_PIN_H
/* The bubblewrap pins (Documentation/planning.txt "Inputs and rules"): the sandbox trusts
 * only a binary whose SHA-256 and version one of the tooling commit's pins
 * name (one pin per host image).  In .sphereceti a pin is the line
 *     bwrapPin = VERSION SHA256
 * under [sandbox] (repeatable), or the older pair bwrapSha256 / bwrapVersion
 * (one pin). */
#include "util/strbuf.h"

#include <stddef.h>

/* The pinned SHA-256 in lowercase: 0, or -1 when it is not 64 hex digits. */
int sc_bwrap_pin_sha(const char *want, char lower[65]);

/* BWRAP's SHA-256, lowercase hex; dies when it cannot be read. */
void sc_bwrap_pin_hash(const char *bwrap, char sha[65]);

/* The line to paste under [sandbox] for BWRAP on this host,
 * "bwrapPin = VERSION SHA256", appended to LINE; dies when bubblewrap
 * cannot be hashed or asked for its version. */
void sc_bwrap_pin_line(const char *bwrap, struct strbuf *line);

/* Dies (exit 2, with the line to paste) unless BWRAP hashes to the SHA-256
 * of one of the N pins and its --version says that pin's version (with or
 * without "bubblewrap "); PINS holds SHA256, VERSION, SHA256, VERSION...
 * (2N strings).  Prints the match on stdout; returns the exit code. */
int sc_bwrap_pin_check(const char *bwrap, const char *const *pins, size_t n);

#endif
