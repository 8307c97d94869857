/* libFuzzer: sc_manifest_parse (lake-manifest.json, a blob of the
 * candidate's repository) on arbitrary bytes.  A rejection says why; an
 * accepted manifest only holds what the dependency check may trust: plain,
 * unique package names (they become folder names) and full lowercase
 * commit IDs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/manifest.h"
#include "util/oid.h"

static int plain(const char *s)
{
	if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_manifest m;
	struct strbuf err = STRBUF_INIT;
	if (sc_manifest_parse((const char *)data, size, &m, &err) == 0) {
		for (size_t i = 0; i < m.n; i++) {
			if (!plain(m.pkgs[i].name))
				abort();
			if (!sc_is_lower_hex(m.pkgs[i].rev, 40) && !sc_is_lower_hex(m.pkgs[i].rev, 64))
				abort();
			for (size_t j = 0; j < i; j++)
				if (strcmp(m.pkgs[i].name, m.pkgs[j].name) == 0)
					abort();
		}
		sc_manifest_free(&m);
	} else if (err.len == 0 || m.n != 0 || m.pkgs != NULL) {
		abort();
	}
	sb_release(&err);
	return 0;
}
