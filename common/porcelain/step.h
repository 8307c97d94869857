#ifndef SC_PORCELAIN_STEP_H
#define SC_PORCELAIN_STEP_H
/* The sandboxed steps of one run (the preflight, a check, a prebuild
 * layer, a sample): sc-sandbox-exec run on a side's tree with what the
 * steps are handed and nothing else of the run, its raw documents kept in
 * WS/raw/<side>-<name>.time and .status for inspection, and its status
 * line checked once, as it arrives, by the contract (contract/rawsample.h),
 * and kept.  A step returns what happened to it; the two things that
 * change the rest of the run are kept here, by their one writer, for the
 * run to read: a step that failed as a system (the run ends with
 * SC_EXIT_SYSTEM once its report is written) and a step that left the disk
 * full (it and every later step are disk_full, never a machine failure). */
#include "contract/sample.h"
#include "contract/status.h"
#include "porcelain/progress.h"
#include "sandbox/sandbox_opts.h"
#include "util/argv.h"

/* The operator's options that every sandboxed call is given. */
struct sc_step_opts {
	const char *toolchain, *deps;
	const char *lake_cache;   /* --cache: the operator's Lake artifact cache, or NULL */
	const char *bwrap;        /* the operator's bubblewrap, or NULL */
	const char *user; /* the sandbox's "UID:GID", resolved (by default one of the run's own,
	                   * held for the whole run: both sides, every sandbox) */
	struct sc_sandbox_opts sb; /* --sandbox-user, --tmp-size, --max-procs, checked */
	int keep_logs;         /* candidate output into WS/logs/, bounded */
	const char *keep_logs_hint; /* without keep_logs: how the operator keeps it */
	double progress_every; /* seconds between "still running" lines */
};

struct sc_steps {
	/* handed over once */
	const struct sc_step_opts *o;
	const char *dir;              /* exec dir: where the stages live */
	struct sc_progress *progress; /* where a step still running says so */
	/* the workspace and the sides' trees in it, once claimed */
	const char *ws;
	char *tree[2];
	/* per side: paths below .lake read-only after the preflight */
	struct sc_argv sealed[2];
	/* what the steps came to: written here alone */
	int system_failed;
	int disk_full;
};

/* STEPS handed the options, the stages' folder and the progress lines. */
void sc_steps_init(struct sc_steps *steps, const struct sc_step_opts *o, const char *dir,
                   struct sc_progress *progress);
/* The workspace WS claimed: the sides' trees are in it. */
void sc_steps_set_workspace(struct sc_steps *steps, const char *ws);
void sc_steps_release(struct sc_steps *steps);

/* The operator's bubblewrap, when named, for every sandbox-exec call; with
 * SANDBOX, the sandbox user, /tmp size and process bound for a call that
 * starts one. */
void sc_steps_push_bwrap(const struct sc_step_opts *o, struct sc_argv *a, int sandbox);
/* After the side's preflight: PATHS below its tree (seal.h), taken over,
 * mounted read-only in every later step of the side. */
void sc_steps_set_sealed(struct sc_steps *steps, int side, struct sc_argv *paths);

/* Where --keep-logs keeps one sandboxed invocation's output:
 * WS/logs/<side>-<name>.log (allocated). */
char *sc_step_log_path(const struct sc_steps *steps, int side, const char *name);
/* What a failure line says about Lake's output (allocated). */
char *sc_step_output_hint(const struct sc_steps *steps, int side, const char *name);

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
 * it ran, but its counters are not to be trusted), and records in STEPS a
 * system failure or a full disk. */
int sc_steps_run(struct sc_steps *steps, int side, struct sc_step *st, const char *name,
                 const char *what, double timeout, const char *const *cmd, const char *log,
                 int lake_ro);
void sc_step_release(struct sc_step *st);

/* What sc-sandbox-exec's exit code RC makes of a step: 0 ran and
 * succeeded, 1 ran and failed (its status line says how), 2 did not run;
 * 3 or a signal (sc-sandbox-exec itself was killed: its sandbox ends with
 * it and leaves no status line) did not run either, a system failure. */
enum sc_step_outcome { SC_STEP_OK, SC_STEP_FAILED, SC_STEP_NOT_RUN };
enum sc_step_outcome sc_step_outcome_of(int rc);

/* 1 when the status line says the command ran out of time. */
int sc_step_timed_out(const struct sc_step *st);
/* 1 when the status line says the command exited with CODE. */
int sc_step_exited_with(const struct sc_step *st, int code);

/* What a step that ran (sc-sandbox-exec exited 0 or 1) measured, into
 * the bound sample S: its counters from the status line and time file, or
 * the error they make. */
void sc_step_fill(const struct sc_step *st, struct sc_sample *s);

/* S, bound, made the sample of a step not run because a step left the
 * disk full (Documentation/measurement.txt "Sealed measurement"), with
 * the one detail that says so; LINE, when not NULL, says "not run
 * (disk_full)". */
void sc_step_disk_full(struct sc_sample *s, struct strbuf *line);

#endif
