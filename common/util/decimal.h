#ifndef SC_DECIMAL_H
#define SC_DECIMAL_H
/* Unsigned decimal numbers in argv: digits only (no sign, space, base
 * prefix or suffix), within [min, max].  The one integer parser, also
 * compiled into the standalone programs (sc-confine, sc-pid1,
 * sc-sandbox-probe), which use no other part of this library but die. */
#include <stddef.h>

/* The N bytes at S as a number in [min, max] into *v; 0, or -1 when they
 * are empty, not all digits, or out of range (*v untouched). */
int sc_decimal(const char *s, size_t n, unsigned long long min, unsigned long long max,
               unsigned long long *v);

/* The same for a whole string, into an int or unsigned (max must fit). */
int sc_decimal_int(const char *s, int min, int max, int *v);
int sc_decimal_uint(const char *s, unsigned min, unsigned max, unsigned *v);

#endif
