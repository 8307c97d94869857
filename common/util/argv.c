#include "util/argv.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

void sc_argv_push(struct sc_argv *a, const char *s)
{
	if (a->n + 2 > a->alloc) {
		a->alloc = a->alloc ? a->alloc * 2 : 16;
		a->v = xrealloc(a->v, a->alloc * sizeof *a->v);
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void sc_argv_push_owned(struct sc_argv *a, char *s)
{
	a->owned = xrealloc(a->owned, (a->n_owned + 1) * sizeof *a->owned);
	a->owned[a->n_owned++] = s;
	sc_argv_push(a, s);
}

void sc_argv_release(struct sc_argv *a)
{
	for (size_t i = 0; i < a->n_owned; i++)
		free(a->owned[i]);
	free(a->owned);
	free(a->v);
	memset(a, 0, sizeof *a);
}
