/* Decimal thousandths, read from argv and written back. */
#include "util/milli.h"

#include <stdio.h>
#include <string.h>

int sc_parse_milli(const char *s, long long max, long long *out)
{
	long long v = 0;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > max / 1000)
			return -1;
	}
	int decimals = 0;
	v *= 1000;
	if (*p == '.') {
		long long scale = 100;
		for (p++; *p >= '0' && *p <= '9'; p++, decimals++) {
			if (decimals == 3)
				return -1;
			v += (*p - '0') * scale;
			scale /= 10;
		}
		if (!decimals)
			return -1;
	}
	if (*p)
		return -1;
	*out = v;
	return 0;
}

void sc_format_milli(long long v, struct strbuf *out)
{
	sb_addf(out, "%lld", v / 1000);
	long long frac = v % 1000;
	if (!frac)
		return;
	char digits[8];
	snprintf(digits, sizeof digits, ".%03lld", frac);
	size_t n = strlen(digits);
	while (digits[n - 1] == '0')
		digits[--n] = '\0';
	sb_adds(out, digits);
}
