#ifndef SC_SANDBOXUSER_H
#define SC_SANDBOXUSER_H
/* The sandbox user as the stages hand it on: UID:GID in decimal, as
 * sc-sandbox-exec's --sandbox-user takes it, sc-pid1's host step drops to
 * it and sc-report records it.  One parser, one bound. */
#include <stddef.h>
#include <string.h>

#include "util/decimal.h"

/* Largest ID: (uid_t)-1 means "unchanged" to setresuid, never a user. */
#define SC_ID_MAX 0xfffffffeU

/* N bytes of S as one ID: decimal digits (util/decimal, the one argv
 * number parser), no leading zero (one spelling per number), at most
 * SC_ID_MAX.  Returns 0, or -1. */
static inline int sc_id_parse(const char *s, size_t n, unsigned *v)
{
	unsigned long long x;
	if (n > 1 && s[0] == '0')
		return -1;
	if (sc_decimal(s, n, 0, SC_ID_MAX, &x) < 0)
		return -1;
	*v = (unsigned)x;
	return 0;
}

/* "UID:GID".  Returns 0, or -1. */
static inline int sc_uid_gid_parse(const char *s, unsigned *uid, unsigned *gid)
{
	const char *colon = strchr(s, ':');
	if (!colon || sc_id_parse(s, (size_t)(colon - s), uid) < 0 ||
	    sc_id_parse(colon + 1, strlen(colon + 1), gid) < 0)
		return -1;
	return 0;
}

#endif
