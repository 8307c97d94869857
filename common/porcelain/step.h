#ifndef SC_PORCELAIN_STEP_H
#define SC_PORCELAIN_STEP_H
/* One sandboxed step of a side (the preflight, a check, a prebuild layer,
 * a sample): sc-sandbox-exec run on the side's tree with the run's
 * options, its raw documents kept in WS/raw/<side>-<name>.time and
 * .status for inspection, and its status line checked once, as it
 * arrives, by the contract (contract/rawsample.h), and kept.  After each
 * step the workspace's room is looked at: a step that left the disk full
 * makes it and every later one disk_full (the run's disk_full), never a
 * machine failure. */
#include "contract/sample.h"
#include "contract/status.h"
#include "porcelain/state.h"

struct sc_step {
	char *time_file, *status_file;
	int status_ok;          /* the status line passed: STATUS holds it */
	struct sc_status status;
	struct sc_sample verdict; /* else the error sample it makes */
};

/* Run CMD in the side's sandbox as the step NAME within TIMEOUT seconds,
 * its output to LOG (NULL: to WS/logs/ with --keep-logs, else nowhere).
 * While it runs, a progress line every --progress-every seconds says that
 * WHAT (NULL: NAME) of the side still runs, and for how long.  LAKE_RO:
 * the tree's .lake read-only too (a sample under --confirm leaves nothing
 * for the next: Documentation/measurement.txt "Confirmation").
 * Returns sc-sandbox-exec's exit code (1 when the step filled the disk:
 * it ran, but its counters are not to be trusted). */
int sc_step_run(struct sc_run *r, int side, struct sc_step *st, const char *name, const char *what,
                double timeout, const char *const *cmd, const char *log, int lake_ro);
void sc_step_release(struct sc_step *st);

/* What sc-sandbox-exec's exit code RC makes of a step: 0 ran and
 * succeeded, 1 ran and failed (its status line says how), 2 did not run;
 * 3 or a signal (sc-sandbox-exec itself was killed: its sandbox ends with
 * it and leaves no status line) did not run either: recorded in R, so that
 * the run ends with SC_EXIT_SYSTEM once its report is written. */
enum sc_step_outcome { SC_STEP_OK, SC_STEP_FAILED, SC_STEP_NOT_RUN };
enum sc_step_outcome sc_step_record_outcome(struct sc_run *r, int rc);

/* 1 when the status line says the command ran out of time. */
int sc_step_timed_out(const struct sc_step *st);
/* 1 when the status line says the command exited with CODE. */
int sc_step_exited_with(const struct sc_step *st, int code);

/* The sample "<side>:<id>" from a step that ran (sc-sandbox-exec exited 0
 * or 1): its status line and time file, into S, bound, not recorded. */
void sc_step_sample(const struct sc_run *r, int side, const char *id, const struct sc_step *st,
                    struct sc_sample *s);

/* A sample (FILE, or the side's prebuild when FILE is NULL) recorded as
 * not measured because an earlier step left the disk full. */
void sc_step_record_disk_full(struct sc_run *r, int side, const struct sc_plan_file *f);

#endif
