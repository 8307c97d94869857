#include "util/seconds.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int sc_parse_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > SC_SECONDS_MAX)
		return -1;
	*out = v;
	return 0;
}
