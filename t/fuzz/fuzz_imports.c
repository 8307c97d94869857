/* libFuzzer: sc_lean_imports (the header of a Lean file of the candidate's
 * tree, which orders a side's samples) on arbitrary bytes.  An accepted
 * header yields nonempty names (an escaped part may hold dots: the
 * module paths are checked where they become file names); a refusal says
 * why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planning/imports.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	struct sc_argv mods = SC_ARGV_INIT;
	struct strbuf why = STRBUF_INIT;
	if (sc_lean_imports(buf, size, &mods, &why) == 0) {
		for (size_t i = 0; i < mods.n; i++) {
			if (!*mods.v[i])
				abort();
		}
		if (why.len)
			abort();
	} else if (!why.len) {
		abort();
	}
	sc_argv_release(&mods);
	sb_release(&why);
	free(buf);
	return 0;
}
