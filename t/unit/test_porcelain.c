/* Unit tests for common/run: the profile run's schedule (steps, the phase
 * budget across both sides), its workspace (claimed once, INCOMPLETE
 * until the report is whole, raw/ paths), what a stage's exit code makes of
 * the run's, and the run's small rules (seconds, log paths, progress
 * figures). */
#include "unit_main.h"
#include "contract/plan.h"
#include "contract/rawsample.h"
#include "porcelain/samples.h"
#include "porcelain/side.h"
#include "porcelain/stage.h"
#include "porcelain/step.h"
#include "porcelain/state.h"
#include "porcelain/schedule.h"
#include "porcelain/workspace.h"
#include "util/die.h"
#include "util/safefile.h"
#include "util/strbuf.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

START_TEST(steps_count_samples_and_prebuild_layers)
{
	struct sc_plan_file f[3] = {{.change = SC_CHANGE_MODIFIED}, {.change = SC_CHANGE_ADDED},
	                            {.change = SC_CHANGE_ADDED}};
	struct sc_plan p = {.files = f, .n_files = 3};
	size_t on[2];
	int one[2] = {1, 1}, layers[2] = {1, 3}, unread[2] = {0, 0};
	sc_schedule_sides(&p, on);
	ck_assert_uint_eq(on[SC_SIDE_BASE], 1);
	ck_assert_uint_eq(on[SC_SIDE_HEAD], 3);
	/* base: 1 sample + prebuild; head: 3 samples + prebuild */
	ck_assert_int_eq(sc_schedule_steps(on, one), 6);
	/* each layer of the head's prebuild is a step of its own */
	ck_assert_int_eq(sc_schedule_steps(on, layers), 8);
	/* no layer read: still the one prebuild step that says so */
	ck_assert_int_eq(sc_schedule_steps(on, unread), 6);
	f[0].change = SC_CHANGE_ADDED; /* nothing on the base side: no base prebuild */
	sc_schedule_sides(&p, on);
	ck_assert_uint_eq(on[SC_SIDE_BASE], 0);
	ck_assert_int_eq(sc_schedule_steps(on, one), 4);
	p.n_files = 0;
	sc_schedule_sides(&p, on);
	ck_assert_int_eq(sc_schedule_steps(on, one), 0);
}
END_TEST

/* What --confirm and --attribute judge a file by is what was recorded
 * for it: the first ok sample apart, every ok sample's compared CPU (the
 * larger of rusage and the task clock); errors and the prebuild add
 * nothing. */
static void record_one(struct sc_samples *sm, int side, const char *id, unsigned repeat, double cpu)
{
	struct sc_sample s;
	sc_samples_bind(sm, side, id, repeat, &s);
	if (cpu < 0) {
		sc_sample_unmeasured(&s, SC_ERR_TIMEOUT, NULL);
	} else {
		s.ok = 1;
		s.cpu_s = s.cpu_user_s = cpu;
		s.has_task_clock = 1;
		s.task_clock_s = cpu + 0.001;
	}
	sc_samples_record(sm, &s);
	sc_sample_free(&s);
}

START_TEST(recorded_samples_are_what_repeats_judge)
{
	struct sc_plan_file f[2] = {{.id = "A.B", .change = SC_CHANGE_MODIFIED},
	                            {.id = "A.C", .change = SC_CHANGE_MODIFIED}};
	struct sc_plan p = {.files = f, .n_files = 2, .merge_base = "b", .head = "h"};
	struct sc_samples sm;
	sc_samples_init(&sm, &p, "r", "d");
	record_one(&sm, SC_SIDE_HEAD, SC_PREBUILD_ID, 0, 9.0);
	record_one(&sm, SC_SIDE_BASE, "A.C", 0, -1);
	record_one(&sm, SC_SIDE_HEAD, "A.C", 0, 2.0);
	record_one(&sm, SC_SIDE_HEAD, "A.C", 1, 3.0);
	record_one(&sm, SC_SIDE_HEAD, "A.C", 2, -1);
	const struct sc_file_cpu *b = sc_samples_cpu(&sm, &f[0]), *c = sc_samples_cpu(&sm, &f[1]);
	ck_assert_int_eq(b->ok[SC_SIDE_HEAD] + b->n[SC_SIDE_HEAD] + b->n[SC_SIDE_BASE], 0);
	ck_assert_int_eq(c->ok[SC_SIDE_BASE], 0);
	ck_assert_int_eq(c->n[SC_SIDE_BASE], 0);
	ck_assert_int_eq(c->ok[SC_SIDE_HEAD], 1);
	ck_assert_int_eq(c->ms[SC_SIDE_HEAD], 2001);
	ck_assert_int_eq(c->n[SC_SIDE_HEAD], 2);
	ck_assert_int_eq(c->all[SC_SIDE_HEAD][1], 3001);
	ck_assert_int_eq(sm.failed, 1); /* the first base sample; the repeat's never counts */
	sc_samples_release(&sm);
}
END_TEST

/* Documentation/measurement.txt "Shards": a shard's run binds every
 * sample to its shard; an unsharded run's carry none. */
START_TEST(samples_carry_their_runs_shard)
{
	struct sc_plan_file f[1] = {{.id = "A.B", .change = SC_CHANGE_MODIFIED}};
	struct sc_plan p = {.files = f, .n_files = 1, .merge_base = "b", .head = "h"};
	struct sc_samples sm;
	struct sc_sample s;
	sc_samples_init(&sm, &p, "r", "d");
	sc_samples_bind(&sm, SC_SIDE_HEAD, "A.B", 0, &s);
	ck_assert_uint_eq(s.shard, 0);
	sc_sample_free(&s);
	sm.shard = 3;
	sc_samples_bind(&sm, SC_SIDE_BASE, SC_PREBUILD_ID, 0, &s);
	ck_assert_uint_eq(s.shard, 3);
	sc_sample_free(&s);
	sc_samples_release(&sm);
}
END_TEST

/* README "one figure everywhere": the progress line shows the CPU the
 * report compares (the larger of rusage and the task clock), truncated as
 * the report truncates it, never rounded. */
START_TEST(progress_figures_are_the_reports)
{
	struct sc_thresholds th;
	struct sc_display d;
	sc_thresholds_default(&th);
	sc_display_init(&th, &d);
	struct sc_sample s = {.ok = 1, .cpu_s = 0.418, .cpu_user_s = 0.4, .cpu_sys_s = 0.018,
	                      .wall_s = 0.449, .has_task_clock = 1, .task_clock_s = 0.429};
	struct strbuf out = STRBUF_INIT;
	sc_sample_figures(&d, &s, &out);
	ck_assert_str_eq(out.buf, "0.42 s CPU, 0.4 s wall");
	s.has_task_clock = 0;
	s.cpu_s = 12.999;
	s.wall_s = 13.05;
	sb_reset(&out);
	sc_sample_figures(&d, &s, &out);
	ck_assert_str_eq(out.buf, "12.99 s CPU, 13.1 s wall");
	sb_release(&out);
}
END_TEST

START_TEST(phase_budget_caps_and_stops_samples)
{
	/* 100 s budget from t=10: at t=60, 50 s left; a 300 s sample gets 50 s. */
	double left = sc_phase_left(100, 10, 60);
	ck_assert_double_eq_tol(left, 50, 1e-9);
	ck_assert(sc_phase_can_start(left));
	ck_assert_double_eq_tol(sc_sample_timeout(left, 300), 50, 1e-9);
	ck_assert_double_eq_tol(sc_sample_timeout(left, 20), 20, 1e-9);
	/* Half a second or less left: no sample starts. */
	ck_assert(!sc_phase_can_start(sc_phase_left(100, 10, 109.5)));
	ck_assert(!sc_phase_can_start(sc_phase_left(100, 10, 200)));
	ck_assert(sc_phase_can_start(sc_phase_left(100, 10, 109.4)));
}
END_TEST

START_TEST(phase_budget_runs_on_across_sides)
{
	/* The base side used 70 s; the head side's phase starts at t=500 with
	 * 30 s left, whatever its prebuild took. */
	double start = sc_phase_resume(70, 500);
	ck_assert_double_eq_tol(sc_phase_left(100, start, 500), 30, 1e-9);
	ck_assert(!sc_phase_can_start(sc_phase_left(100, start, 530)));
}
END_TEST

static char *scratch(void)
{
	char *d = xstrdup("/tmp/sc-unit-ws-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	return d;
}

START_TEST(workspace_claimed_once_and_marked_incomplete)
{
	char *d = scratch();
	char *ws = xasprintf("%s/ws", d);
	char *real = sc_workspace_claim(ws, "{}\n", 3);
	ck_assert_str_eq(real, ws);
	struct strbuf sb = STRBUF_INIT;
	char *marker = xasprintf("%s/" SC_WORKSPACE_INCOMPLETE, ws);
	ck_assert_int_eq(sc_read_file(marker, &sb, 4096), 0);
	ck_assert_str_eq(sb.buf, "This profile run has not finished: no report here is complete.\n");
	char *plan = xasprintf("%s/plan.json", ws);
	sb_reset(&sb);
	ck_assert_int_eq(sc_read_file(plan, &sb, 4096), 0);
	ck_assert_str_eq(sb.buf, "{}\n");
	/* A second claim of the same folder dies with the usage code. */
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (freopen("/dev/null", "w", stderr) == NULL)
			_exit(99);
		free(sc_workspace_claim(ws, "{}\n", 3));
		_exit(0);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 2);
	sc_workspace_complete(ws);
	struct stat s;
	ck_assert_int_lt(stat(marker, &s), 0);
	ck_assert_int_eq(stat(plan, &s), 0);
	unlink(plan);
	rmdir(ws);
	rmdir(d);
	sb_release(&sb);
	free(plan);
	free(marker);
	free(real);
	free(ws);
	free(d);
}
END_TEST

START_TEST(workspace_raw_paths)
{
	char *p = sc_workspace_raw("/w", "head", "Foo.Bar", "time");
	ck_assert_str_eq(p, "/w/raw/head-Foo.Bar.time");
	free(p);
}
END_TEST

START_TEST(workspace_parent_before_it_exists)
{
	const char *cases[][2] = {{"ws", "."}, {"/ws", "/"}, {"a/ws", "a"}, {"/a/b/ws", "/a/b"}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *p = sc_workspace_parent(cases[i][0]);
		ck_assert_str_eq(p, cases[i][1]);
		free(p);
	}
}
END_TEST

START_TEST(stage_exit_code_keeps_system_failures)
{
	ck_assert_int_eq(sc_stage_exit_code(1, SC_EXIT_FAIL), SC_EXIT_FAIL);
	ck_assert_int_eq(sc_stage_exit_code(1, SC_EXIT_USAGE), SC_EXIT_USAGE);
	ck_assert_int_eq(sc_stage_exit_code(2, SC_EXIT_USAGE), SC_EXIT_USAGE);
	ck_assert_int_eq(sc_stage_exit_code(2, SC_EXIT_FAIL), SC_EXIT_FAIL);
	/* its own system failure, or killed by a signal we did not pass on */
	ck_assert_int_eq(sc_stage_exit_code(3, SC_EXIT_USAGE), SC_EXIT_SYSTEM);
	ck_assert_int_eq(sc_stage_exit_code(3, SC_EXIT_FAIL), SC_EXIT_SYSTEM);
	ck_assert_int_eq(sc_stage_exit_code(128 + 9, SC_EXIT_USAGE), SC_EXIT_SYSTEM);
	ck_assert_int_eq(sc_stage_exit_code(128 + 15, SC_EXIT_FAIL), SC_EXIT_SYSTEM);
	ck_assert(!sc_stage_system_failure(127));
	ck_assert(sc_stage_system_failure(128));
}
END_TEST

/* The exit status of sc_stage_die(rc, failed, ...) in a child. */
static int stage_die_status(int rc, int failed)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (freopen("/dev/null", "w", stderr) == NULL)
			_exit(99);
		sc_stage_die(rc, failed, "stage failed (%s)", "here");
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

START_TEST(stage_die_exits_with_the_stage_code)
{
	ck_assert_int_eq(stage_die_status(2, SC_EXIT_USAGE), SC_EXIT_USAGE);
	ck_assert_int_eq(stage_die_status(1, SC_EXIT_FAIL), SC_EXIT_FAIL);
	ck_assert_int_eq(stage_die_status(3, SC_EXIT_FAIL), SC_EXIT_SYSTEM);
	ck_assert_int_eq(stage_die_status(128 + 9, SC_EXIT_USAGE), SC_EXIT_SYSTEM);
}
END_TEST

START_TEST(sandboxed_step_outcome)
{
	ck_assert_int_eq(sc_step_outcome_of(0), SC_STEP_OK);
	ck_assert_int_eq(sc_step_outcome_of(1), SC_STEP_FAILED);
	ck_assert_int_eq(sc_step_outcome_of(2), SC_STEP_NOT_RUN);
	ck_assert_int_eq(sc_step_outcome_of(3), SC_STEP_NOT_RUN);
	ck_assert_int_eq(sc_step_outcome_of(128 + 9), SC_STEP_NOT_RUN);
}
END_TEST

START_TEST(log_paths_and_hints)
{
	struct sc_step_opts o = {.keep_logs_hint = "rerun with --keep-logs to keep Lake's output"};
	struct sc_steps steps;
	sc_steps_init(&steps, &o, "/x", NULL);
	sc_steps_set_workspace(&steps, "/w");
	char *p = sc_step_log_path(&steps, SC_SIDE_HEAD, "prebuild");
	ck_assert_str_eq(p, "/w/logs/head-prebuild.log");
	free(p);
	p = sc_step_output_hint(&steps, SC_SIDE_BASE, "Foo.Bar");
	ck_assert_str_eq(p, "rerun with --keep-logs to keep Lake's output");
	free(p);
	o.keep_logs = 1;
	p = sc_step_output_hint(&steps, SC_SIDE_BASE, "Foo.Bar");
	ck_assert_str_eq(p, "Lake's output: logs/base-Foo.Bar.log");
	free(p);
	ck_assert_str_eq(steps.tree[SC_SIDE_BASE], "/w/base");
	ck_assert_str_eq(steps.tree[SC_SIDE_HEAD], "/w/head");
	sc_steps_release(&steps);
}
END_TEST

/* The stop-signal handler passes the signal on with kill(), which sets
 * errno (ESRCH for a stage already gone): the code it interrupted must
 * find errno as it was.  In a child of its own: the handler stays. */
START_TEST(stage_signal_handler_keeps_errno)
{
	char dir[] = "/tmp/sc-stage-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *script = xasprintf("%s/sc-quick", dir);
	ck_assert_int_eq(sc_write_file_atomic(script, "#!/bin/sh\nexit 0\n", 17, 0755), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sc_stage_init_signals();
		struct sc_stage st;
		const char *const args[] = {NULL};
		sc_stage_start(&st, dir, "quick", args, SC_STAGE_INHERIT);
		/* Reaped behind the stage table's back: the handler's kill
		 * then fails. */
		int status;
		if (waitpid(st.pid, &status, 0) != st.pid)
			_exit(2);
		errno = EDOM;
		raise(SIGTERM);
		_exit(errno == EDOM && sc_stage_interrupted() == SIGTERM ? 0 : 1);
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	unlink(script);
	rmdir(dir);
	free(script);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("run");
	tcase_add_test(tc, steps_count_samples_and_prebuild_layers);
	tcase_add_test(tc, progress_figures_are_the_reports);
	tcase_add_test(tc, recorded_samples_are_what_repeats_judge);
	tcase_add_test(tc, samples_carry_their_runs_shard);
	tcase_add_test(tc, phase_budget_caps_and_stops_samples);
	tcase_add_test(tc, phase_budget_runs_on_across_sides);
	tcase_add_test(tc, workspace_claimed_once_and_marked_incomplete);
	tcase_add_test(tc, workspace_raw_paths);
	tcase_add_test(tc, workspace_parent_before_it_exists);
	tcase_add_test(tc, stage_exit_code_keeps_system_failures);
	tcase_add_test(tc, stage_die_exits_with_the_stage_code);
	tcase_add_test(tc, stage_signal_handler_keeps_errno);
	tcase_add_test(tc, sandboxed_step_outcome);
	tcase_add_test(tc, log_paths_and_hints);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
