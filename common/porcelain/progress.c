#include "porcelain/progress.h"

#include <stdarg.h>
#include <stdio.h>

void sc_progress_next(struct sc_progress *p) { p->step++; }

void sc_progress_say(const struct sc_progress *p, const char *fmt, ...)
{
	if (p->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "[%d/%d] ", p->step, p->steps);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
	va_end(ap);
}
