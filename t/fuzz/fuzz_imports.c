/* libFuzzer: sc_lean_header (the header of a Lean file of the candidate's
 * tree, which orders a side's samples and selects importers) on arbitrary
 * bytes.  An accepted header yields nonempty names whose parts are file
 * names; a refusal says why; and a prefix that the reader says is enough
 * (SC_HEADER_READ on a part of the file) reads exactly what the whole file
 * reads: the bounded reads of planning/modgraph.c and porcelain/order.c
 * rest on that. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planning/header.h"

static int read_all(const char *buf, size_t len, int whole, struct sc_argv *mods)
{
	struct strbuf why = STRBUF_INIT;
	int rc = sc_lean_header(buf, len, whole, mods, &why);
	if ((rc == SC_HEADER_REFUSED) != (why.len > 0))
		abort();
	if (whole && rc == SC_HEADER_MORE)
		abort();
	sb_release(&why);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	struct sc_argv whole = SC_ARGV_INIT, part = SC_ARGV_INIT;
	int rc = read_all(buf, size, 1, &whole);
	for (size_t i = 0; rc == SC_HEADER_READ && i < whole.n; i++) {
		const char *m = whole.v[i];
		if (!*m || m[0] == '.' || m[strlen(m) - 1] == '.' || strstr(m, "..") || strchr(m, '/'))
			abort();
	}
	size_t cut = size / 2;
	if (read_all(buf, cut, 0, &part) == SC_HEADER_READ) {
		if (rc != SC_HEADER_READ || part.n != whole.n)
			abort();
		for (size_t i = 0; i < part.n; i++)
			if (strcmp(part.v[i], whole.v[i]) != 0)
				abort();
	}
	sc_argv_release(&whole);
	sc_argv_release(&part);
	free(buf);
	return 0;
}
