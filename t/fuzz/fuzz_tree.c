/* libFuzzer: the raw Git tree entry parser (sc_tree_next) and the commit
 * header parser (sc_commit_parse_tree) on arbitrary bytes: both read
 * objects of the candidate's repository.  The first byte picks SHA-1 or
 * SHA-256.  Entries must lie inside the buffer, names be non-empty and
 * NUL-free, the position strictly advance; a commit's tree ID is lowercase
 * hex of the right length. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "git/git.h"
#include "util/oid.h"
#include "git/treelookup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int rawsz = data[0] & 1 ? 32 : 20;
	const char *buf = (const char *)data + 1;
	size_t len = size - 1, pos = 0;
	struct sc_tree_entry e;
	int rc;
	while ((rc = sc_tree_next(buf, len, &pos, rawsz, &e)) == 1) {
		if (e.namelen == 0 || e.name < buf || e.name + e.namelen > buf + len ||
		    memchr(e.name, '\0', e.namelen) || pos > len ||
		    !sc_is_lower_hex(e.hex, (size_t)rawsz * 2) || e.mode > 0777777)
			abort();
	}
	if (rc == 0 && pos != len)
		abort();

	char tree[SC_MAX_HEXSZ + 1];
	if (sc_commit_parse_tree(buf, len, rawsz * 2, tree) == 0 &&
	    !sc_is_lower_hex(tree, (size_t)rawsz * 2))
		abort();
	return 0;
}
