#ifndef SC_PROFILE_H
#define SC_PROFILE_H
/* sphereceti profile-run, the whole measurement (Documentation/architecture.txt "Shape"):
 * plan -> plan.json -> preconditions -> materialize base/ and head/ ->
 * per side: sandboxed prebuild, then one timed sample per selected file ->
 * parse each raw time file -> report.  Every step is a sibling stage run
 * with an argv (porcelain/stage.h); this sequences them and keeps the
 * workspace. */
#include "porcelain/state.h"

/* What sphereceti profile-run's option table fills in: the run's options
 * as given (O), and the six still text that sc_profile_run checks and
 * converts into O. */
struct sc_profile_request {
	struct sc_run_opts o;
	const char *prebuild_timeout, *sample_timeout, *phase_timeout; /* seconds */
	const char *progress_every;                                    /* seconds */
	const char *confirm;                                           /* 0-4 */
	const char *sandbox_user;                                      /* USER|UID:GID */
};

/* The options of RQ checked (a refusal is an error line, exit 2), then the
 * run, with the stages beside this program.  Returns the exit code: 0 a
 * complete measurement, 1 a measurement error, 3 a sandbox stage failed as
 * a system (the report is written in all three); every other outcome dies
 * (2 bad input or an unmet precondition, 3 a system failure, 128+N
 * interrupted by signal N). */
int sc_profile_run(struct sc_profile_request *rq);

#endif
