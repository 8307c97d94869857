/* libFuzzer: a lakefile.toml through sc_lakelibs_parse.  A refusal says
 * why; an accepted file gives libraries with a name, a normalized srcDir
 * (no ".", "..", empty or leading '/' component) and, unless opaque, at
 * least one root and one glob; the buildability query never crashes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planning/lakelibs.h"
#include "util/strbuf.h"

static int normalized(const char *s)
{
	if (!*s)
		return 1;
	for (;;) {
		size_t n = strcspn(s, "/");
		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		if (!s[n])
			return 1;
		s += n + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_lake_libs l;
	struct strbuf err = STRBUF_INIT;
	if (sc_lakelibs_parse((const char *)data, size, &l, &err) == 0) {
		for (size_t i = 0; i < l.n; i++) {
			const struct sc_lean_lib *lib = &l.libs[i];
			if (!lib->name || (lib->src_dir && !normalized(lib->src_dir)))
				abort();
			if (!lib->opaque && (!lib->n_roots || !lib->n_globs))
				abort();
			(void)sc_lean_lib_builds(lib, lib->name);
			(void)sc_lean_lib_builds(lib, "A.B");
		}
		(void)sc_lakelibs_find(&l, "A.B", "src");
		sc_lakelibs_free(&l);
	} else if (err.len == 0) {
		abort();
	}
	sb_release(&err);
	return 0;
}
