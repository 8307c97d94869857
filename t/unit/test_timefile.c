/* Unit tests for common/sandbox/timefile.c (the GNU time counter file) and
 * common/util/pathcheck.c (containment of sandbox paths). */
#include "unit_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/pathcheck.h"
#include "util/strbuf.h"
#include "contract/timefile.h"

#define BODY(u, s, m, x, e) "sc-time/1\nuser " u "\nsys " s "\nmaxrss_kib " m "\nexit " x "\nelapsed " e "\n"
#define GOOD BODY("1.25", "0.10", "204800", "0", "1.40")

static int parse(const char *text, struct sc_timefile *tf)
{
	struct strbuf err = STRBUF_INIT;
	int rc = sc_timefile_parse(text, strlen(text), tf, &err);
	if (rc == 0)
		ck_assert_uint_eq(err.len, 0);
	else
		ck_assert_uint_gt(err.len, 0); /* a failure always says why */
	sb_release(&err);
	return rc;
}

START_TEST(accepts_what_gnu_time_writes)
{
	struct sc_timefile tf;
	ck_assert_int_eq(parse(GOOD, &tf), 0);
	ck_assert_double_eq_tol(tf.user_s, 1.25, 1e-9);
	ck_assert_double_eq_tol(tf.sys_s, 0.10, 1e-9);
	ck_assert_double_eq_tol(tf.elapsed_s, 1.40, 1e-9);
	ck_assert_int_eq(tf.max_rss_kib, 204800);
	ck_assert_int_eq(tf.exit_code, 0);
	ck_assert_int_eq(tf.signal, 0);
	/* no final newline, or one empty line after it */
	const char *no_nl = "sc-time/1\nuser 0.00\nsys 0.00\nmaxrss_kib 1\nexit 0\nelapsed 0.00";
	ck_assert_int_eq(parse(no_nl, &tf), 0);
	ck_assert_int_eq(parse(GOOD "\n", &tf), 0);
	/* integer seconds, and zeros past the millisecond, are still plain decimals */
	ck_assert_int_eq(parse(BODY("3", "0.123000000", "0", "0", "12"), &tf), 0);
	ck_assert_double_eq_tol(tf.sys_s, 0.123, 1e-12);
}
END_TEST

/* Samples are whole milliseconds: a finer counter is refused where it is
 * read, never rounded (149.999999999 would be a flagged 150.000; 100.0005
 * + 0.0005 a sample whose cpu_s is not user + sys). */
START_TEST(refuses_more_than_milliseconds)
{
	struct sc_timefile tf;
	ck_assert_int_eq(parse(BODY("149.999999999", "0.00", "1", "0", "150"), &tf), -1);
	ck_assert_int_eq(parse(BODY("100.0005", "0.0005", "1", "0", "101"), &tf), -1);
	ck_assert_int_eq(parse(BODY("1.00", "0.0001", "1", "0", "1"), &tf), -1);
	ck_assert_int_eq(parse(BODY("1.00", "0.00", "1", "0", "1.0001"), &tf), -1);
	ck_assert_int_eq(parse(BODY("1.999", "0.001", "1", "0", "2.5"), &tf), 0);
}
END_TEST

START_TEST(leading_status_lines)
{
	struct sc_timefile tf;
	ck_assert_int_eq(parse("Command exited with non-zero status 3\n" BODY("0.5", "0.0", "1", "3", "0.6"), &tf), 0);
	ck_assert_int_eq(tf.exit_code, 3);
	ck_assert_int_eq(parse("Command terminated by signal 9\n" BODY("0.5", "0.0", "1", "0", "0.6"), &tf), 0);
	ck_assert_int_eq(tf.signal, 9);
	ck_assert_int_eq(parse("Command stopped by signal 19\n" GOOD, &tf), 0);
	ck_assert_int_eq(tf.stopped, 1);
	/* the exit status must agree with the leading line */
	ck_assert_int_eq(parse("Command exited with non-zero status 3\n" BODY("0.5", "0.0", "1", "4", "0.6"), &tf), -1);
	ck_assert_int_eq(parse(BODY("0.5", "0.0", "1", "4", "0.6"), &tf), -1);
	ck_assert_int_eq(parse("Command exited with non-zero status 0\n" GOOD, &tf), -1);
	ck_assert_int_eq(parse("Command exited with non-zero status x\n" GOOD, &tf), -1);
	ck_assert_int_eq(parse("Command terminated by signal 99\n" GOOD, &tf), -1);
	ck_assert_int_eq(parse("Command exited with non-zero status 1\n", &tf), -1);
	/* two leading lines, or one anywhere else */
	ck_assert_int_eq(parse("Command terminated by signal 9\nCommand terminated by signal 9\n" GOOD, &tf), -1);
	ck_assert_int_eq(parse(GOOD "Command terminated by signal 9\n", &tf), -1);
}
END_TEST

START_TEST(rejects_garbled_and_truncated)
{
	struct sc_timefile tf;
	const char *bad[] = {
		"",
		"\n",
		"sc-time/1\n",
		"sc-time/1\nuser 1.00\nsys 0.00\nmaxrss_kib 1\nexit 0\n",         /* truncated */
		"sc-time/1\nuser 1.00\nsys 0.00\nmaxrss_kib 1\nexit 0\nelapsed ", /* cut in a value */
		"sc-time/2\nuser 1.00\nsys 0.00\nmaxrss_kib 1\nexit 0\nelapsed 1.00\n",
		"sc-time/1\nsys 0.00\nuser 1.00\nmaxrss_kib 1\nexit 0\nelapsed 1.00\n", /* reordered */
		"sc-time/1\nuser 1.00\nuser 1.00\nsys 0.00\nmaxrss_kib 1\nexit 0\nelapsed 1.00\n",
		GOOD "user 1.00\n",                                                /* trailing */
		GOOD "\n\n",
		"0.01user 0.00system 0:00.00elapsed\n",                            /* default format */
		"user=0.01 sys=0.00\n",
		"sc-time/1\nuser  1.00\nsys 0.00\nmaxrss_kib 1\nexit 0\nelapsed 1.00\n",
		"sc-time/1\r\nuser 1.00\r\nsys 0.00\r\nmaxrss_kib 1\r\nexit 0\r\nelapsed 1.00\r\n",
		" sc-time/1\nuser 1.00\nsys 0.00\nmaxrss_kib 1\nexit 0\nelapsed 1.00\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(parse(bad[i], &tf) == -1, "accepted bad input %zu", i);
	/* a NUL byte inside */
	char with_nul[] = GOOD;
	with_nul[12] = '\0';
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(sc_timefile_parse(with_nul, sizeof with_nul - 1, &tf, &err), -1);
	sb_release(&err);
}
END_TEST

START_TEST(rejects_bad_numbers)
{
	struct sc_timefile tf;
	const char *users[] = {"-1.00", "+1.00", "nan", "NaN", "inf", "-inf", "1e3", "0x10", "1.", ".5",
	                       "1,5", "1.2.3", "", "1000001.00", "9999999999999.00", "1.0000000001",
	                       " 1.00", "1.00 "};
	for (size_t i = 0; i < sizeof users / sizeof *users; i++) {
		char text[256];
		snprintf(text, sizeof text, BODY("%s", "0.00", "1", "0", "1.00"), users[i]);
		ck_assert_msg(parse(text, &tf) == -1, "accepted user \"%s\"", users[i]);
		snprintf(text, sizeof text, BODY("0.00", "0.00", "1", "0", "%s"), users[i]);
		ck_assert_msg(parse(text, &tf) == -1, "accepted elapsed \"%s\"", users[i]);
	}
	const char *rss[] = {"-1", "1.5", "99999999999999", "4294967297", "", "1k"};
	for (size_t i = 0; i < sizeof rss / sizeof *rss; i++) {
		char text[256];
		snprintf(text, sizeof text, BODY("0.00", "0.00", "%s", "0", "1.00"), rss[i]);
		ck_assert_msg(parse(text, &tf) == -1, "accepted rss \"%s\"", rss[i]);
	}
	ck_assert_int_eq(parse("Command exited with non-zero status 256\n" BODY("0.0", "0.0", "1", "256", "0.0"), &tf), -1);
	/* the bounds themselves are fine */
	ck_assert_int_eq(parse(BODY("1000000.00", "0.00", "4294967296", "0", "0.00"), &tf), 0);
}
END_TEST

START_TEST(path_containment)
{
	ck_assert(sc_path_within("/a/b", "/a"));
	ck_assert(sc_path_within("/a", "/a"));
	ck_assert(!sc_path_within("/ab", "/a"));
	ck_assert(!sc_path_within("/a", "/a/b"));
	ck_assert(sc_path_within("/x", "/"));
	char *p = sc_canonical_new_file("/tmp/../tmp/sc-no-such-file-here");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p, "/tmp/sc-no-such-file-here");
	free(p);
	ck_assert_ptr_null(sc_canonical_new_file("/tmp"));
	ck_assert_ptr_null(sc_canonical_new_file("/no/such/dir/file"));
	ck_assert_ptr_null(sc_canonical_new_file("/tmp/.."));
	ck_assert_ptr_null(sc_canonical_new_file("/tmp/"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("timefile");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, accepts_what_gnu_time_writes);
	tcase_add_test(tc, refuses_more_than_milliseconds);
	tcase_add_test(tc, leading_status_lines);
	tcase_add_test(tc, rejects_garbled_and_truncated);
	tcase_add_test(tc, rejects_bad_numbers);
	tcase_add_test(tc, path_containment);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
