#ifndef SC_PROFILE_H
#define SC_PROFILE_H
/* The phases of sphereceti profile-run that stand alone, each called once
 * in the order cmd/sc-profile-run.c gives (Documentation/architecture.txt
 * "Shape"): the plan, both trees, the report, and what the run holds
 * released.  Every sandbox stage is a sibling program run with an argv
 * (porcelain/stage.h). */
#include "porcelain/stage.h"
#include "porcelain/state.h"

/* sc-plan run on the options; its bytes kept (their digest binds every
 * sample) and parsed, and the run ID drawn.  Dies with sc-plan's exit code
 * (a change it does not measure stays 4) when it refuses. */
void sc_run_make_plan(struct sc_run *r);
/* Both trees started from blobs side by side into the workspace, as JOB. */
void sc_run_materialize_start(struct sc_run *r, struct sc_stage job[2]);
/* Both trees written: a failed one dies with its line, once both ended.
 * The raw/ and logs/ folders made. */
void sc_run_materialize_finish(struct sc_run *r, struct sc_stage job[2]);
/* samples.jsonl (and attribution.json) written, sc-report run, its
 * headline printed.  Returns the run's exit code: 0 a complete
 * measurement, 1 a measurement error, 3 a sandbox stage failed as a system
 * (the report is written in all three). */
int sc_run_report(struct sc_run *r);
void sc_run_release(struct sc_run *r);

#endif
