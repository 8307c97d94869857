/* libFuzzer: "git config --list -z" output of the candidate-controlled
 * .sphereceti blob through sc_repoconfig_parse.  Accepted roots are Lean
 * module paths, the tooling path a relative tree path, github a slug, a
 * bwrap pin 64 hex digits; a refusal says why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/plan.h"
#include "contract/leanpath.h"
#include "planning/repoconfig.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_plan p;
	memset(&p, 0, sizeof p);
	struct strbuf err = STRBUF_INIT;
	if (sc_repoconfig_parse((const char *)data, size, &p, &err) == 0) {
		for (size_t i = 0; i < p.n_library; i++)
			if (!sc_is_valid_root(p.library[i]))
				abort();
		for (size_t i = 0; i < p.n_roadmap; i++)
			if (!sc_is_valid_root(p.roadmap[i]))
				abort();
		if (p.tooling_path && !sc_is_tree_path(p.tooling_path))
			abort();
		if (p.github && !sc_is_github_slug(p.github))
			abort();
		for (size_t i = 0; i < p.n_bwrap_pins; i++)
			if (strlen(p.bwrap_pins[i].sha256) != 64 || !*p.bwrap_pins[i].version)
				abort();
	} else if (err.len == 0) {
		abort();
	}
	sb_release(&err);
	sc_plan_free(&p);
	return 0;
}
