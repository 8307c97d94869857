#ifndef SC_PORCELAIN_PREFLIGHT_H
#define SC_PORCELAIN_PREFLIGHT_H
/* Before candidate code first runs in a side's tree: Lake loads the
 * workspace (the preflight), and T's configuration is checked once for
 * both sides.  Each holds or dies with the line that says what to
 * prepare; nothing of the run is written but the side's sealed paths. */
#include "contract/manifest.h"
#include "contract/plan.h"
#include "porcelain/step.h"

/* What the preflight and the checks are given. */
struct sc_preflight {
	const struct sc_plan *plan;
	const struct sc_manifest *manifest; /* T's lake-manifest.json */
	const char *lean_version;           /* the toolchain's version line */
	double timeout;                     /* each step's: the prebuild's */
};

/* Lake loads the side's workspace read-only; the compiled configuration
 * it leaves is sealed for every later step of the side (seal.h). */
void sc_preflight_side(struct sc_steps *steps, int side, const struct sc_preflight *pf);
/* T's configuration, asked in the side's tree after its preflight: every
 * selected module is one a lean_lib builds, and every dependency's
 * prepared modules are up to date.  The same for both sides: once. */
void sc_preflight_check_config(struct sc_steps *steps, int side, const struct sc_preflight *pf);

#endif
