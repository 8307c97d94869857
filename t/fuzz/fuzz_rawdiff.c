/* libFuzzer: "git diff-tree -r -z" raw records (paths come from the
 * candidate's trees) through sc_changes_select with roots Demo and
 * Roadmap.  A selection is at most the plan's max files, each in a root's area, a .lean
 * path whose module id is unique; a refusal says why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planning/changes.h"
#include "contract/plan.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_plan p;
	memset(&p, 0, sizeof p);
	p.library = xcalloc(1, sizeof *p.library);
	p.library[p.n_library++] = xstrdup("Demo");
	p.roadmap = xcalloc(1, sizeof *p.roadmap);
	p.roadmap[p.n_roadmap++] = xstrdup("Roadmap");
	int hexsz = size && data[0] & 1 ? 64 : 40;
	struct strbuf err = STRBUF_INIT;
	if (sc_changes_select(&p, (const char *)data, size, hexsz, &err) == 0) {
		if (p.n_files > sc_plan_max_files(&p) || p.no_changes != (p.n_files == 0))
			abort();
		for (size_t i = 0; i < p.n_files; i++) {
			const char *path = p.files[i].path;
			size_t n = strlen(path);
			if (!sc_plan_in_root_area(&p, path) || n < 5 || strcmp(path + n - 5, ".lean") != 0)
				abort();
			if (sc_plan_find(&p, p.files[i].id) != &p.files[i])
				abort();
		}
	} else if (err.len == 0) {
		abort();
	}
	sb_release(&err);
	sc_plan_free(&p);
	return 0;
}
