/* common/report/mdescape: no string, however hostile, can break a report.md table
 * row or inject markup.  (Plan paths are validated Lean identifiers, so the
 * end-to-end tool never sees these; this is the defence in depth.) */
#include "unit_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/mdescape.h"

static char *esc(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	sc_md_escape(s, &sb);
	return sb_detach(&sb, NULL);
}

/* Everything an escaped string may contain: printable ASCII, no markup
 * character, '&' only opening a numeric reference, '_' only between two
 * alphanumerics, '.' never after "www".  (Plain ifs: check's assertions
 * are too slow for the exhaustive loop below.) */
static int alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static void assert_inert(const char *out)
{
	for (const char *p = out; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c >= 0x7f)
			ck_abort_msg("non-printable byte 0x%02x in \"%s\"", c, out);
		if (strchr("|`*[]<>\\~$:!@{}^", c))
			ck_abort_msg("markup character '%c' in \"%s\"", c, out);
		if (c == '&' && p[1] != '#')
			ck_abort_msg("bare '&' in \"%s\"", out);
		if (c == '_' && (p == out || !alnum(p[-1]) || !alnum(p[1])))
			ck_abort_msg("'_' not inside a word in \"%s\"", out);
		if (c == '.' && p - out >= 3 && strncasecmp(p - 3, "www", 3) == 0)
			ck_abort_msg("autolink \"www.\" in \"%s\"", out);
	}
}

START_TEST(plain_paths)
{
	const struct {
		const char *in, *out;
	} cases[] = {
		{"Mathlib/Algebra/Group-Basic.lean", "Mathlib/Algebra/Group-Basic.lean"},
		{"Lib/Foo_bar.lean", "Lib/Foo_bar.lean"},
		{"f(x) = y + z, w; 'q' \"r\"?", "f(x) = y + z, w; 'q' \"r\"?"},
		/* '_' at a word's edge could delimit emphasis. */
		{"_a", "&#95;a"},
		{"a_", "a&#95;"},
		{"a__b", "a&#95;&#95;b"},
		{"a_.b", "a&#95;.b"},
		{"a_\xc3\xa9", "a&#95;&#233;"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *o = esc(cases[i].in);
		ck_assert_str_eq(o, cases[i].out);
		assert_inert(o);
		free(o);
	}
}
END_TEST

START_TEST(markup_is_neutralized)
{
	const struct {
		const char *in, *out;
	} cases[] = {
		{"a|b", "a&#124;b"},
		{"`code`", "&#96;code&#96;"},
		{"**bold** _em_ ~~s~~", "&#42;&#42;bold&#42;&#42; &#95;em&#95; &#126;&#126;s&#126;&#126;"},
		{"x_a_ *b*", "x_a&#95; &#42;b&#42;"},
		{"[x](javascript:1)", "&#91;x&#93;(javascript&#58;1)"},
		{"![i](http://e/x.png)", "&#33;&#91;i&#93;(http&#58;//e/x.png)"},
		{"<script>&amp;", "&#60;script&#62;&#38;amp;"},
		{"\\|", "&#92;&#124;"},
		{"www.example.com", "www&#46;example.com"},
		{"x/WwW.lean", "x/WwW&#46;lean"},
		{"a@b.org mailto:a", "a&#64;b.org mailto&#58;a"},
		{"$x$ :smile: @user #1", "&#36;x&#36; &#58;smile&#58; &#64;user &#35;1"},
		{"line\nbreak\r\ttab", "line&#xFFFD;break&#xFFFD;&#xFFFD;tab"},
		{"\x7f", "&#xFFFD;"},
		{"caf\xc3\xa9 \xf0\x9f\x98\x80", "caf&#233; &#128512;"},
		{"\xff", "&#xFFFD;"},
		{"\xc0\xaf", "&#xFFFD;&#xFFFD;"},     /* overlong '/' */
		{"\xed\xa0\x80", "&#xFFFD;&#xFFFD;&#xFFFD;"}, /* surrogate */
		{"\xe2\x82", "&#xFFFD;&#xFFFD;"},     /* truncated */
		{"\xc2\x85", "&#xFFFD;"},             /* C1 control (NEL) */
		{"", ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *o = esc(cases[i].in);
		ck_assert_str_eq(o, cases[i].out);
		assert_inert(o);
		free(o);
	}
}
END_TEST

/* Every pair of bytes, alone, after "ww" (so "www." is reachable) and
 * between two letters (so '_' has word neighbours). */
START_TEST(every_byte_pair_is_inert)
{
	static const char *const frames[][2] = {{"", ""}, {"ww", ""}, {"x", "y"}};
	char in[8];
	for (size_t f = 0; f < 3; f++)
		for (int a = 1; a < 256; a++)
			for (int b = 1; b < 256; b++) {
				snprintf(in, sizeof in, "%s%c%c%s", frames[f][0], a, b, frames[f][1]);
				char *o = esc(in);
				assert_inert(o);
				free(o);
			}
}
END_TEST

START_TEST(code_wrapper)
{
	struct strbuf sb = STRBUF_INIT;
	sc_md_code("a`b|c</code>", &sb);
	ck_assert_str_eq(sb.buf, "<code>a&#96;b&#124;c&#60;/code&#62;</code>");
	sb_reset(&sb);
	sc_md_code("Lib/A.lean", &sb);
	ck_assert_str_eq(sb.buf, "<code>Lib/A.lean</code>");
	sb_reset(&sb);
	sc_md_code("a`b|c</code>", &sb);
	/* Exactly one opening and one closing tag survive. */
	ck_assert_ptr_eq(strstr(sb.buf + 1, "<code>"), NULL);
	ck_assert_ptr_eq(strstr(sb.buf, "</code>"), sb.buf + sb.len - 7);
	/* A path may wrap after each '/'; its parts are escaped as ever. */
	sb_reset(&sb);
	sc_md_code_path("Lib/Deep/A.lean", &sb);
	ck_assert_str_eq(sb.buf, "<code>Lib/<wbr>Deep/<wbr>A.lean</code>");
	sb_reset(&sb);
	sc_md_code_path("A.lean", &sb);
	ck_assert_str_eq(sb.buf, "<code>A.lean</code>");
	sb_reset(&sb);
	sc_md_code_path("a|b/</code>/", &sb);
	ck_assert_str_eq(sb.buf, "<code>a&#124;b/<wbr>&#60;/<wbr>code&#62;/<wbr></code>");
	sb_release(&sb);
}
END_TEST

START_TEST(printable_utf8)
{
	ck_assert(sc_is_printable_utf8("Lean (version 4.34.0, x86_64, Release)"));
	ck_assert(sc_is_printable_utf8("caf\xc3\xa9"));
	ck_assert(sc_is_printable_utf8(""));
	ck_assert(!sc_is_printable_utf8("a\nb"));
	ck_assert(!sc_is_printable_utf8("\x1b[31m"));
	ck_assert(!sc_is_printable_utf8("\xff"));
	ck_assert(!sc_is_printable_utf8("\xc0\xaf"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mdescape");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, plain_paths);
	tcase_add_test(tc, markup_is_neutralized);
	tcase_add_test(tc, every_byte_pair_is_inert);
	tcase_add_test(tc, code_wrapper);
	tcase_add_test(tc, printable_utf8);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
