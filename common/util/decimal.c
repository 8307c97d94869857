#include "util/decimal.h"

#include <string.h>

int sc_decimal(const char *s, size_t n, unsigned long long min, unsigned long long max,
               unsigned long long *v)
{
	unsigned long long x = 0;
	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (d > max || x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (x < min)
		return -1;
	*v = x;
	return 0;
}

int sc_decimal_int(const char *s, int min, int max, int *v)
{
	unsigned long long x;
	if (min < 0 || sc_decimal(s, strlen(s), (unsigned long long)min, (unsigned long long)max, &x) < 0)
		return -1;
	*v = (int)x;
	return 0;
}

int sc_decimal_uint(const char *s, unsigned min, unsigned max, unsigned *v)
{
	unsigned long long x;
	if (sc_decimal(s, strlen(s), min, max, &x) < 0)
		return -1;
	*v = (unsigned)x;
	return 0;
}
