/* libFuzzer: sc_plan_from_json on arbitrary bytes.  An accepted plan must
 * keep the model's invariants (ids unique, at most max files, no_changes iff
 * no files) and serialize to a plan that parses back to the same files. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_plan p, again;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, err2 = STRBUF_INIT;
	if (sc_plan_from_json((const char *)data, size, &p, &err) == 0) {
		if (p.n_files > sc_plan_max_files(&p) || p.no_changes != (p.n_files == 0))
			abort();
		for (size_t i = 0; i < p.n_files; i++)
			if (sc_plan_find(&p, p.files[i].id) != &p.files[i])
				abort();
		sc_plan_to_json(&p, &out);
		if (sc_plan_from_json(out.buf, out.len, &again, &err2) < 0)
			abort();
		if (again.n_files != p.n_files || strcmp(again.head, p.head) != 0)
			abort();
		for (size_t i = 0; i < p.n_files; i++)
			if (strcmp(again.files[i].path, p.files[i].path) != 0 ||
			    again.files[i].change != p.files[i].change)
				abort();
		sc_plan_free(&again);
		sc_plan_free(&p);
	} else if (err.len == 0) {
		abort();
	}
	sb_release(&err);
	sb_release(&err2);
	sb_release(&out);
	return 0;
}
