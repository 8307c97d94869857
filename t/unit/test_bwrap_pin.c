/* Unit tests for common/sandbox/bwrap_pin: the pinned SHA-256 is exactly
 * 64 hex digits, compared in lowercase; several pins, one must match; the
 * line to paste names this host's binary. */
#include "unit_main.h"
#include "unit_tmp.h"
#include "sandbox/bwrap_pin.h"
#include "util/sha256.h"

#include <string.h>
#include <sys/stat.h>

#define H64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

START_TEST(pin_sha_lowercased)
{
	char lower[65];
	ck_assert_int_eq(sc_bwrap_pin_sha(H64, lower), 0);
	ck_assert_str_eq(lower, H64);
	ck_assert_int_eq(sc_bwrap_pin_sha("0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789ABCDEF", lower), 0);
	ck_assert_str_eq(lower, H64);
}
END_TEST

START_TEST(pin_sha_refusals)
{
	char lower[65];
	ck_assert_int_eq(sc_bwrap_pin_sha("", lower), -1);
	ck_assert_int_eq(sc_bwrap_pin_sha(H64 "0", lower), -1);
	ck_assert_int_eq(sc_bwrap_pin_sha(H64 + 1, lower), -1);
	char bad[65];
	memcpy(bad, H64, sizeof bad);
	bad[10] = 'g';
	ck_assert_int_eq(sc_bwrap_pin_sha(bad, lower), -1);
	bad[10] = ' ';
	ck_assert_int_eq(sc_bwrap_pin_sha(bad, lower), -1);
}
END_TEST

/* A stand-in bubblewrap that answers --version like the real one. */
static const char *fake_bwrap(char sha[65])
{
	static char path[128];
	snprintf(path, sizeof path, "%s/bwrap", sc_unit_tmp_make("pin"));
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\necho 'bubblewrap 9.9.9'\n", f);
	fclose(f);
	chmod(path, 0755);
	ck_assert_int_eq(sc_sha256_file_hex(path, sha), 0);
	return path;
}

START_TEST(pin_line_names_this_binary)
{
	char sha[65];
	const char *bwrap = fake_bwrap(sha);
	struct strbuf line = STRBUF_INIT;
	sc_bwrap_pin_line(bwrap, &line);
	char want[128];
	snprintf(want, sizeof want, "bwrapPin = 9.9.9 %s", sha);
	ck_assert_str_eq(line.buf, want);
	sb_release(&line);
}
END_TEST

START_TEST(one_of_several_pins_matches)
{
	char sha[65];
	const char *bwrap = fake_bwrap(sha);
	const char *pins[] = {H64, "0.8.0", sha, "bubblewrap 9.9.9"};
	ck_assert_int_eq(sc_bwrap_pin_check(bwrap, pins, 2), 0);
}
END_TEST

START_TEST(no_pin_matches)
{
	char sha[65];
	const char *bwrap = fake_bwrap(sha);
	const char *pins[] = {H64, "9.9.9", H64, "0.8.0"};
	sc_bwrap_pin_check(bwrap, pins, 2);
}
END_TEST

START_TEST(pin_of_another_version)
{
	char sha[65];
	const char *bwrap = fake_bwrap(sha);
	const char *pins[] = {sha, "9.9.8"};
	sc_bwrap_pin_check(bwrap, pins, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bwrap_pin");
	TCase *tc = tcase_create("bwrap_pin");
	tcase_add_test(tc, pin_sha_lowercased);
	tcase_add_test(tc, pin_sha_refusals);
	tcase_add_checked_fixture(tc, NULL, sc_unit_tmp_remove);
	tcase_add_test(tc, pin_line_names_this_binary);
	tcase_add_test(tc, one_of_several_pins_matches);
	const char *fork = getenv("CK_FORK");
	if (!fork || strcmp(fork, "no") != 0) {
		tcase_add_exit_test(tc, no_pin_matches, 2);
		tcase_add_exit_test(tc, pin_of_another_version, 2);
	}
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
