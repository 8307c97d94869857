#include "util/nameindex.h"
#include "util/strbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (size_t)h;
}

static const char *name_of(struct sc_named it, size_t i)
{
	return *(const char *const *)((const char *)it.items + i * it.stride + it.offset);
}

void sc_name_index_fit(struct sc_name_index *x, size_t want, struct sc_named it)
{
	if (x->nslots && 2 * want <= x->nslots)
		return;
	size_t n = x->nslots ? x->nslots : 16;
	while (n < 2 * want)
		n *= 2;
	free(x->slots);
	x->slots = xcalloc(n, sizeof *x->slots);
	x->nslots = n;
	for (size_t i = 0; i < it.n; i++) {
		size_t k = name_hash(name_of(it, i)) & (n - 1);
		while (x->slots[k])
			k = (k + 1) & (n - 1);
		x->slots[k] = i + 1;
	}
}

size_t *sc_name_index_slot(const struct sc_name_index *x, const char *name, struct sc_named it)
{
	size_t k = name_hash(name) & (x->nslots - 1);
	while (x->slots[k] && strcmp(name_of(it, x->slots[k] - 1), name) != 0)
		k = (k + 1) & (x->nslots - 1);
	return &x->slots[k];
}

void sc_name_index_free(struct sc_name_index *x)
{
	free(x->slots);
	x->slots = NULL;
	x->nslots = 0;
}
