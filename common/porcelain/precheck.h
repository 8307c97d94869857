#ifndef SC_PRECHECK_H
#define SC_PRECHECK_H
/* A profile run's preconditions (Documentation/measurement.txt "Measurement"): all checked
 * before the workspace exists and before candidate code runs, so a refused
 * run leaves nothing behind. */
#include "porcelain/state.h"
#include "porcelain/stage.h"

/* 1. What needs neither the plan nor the workspace: Linux, GNU time, the
 * toolchain and the dependencies folders, a workspace that does not exist
 * and, resolved through its parent, lies in or around neither. */
void sc_run_check_host(struct sc_run *r);


/* 3. What needs the plan: the sandbox user reaches what bwrap mounts, the
 * bubblewrap pin, the toolchain, the dependencies.  The sandbox self-test
 * burns CPU for a while, so it is left running in SELF_TEST beside the
 * rest; sc_run_finish_check waits for it before anything else. */
void sc_run_check_preconditions(struct sc_run *r, struct sc_stage *self_test);
/* Waits for a sandbox-exec check (the pin, the self-test); a failed one
 * dies with its own error line (once the workspace exists: ours, saying
 * that the workspace stays). */
void sc_run_finish_check(struct sc_run *r, struct sc_stage *check);

/* After the preflight failed: 1 with why naming the dependency whose
 * compiled lakefile.lean configuration Lake could not use (see
 * sc_dependency_config_problem), 0 when no dependency looks so. */
int sc_run_preflight_diagnosis(const struct sc_run *r, struct strbuf *why);

/* The selected file whose module Lake's output OUT (LEN bytes) names in a
 * line "error: unknown module `A.B`" (Lake could not resolve the target),
 * or NULL. */
const struct sc_plan_file *sc_run_unknown_target(const struct sc_plan *p, const char *out,
                                                 size_t len);

#endif
