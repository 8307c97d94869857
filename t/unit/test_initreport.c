/* Unit tests for common/sandbox/initreport: the host's reading of sc-pid1's
 * report pipe. */
#include "unit_main.h"
#include "sandbox/initreport.h"

#include <errno.h>
#include <string.h>

START_TEST(ready_then_exit)
{
	struct sc_init_report ir;
	sc_init_report_parse("ready -\nexit 3\n", &ir);
	ck_assert(ir.ready);
	ck_assert(ir.has_status);
	ck_assert_int_eq(ir.exit_code, 3);
	ck_assert_int_eq(ir.signal, 0);
	ck_assert_int_eq(ir.exec_errno, 0);
	ck_assert_str_eq(ir.failure, "");
}
END_TEST

START_TEST(signal_and_last_line_without_newline)
{
	struct sc_init_report ir;
	sc_init_report_parse("ready -\nsignal 9", &ir);
	ck_assert(ir.has_status);
	ck_assert_int_eq(ir.exit_code, -1);
	ck_assert_int_eq(ir.signal, 9);
}
END_TEST

START_TEST(exec_failure_and_init_failure)
{
	struct sc_init_report ir;
	sc_init_report_parse("ready -\nexec-failed 2\n", &ir);
	ck_assert_int_eq(ir.exec_errno, 2);
	ck_assert(!ir.has_status);
	sc_init_report_parse("exec-failed 0\n", &ir);
	ck_assert_int_eq(ir.exec_errno, EINVAL);
	sc_init_report_parse("init-failed cannot mount /proc\n", &ir);
	ck_assert(!ir.ready);
	ck_assert_str_eq(ir.failure, "cannot mount /proc");
}
END_TEST

START_TEST(self_test_lines)
{
	struct sc_init_report ir;
	sc_init_report_parse("ready -\nself-test-ok -\n", &ir);
	ck_assert(ir.self_test_ok);
	sc_init_report_parse("ready -\nself-test-failed network reachable\n", &ir);
	ck_assert(!ir.self_test_ok);
	ck_assert_str_eq(ir.failure, "network reachable");
}
END_TEST

START_TEST(unknown_and_overlong_lines_are_harmless)
{
	struct sc_init_report ir;
	char big[2000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "init-failed ", 12);
	sc_init_report_parse(big, &ir);
	ck_assert_uint_eq(strlen(ir.failure), 255);
	sc_init_report_parse("exit\nready\nreadyy -\n", &ir);
	ck_assert(!ir.ready);
	ck_assert(!ir.has_status);
	sc_init_report_parse("", &ir);
	ck_assert(!ir.ready);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("initreport");
	TCase *tc = tcase_create("initreport");
	tcase_add_test(tc, ready_then_exit);
	tcase_add_test(tc, signal_and_last_line_without_newline);
	tcase_add_test(tc, exec_failure_and_init_failure);
	tcase_add_test(tc, self_test_lines);
	tcase_add_test(tc, unknown_and_overlong_lines_are_harmless);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
