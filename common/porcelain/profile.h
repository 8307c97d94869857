#ifndef SC_PROFILE_H
#define SC_PROFILE_H
/* sphereceti profile-run, the whole measurement (DESIGN.md "Shape"):
 * plan -> plan.json -> preconditions -> materialize base/ and head/ ->
 * per side: sandboxed prebuild, then one timed sample per selected file ->
 * parse each raw time file -> report.  Every step is a sibling stage run
 * with an argv (porcelain/stage.h); this sequences them and keeps the
 * workspace. */
#include "porcelain/state.h"

/* The run with options O (validated); the stages live in DIR.  Returns the
 * exit code: 0 a complete measurement, 1 a measurement error, 3 a sandbox
 * stage failed as a system (the report is written in all three); every
 * other outcome dies (2 bad input or an unmet precondition, 3 a system
 * failure, 128+N interrupted by signal N). */
int sc_profile_run(const struct sc_run_opts *o, const char *dir);

#endif
