#ifndef SC_SANDBOX_EXEC_H
#define SC_SANDBOX_EXEC_H
/* sc-sandbox-exec as one call: its three modes (a command run sealed, the
 * self-test, the bubblewrap pin check), the order of their checks and every
 * message (man/sc-sandbox-exec.1). */
#include "sandbox/command.h"
#include "util/argv.h"
#include "util/options.h"

/* What the options named, as given (checked here). */
struct sc_sandbox_exec_request {
	struct sc_command_spec run;         /* the run's options and libexecdir; run.argv set here */
	struct sc_argv sealed;              /* --read-only */
	const char *user, *tmp_size, *max_procs, *bwrap;
	int self_test;
	struct sc_argv pins;                /* --check-bwrap: SHA256 VERSION pairs */
	const struct sc_option *opts;       /* the table, for the run's required options */
	char **rest;                        /* what follows the options (CMD ARG..., or nothing) */
	int n_rest;
	int after_dashdash;                 /* rest came after "--" */
};

/* The descriptors, the parent-death signal and stdio every mode needs,
 * before the options are read. */
void sc_sandbox_exec_prepare(void);

/* Runs the mode rq names; returns the exit code (a run's: its status line
 * printed), dies on every error with its one line. */
int sc_sandbox_exec(struct sc_sandbox_exec_request *rq);

#endif
