#ifndef SC_OUTCOME_H
#define SC_OUTCOME_H
/* What one sandboxed command came to (Documentation/measurement.txt "Measurement"): from the
 * wrapper's wait status, sc-pid1's report and whether we stopped it, the
 * status line and exit code, or an error and its exit code, and whether
 * the time file is kept.  No process, no file: unit-tested as is. */
#include "sandbox/supervise.h"
#include "util/strbuf.h"

struct sc_outcome {
	int reraise;     /* a stop signal ended the run: die of it (nothing printed) */
	int status_line; /* print exit_code/signal/timed_out, exit with `exit` */
	int keep;        /* the time file is whole: put it in place */
	int exit;        /* SC_EXIT_OK/FAIL with a status line; else the error's code */
	int exit_code;   /* the command's, -1 when signalled or timed out */
	int signal;
	int timed_out;
	double wall_s;   /* the run's, host monotonic */
	int task_clock;  /* task_clock_s holds the inherited perf counter */
	double task_clock_s;
	struct strbuf why; /* the error line, "what (where)", when there is no status line */
};

/* Decide for the run r (report: r->report parsed by sc_init_report_parse)
 * of COMMAND under BWRAP.  Release o with sc_outcome_release. */
void sc_outcome_decide(const struct sc_sandbox_result *r, const char *bwrap, const char *command,
                       struct sc_outcome *o);
void sc_outcome_release(struct sc_outcome *o);

/* Appends "the sandbox did not start: WHY (BWRAP)" to why: WHY is the first
 * line (at most 511 bytes) of the wrapper's own messages (bwrap, GNU time),
 * else the wrapper's status.  The run's and the self-test's wording. */
void sc_outcome_why_not_started(const struct sc_sandbox_result *r, const char *bwrap,
                                struct strbuf *why);

#endif
