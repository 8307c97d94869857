#include "porcelain/progress.h"
#include "util/die.h"

#include <stdarg.h>
#include <stdio.h>

void sc_progress_next(struct sc_progress *p) { p->step++; }

void sc_progress_say(const struct sc_progress *p, const char *fmt, ...)
{
	if (p->quiet)
		return;
	char prefix[64], line[8192];
	snprintf(prefix, sizeof prefix, "[%d/%d] ", p->step, p->steps);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	sc_say(stderr, prefix, "%s", line); /* names from the candidate's tree: quoted */
}
