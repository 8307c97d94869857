/* Unit tests for the untrusted-name checks behind sc-materialize. */
#include "unit_main.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "util/safepath.h"
#include "util/strbuf.h"

static int safe(const char *s) { return sc_safe_component(s, strlen(s)); }

START_TEST(components)
{
	ck_assert(safe("a"));
	ck_assert(safe("..."));
	ck_assert(safe("..X"));
	ck_assert(safe(".gitx"));
	ck_assert(safe("-rf"));
	ck_assert(safe("new\nline"));
	ck_assert(!safe(""));
	ck_assert(!safe("."));
	ck_assert(!safe(".."));
	ck_assert(!safe(".git"));
	ck_assert(!safe(".GiT"));
	ck_assert(!safe("a/b"));
	ck_assert(!safe("/"));
	ck_assert(!sc_safe_component("a\0b", 3));
}
END_TEST

START_TEST(quoting)
{
	struct strbuf sb = STRBUF_INIT;
	sc_quote_path(&sb, "a\nb\\c\x7f\xc3\xa9 d", 10);
	ck_assert_str_eq(sb.buf, "a\\x0ab\\x5cc\\x7f\\xc3\\xa9 d");
	sb_release(&sb);
}
END_TEST

static int utf8(const char *s) { return sc_is_utf8(s, strlen(s)); }

START_TEST(utf8_validation)
{
	ck_assert(utf8("plain"));
	ck_assert(utf8("\xc3\xa9t\xc3\xa9"));
	ck_assert(utf8("\xf0\x9f\x98\x80"));
	ck_assert(!utf8("\xc3"));
	ck_assert(!utf8("\xc0\xaf"));         /* overlong '/' */
	ck_assert(!utf8("\xe0\x80\xaf"));     /* overlong */
	ck_assert(!utf8("\xed\xa0\x80"));     /* surrogate */
	ck_assert(!utf8("\xf4\x90\x80\x80")); /* > U+10FFFF */
	ck_assert(!utf8("\xff"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("materialize");
	TCase *tc = tcase_create("safepath");
	tcase_add_test(tc, components);
	tcase_add_test(tc, quoting);
	tcase_add_test(tc, utf8_validation);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
