/* Unit tests for common/sandbox/bwrap_pin: the pinned SHA-256 is exactly
 * 64 hex digits, compared in lowercase. */
#include "unit_main.h"
#include "sandbox/bwrap_pin.h"

#include <string.h>

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

int main(void)
{
	Suite *s = suite_create("bwrap_pin");
	TCase *tc = tcase_create("bwrap_pin");
	tcase_add_test(tc, pin_sha_lowercased);
	tcase_add_test(tc, pin_sha_refusals);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
