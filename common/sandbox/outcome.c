#include "sandbox/outcome.h"
#include "sandbox/gnutime.h"
#include "sandbox/initreport.h"
#include "util/die.h"
#include "util/spawn.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

void sc_outcome_why_not_started(const struct sc_sandbox_result *r, const char *bwrap,
                                struct strbuf *why)
{
	size_t n = strcspn(r->output.buf, "\n");
	sb_adds(why, "the sandbox did not start: ");
	if (n)
		sb_add(why, r->output.buf, n < 511 ? n : 511);
	else
		sb_adds(why, sc_describe_status(r->wrapper_status));
	sb_addf(why, " (%s)", bwrap);
}

/* No status line: the error, and the code the kind of failure fixes. */
static void fail(struct sc_outcome *o, int code)
{
	o->status_line = 0;
	o->exit = code;
}

/* sc-pid1 reported the command's status: bwrap and GNU time pass it on
 * unchanged, so the wrapper's own must agree. */
static void finished(const struct sc_sandbox_result *r, const struct sc_init_report *ir,
                     struct sc_outcome *o)
{
	int expect = ir->signal ? 128 + ir->signal : ir->exit_code;
	if (!WIFEXITED(r->wrapper_status) || WEXITSTATUS(r->wrapper_status) != expect) {
		sb_addf(&o->why, "the wrapper's status (%s) disagrees with the command's (%d) (%s)",
		        sc_describe_status(r->wrapper_status), expect, SC_GNU_TIME_PATH);
		fail(o, SC_EXIT_SYSTEM);
		return;
	}
	o->exit_code = ir->exit_code;
	o->signal = ir->signal;
	o->keep = 1;
	o->exit = ir->exit_code == 0 && !ir->signal ? SC_EXIT_OK : SC_EXIT_FAIL;
}

void sc_outcome_decide(const struct sc_sandbox_result *r, const char *bwrap, const char *command,
                       struct sc_outcome *o)
{
	memset(o, 0, sizeof *o);
	sb_init(&o->why);
	o->status_line = 1;
	o->wall_s = r->wall_s;
	o->task_clock = r->task_clock_errno == 0;
	o->task_clock_s = r->task_clock_s;
	struct sc_init_report ir;
	sc_init_report_parse(r->report.buf, &ir);
	if (r->loop_errno) {
		/* Nothing it counted is kept: we could not watch it. */
		sb_addf(&o->why, "cannot watch the sandbox: %s; the run was killed (poll)",
		        strerror(r->loop_errno));
		fail(o, SC_EXIT_SYSTEM);
	} else if (r->interrupted) {
		o->reraise = r->interrupted;
		o->status_line = 0;
	} else if (r->timed_out) {
		o->timed_out = 1;
		o->exit_code = -1;
		o->signal = WIFSIGNALED(r->wrapper_status) ? WTERMSIG(r->wrapper_status) : SIGKILL;
		o->exit = SC_EXIT_FAIL;
	} else if (!ir.ready) {
		sc_outcome_why_not_started(r, bwrap, &o->why);
		fail(o, SC_EXIT_SYSTEM);
	} else if (ir.exec_errno) {
		/* The command is the operator's: a name that does not run is bad input. */
		sb_addf(&o->why, "cannot run the command in the sandbox: %s (%s)", strerror(ir.exec_errno),
		        command);
		fail(o, SC_EXIT_USAGE);
	} else if (!ir.has_status) {
		sb_addf(&o->why, "the sandbox ended without the command's status: %s (%s)",
		        ir.failure[0] ? ir.failure : sc_describe_status(r->wrapper_status), bwrap);
		fail(o, SC_EXIT_SYSTEM);
	} else {
		finished(r, &ir, o);
	}
}

void sc_outcome_release(struct sc_outcome *o)
{
	sb_release(&o->why);
}
