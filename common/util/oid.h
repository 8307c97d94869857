#ifndef SC_OID_H
#define SC_OID_H
#include <stddef.h>

/* A full object ID: exactly hexsz (40 or 64) hex digits.  Uppercase is
 * accepted and lowered in place into out (hexsz+1 bytes).  Returns 0 or -1. */
int sc_oid_normalize(const char *in, int hexsz, char *out);
/* 1 if s is exactly n lowercase hex digits. */
int sc_is_lower_hex(const char *s, size_t n);

/* Hex digits of an object ID in a repository of this object format:
 * 40 for "sha1", 64 for "sha256", 0 for anything else. */
int sc_hexsz_of_format(const char *format);

#endif
