#ifndef SC_MILLI_H
#define SC_MILLI_H
/* Numbers in thousandths (a threshold of 1.5 is 1500), as people write
 * them: the one reader and writer of a decimal fraction in argv. */
#include "util/strbuf.h"

/* A decimal string with at most three decimals ("1.5", "30", "0.001") to
 * thousandths, at most MAX; no sign, no exponent.  Returns 0 or -1. */
int sc_parse_milli(const char *s, long long max, long long *out);
/* Thousandths as the shortest decimal: 1500 -> "1.5", 30000 -> "30". */
void sc_format_milli(long long v, struct strbuf *out);

#endif
