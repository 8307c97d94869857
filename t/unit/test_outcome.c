/* Unit tests for common/sandbox/outcome (what one sandboxed command came
 * to), the self-test's verdict (selftest.c), --timeout's bounds
 * (command.c) and the time file's agreement with the status line
 * (timefile.c): decisions on given statuses and reports, no sandbox. */
#include "unit_main.h"
#include "sandbox/command.h"
#include "sandbox/outcome.h"
#include "sandbox/selftest.h"
#include "contract/timefile.h"
#include "util/die.h"

#include <signal.h>
#include <errno.h>
#include <string.h>

#define EXITED(n) ((n) << 8)
#define KILLED(s) (s)

static struct sc_sandbox_result result(int wstatus, const char *report, const char *output)
{
	struct sc_sandbox_result r;
	memset(&r, 0, sizeof r);
	sb_init(&r.report);
	sb_init(&r.output);
	sb_adds(&r.report, report);
	sb_adds(&r.output, output);
	r.wrapper_status = wstatus;
	r.wall_s = 1.5;
	r.task_clock_errno = ENODATA; /* no counter unless a test says so */
	return r;
}

START_TEST(a_command_that_exits_0_or_3)
{
	struct sc_sandbox_result r = result(EXITED(0), "ready -\nexit 0\n", "");
	struct sc_outcome o;
	sc_outcome_decide(&r, "/usr/bin/bwrap", "lake", &o);
	ck_assert(o.status_line && o.keep && !o.reraise);
	ck_assert_int_eq(o.exit, SC_EXIT_OK);
	ck_assert_int_eq(o.exit_code, 0);
	ck_assert(o.wall_s == 1.5);
	sc_outcome_release(&o);
	sc_sandbox_result_release(&r);
	r = result(EXITED(3), "ready -\nexit 3\n", "");
	sc_outcome_decide(&r, "/usr/bin/bwrap", "lake", &o);
	ck_assert(o.status_line && o.keep);
	ck_assert_int_eq(o.exit, SC_EXIT_FAIL);
	ck_assert_int_eq(o.exit_code, 3);
	ck_assert_int_eq(o.signal, 0);
	sc_outcome_release(&o);
	sc_sandbox_result_release(&r);
}
END_TEST

START_TEST(a_signalled_command_keeps_its_counters)
{
	struct sc_sandbox_result r = result(EXITED(128 + 9), "ready -\nsignal 9\n", "");
	struct sc_outcome o;
	sc_outcome_decide(&r, "/usr/bin/bwrap", "lake", &o);
	ck_assert(o.status_line && o.keep);
	ck_assert_int_eq(o.exit, SC_EXIT_FAIL);
	ck_assert_int_eq(o.exit_code, -1);
	ck_assert_int_eq(o.signal, 9);
	sc_outcome_release(&o);
	sc_sandbox_result_release(&r);
}
END_TEST

START_TEST(a_timeout_has_a_status_line_and_no_counters)
{
	struct sc_sandbox_result r = result(KILLED(SIGTERM), "ready -\n", "");
	r.timed_out = 1;
	struct sc_outcome o;
	sc_outcome_decide(&r, "/usr/bin/bwrap", "lake", &o);
	ck_assert(o.status_line && !o.keep && o.timed_out);
	ck_assert_int_eq(o.exit, SC_EXIT_FAIL);
	ck_assert_int_eq(o.exit_code, -1);
	ck_assert_int_eq(o.signal, SIGTERM);
	sc_outcome_release(&o);
	/* a wrapper that still exited names SIGKILL */
	r.wrapper_status = EXITED(143);
	sc_outcome_decide(&r, "/usr/bin/bwrap", "lake", &o);
	ck_assert_int_eq(o.signal, SIGKILL);
	sc_outcome_release(&o);
	sc_sandbox_result_release(&r);
}
END_TEST

START_TEST(an_interrupt_wins_over_everything)
{
	struct sc_sandbox_result r = result(EXITED(0), "ready -\nexit 0\n", "");
	r.interrupted = SIGINT;
	r.timed_out = 1;
	struct sc_outcome o;
	sc_outcome_decide(&r, "/usr/bin/bwrap", "lake", &o);
	ck_assert_int_eq(o.reraise, SIGINT);
	ck_assert(!o.status_line && !o.keep);
	sc_outcome_release(&o);
	sc_sandbox_result_release(&r);
}
END_TEST

/* A run that ends without a status line: its code and its error line. */
static void error_case(int wstatus, const char *report, const char *output, int code, const char *why)
{
	struct sc_sandbox_result r = result(wstatus, report, output);
	struct sc_outcome o;
	sc_outcome_decide(&r, "/b", "no-such", &o);
	ck_assert(!o.status_line && !o.keep && !o.reraise);
	ck_assert_int_eq(o.exit, code);
	ck_assert_str_eq(o.why.buf, why);
	sc_outcome_release(&o);
	sc_sandbox_result_release(&r);
}

/* Our own loop went blind (poll failed): the run was killed, nothing is
 * kept, and the machine is at fault. */
START_TEST(a_failed_wait_loop_is_a_system_failure)
{
	struct sc_sandbox_result r = result(KILLED(SIGKILL), "ready -\n", "");
	r.loop_errno = ENOMEM;
	struct sc_outcome o;
	sc_outcome_decide(&r, "/b", "cmd", &o);
	ck_assert_int_eq(o.status_line, 0);
	ck_assert_int_eq(o.keep, 0);
	ck_assert_int_eq(o.exit, SC_EXIT_SYSTEM);
	ck_assert_str_eq(o.why.buf, "cannot watch the sandbox: Cannot allocate memory; the run was killed (poll)");
	sc_outcome_release(&o);
	sc_sandbox_result_release(&r);
}
END_TEST

/* The task clock reaches the status line as counted, or not at all. */
START_TEST(the_task_clock_is_passed_on)
{
	struct sc_sandbox_result r = result(EXITED(0), "ready -\nexit 0\n", "");
	struct sc_outcome o;
	sc_outcome_decide(&r, "/b", "cmd", &o);
	ck_assert_int_eq(o.task_clock, 0);
	sc_outcome_release(&o);
	r.task_clock_errno = 0;
	r.task_clock_s = 0.7;
	sc_outcome_decide(&r, "/b", "cmd", &o);
	ck_assert_int_eq(o.task_clock, 1);
	ck_assert_double_eq_tol(o.task_clock_s, 0.7, 1e-9);
	sc_outcome_release(&o);
	sc_sandbox_result_release(&r);
}
END_TEST

START_TEST(errors_and_their_codes)
{
	/* bwrap refused: its first line, the machine's failure */
	error_case(EXITED(1), "", "bwrap: No permission\nmore\n", SC_EXIT_SYSTEM,
	           "the sandbox did not start: bwrap: No permission (/b)");
	error_case(EXITED(1), "", "", SC_EXIT_SYSTEM, "the sandbox did not start: exit 1 (/b)");
	/* the operator's command does not exist: bad input */
	error_case(EXITED(127), "ready -\nexec-failed 2\n", "", SC_EXIT_USAGE,
	           "cannot run the command in the sandbox: No such file or directory (no-such)");
	/* sc-pid1 failed after it was ready */
	error_case(EXITED(1), "ready -\ninit-failed cannot mount /proc\n", "", SC_EXIT_SYSTEM,
	           "the sandbox ended without the command's status: cannot mount /proc (/b)");
}
END_TEST

START_TEST(a_wrapper_status_that_disagrees_keeps_nothing)
{
	error_case(EXITED(0), "ready -\nexit 3\n", "", SC_EXIT_SYSTEM,
	           "the wrapper's status (exit 0) disagrees with the command's (3) (/usr/bin/time)");
	error_case(KILLED(SIGKILL), "ready -\nsignal 9\n", "", SC_EXIT_SYSTEM,
	           "the wrapper's status (signal 9) disagrees with the command's (137) (/usr/bin/time)");
}
END_TEST

static int verdict(struct sc_sandbox_result *r, double cpu, const char *tf_err, struct strbuf *why)
{
	struct sc_timefile tf = {.user_s = cpu, .sys_s = 0};
	sb_reset(why);
	return sc_selftest_verdict(r, &tf, tf_err, "/b", "/tmp/x/time", why);
}

/* sc-pid1's report and the output (bwrap's, the probe's) fail the
 * self-test with WHY. */
static void self_test_fails(const char *report, const char *output, const char *want)
{
	struct strbuf why = STRBUF_INIT;
	struct sc_sandbox_result r = result(EXITED(1), report, output);
	ck_assert_int_eq(verdict(&r, 0.2, "", &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, want);
	sc_sandbox_result_release(&r);
	sb_release(&why);
}

START_TEST(the_self_test_verdict)
{
	struct strbuf why = STRBUF_INIT;
	struct sc_sandbox_result r = result(EXITED(0), "ready -\nexit 0\n", "self-test-ok -\n");
	ck_assert_int_eq(verdict(&r, 0.2, "", &why), SC_EXIT_OK);
	ck_assert_uint_eq(why.len, 0);
	/* a host that does not hold the sandbox is an unmet precondition */
	ck_assert_int_eq(verdict(&r, 0.05, "", &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "self-test: GNU time counted 0.05 s of the 0.2 s an orphan burned: CPU is being lost (/b)");
	ck_assert_int_eq(verdict(&r, 0.2, "the time file is empty", &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "self-test: GNU time wrote no valid counters: the time file is empty (/tmp/x/time)");
	/* with a task clock, it must have seen the autoreaped child too */
	r.task_clock_errno = 0;
	r.task_clock_s = 0.35;
	ck_assert_int_eq(verdict(&r, 0.25, "", &why), SC_EXIT_OK);
	r.task_clock_s = 0.25;
	ck_assert_int_eq(verdict(&r, 0.25, "", &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "self-test: the task clock counted 0.25 s of the 0.3 s an orphan and an "
	                 "autoreaped child burned: CPU is being lost (perf_event_open)");
	r.task_clock_errno = ENODATA;
	r.timed_out = 1; /* only this may be the machine's load of the moment */
	ck_assert_int_eq(verdict(&r, 0.2, "", &why), SC_EXIT_SYSTEM);
	ck_assert_str_eq(why.buf, "self-test: the sandbox did not finish within 60 s (/b)");
	sc_sandbox_result_release(&r);
	self_test_fails("ready -\nexit 1\n", "self-test-failed network reachable\n",
	                "self-test: network reachable (/b)");
	/* the probe's word counts only from the probe's output, with its exit 0 */
	self_test_fails("ready -\nself-test-ok -\nexit 0\n", "",
	                "self-test: the sandbox check did not finish: the probe ended with exit 0 (/b)");
	self_test_fails("ready -\nexit 1\n", "self-test-ok -\n",
	                "self-test: the sandbox check did not finish: the probe ended with exit 1 (/b)");
	self_test_fails("ready -\nsignal 9\n", "",
	                "self-test: the sandbox check did not finish: the probe ended with signal 9 (/b)");
	self_test_fails("ready -\nexec-failed 2\n", "", "self-test: cannot run the probe /sc-sandbox-probe: No such file or directory (/b)");
	self_test_fails("ready -\ninit-failed lost the command\n", "", "self-test: lost the command (/b)");
	self_test_fails("", "bwrap: denied\n", "self-test: the sandbox did not start: bwrap: denied (/b)");
	self_test_fails("ready -\n", "", "self-test: the sandbox check did not finish (/b)");
	sb_release(&why);
}
END_TEST

static const char *agree(int tf_exit, int tf_sig, double elapsed, int exit_code, int sig, struct strbuf *why)
{
	struct sc_timefile tf = {.exit_code = tf_exit, .signal = tf_sig, .elapsed_s = elapsed};
	sb_reset(why);
	enum sc_sample_error e = sc_timefile_check_status(&tf, exit_code, sig, 10.0, why);
	return e ? sc_sample_error_name(e) : NULL;
}

START_TEST(time_file_and_status_line_agree)
{
	struct strbuf why = STRBUF_INIT;
	ck_assert_ptr_null(agree(0, 0, 9.0, 0, 0, &why));
	ck_assert_uint_eq(why.len, 0);
	ck_assert_ptr_null(agree(0, 0, 12.0, 0, 0, &why)); /* within the slack */
	ck_assert_str_eq(agree(0, 0, 12.5, 0, 0, &why), "status_mismatch");
	ck_assert_str_eq(why.buf, "the time file's elapsed 12.50 s exceeds the run's wall 10.00 s");
	ck_assert_str_eq(agree(0, 9, 1.0, -1, 9, &why), "status_mismatch");
	ck_assert_str_eq(why.buf, "the time file says the sandbox was killed by signal 9");
	ck_assert_str_eq(agree(0, 0, 1.0, 2, 0, &why), "status_mismatch");
	ck_assert_str_eq(why.buf, "the time file's exit status 0 disagrees with the status line's 2");
	ck_assert_str_eq(agree(2, 0, 1.0, 2, 0, &why), "failed");
	ck_assert_str_eq(why.buf, "the command exited with status 2");
	ck_assert_str_eq(agree(137, 0, 1.0, -1, 9, &why), "failed");
	ck_assert_str_eq(why.buf, "the command was killed by signal 9");
	sb_release(&why);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("outcome");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, a_command_that_exits_0_or_3);
	tcase_add_test(tc, a_signalled_command_keeps_its_counters);
	tcase_add_test(tc, a_timeout_has_a_status_line_and_no_counters);
	tcase_add_test(tc, an_interrupt_wins_over_everything);
	tcase_add_test(tc, errors_and_their_codes);
	tcase_add_test(tc, a_failed_wait_loop_is_a_system_failure);
	tcase_add_test(tc, the_task_clock_is_passed_on);
	tcase_add_test(tc, a_wrapper_status_that_disagrees_keeps_nothing);
	tcase_add_test(tc, the_self_test_verdict);
	tcase_add_test(tc, time_file_and_status_line_agree);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
