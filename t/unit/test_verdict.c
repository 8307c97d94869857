/* The threshold arithmetic of common/report/verdict: every boundary, exactly on it
 * and one millisecond below, with numbers as samples carry them (decimal
 * seconds parsed to doubles). */
#include "unit_main.h"
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/verdict.h"
#include "util/milli.h"

static struct sc_thresholds th;

static long long ms(double s)
{
	long long v;
	ck_assert_int_eq(sc_seconds_to_ms(s, &v), 0);
	return v;
}

static int flagged(enum sc_change c, double base, double head)
{
	struct sc_verdict v;
	sc_verdict_compute(c, ms(base), ms(head), &th, &v);
	return v.flagged;
}

static void setup(void) { sc_thresholds_default(&th); }

START_TEST(modified_boundaries)
{
	/* Exactly 1.5x and exactly +30 s: both inclusive. */
	ck_assert(flagged(SC_CHANGE_MODIFIED, 60, 90));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 60, 89.999));
	/* Ratio exactly on 1.5x with room on the delta; 1 ms below. */
	ck_assert(flagged(SC_CHANGE_MODIFIED, 100, 150));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 100, 149.999));
	ck_assert(flagged(SC_CHANGE_MODIFIED, 1000, 1500));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 1000, 1499.999));
	/* Delta exactly +30 s with room on the ratio; 1 ms below. */
	ck_assert(flagged(SC_CHANGE_MODIFIED, 20, 50));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 20, 49.999));
	/* Delta met, ratio 1 ms short (60.001 * 1.5 = 90.0015 > 90.001). */
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 60.001, 90.001));
	/* One condition alone never flags. */
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 100, 130));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 1, 29));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 90, 60));
	/* TauCeti's own CPU cases. */
	ck_assert(flagged(SC_CHANGE_MODIFIED, 50, 80));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 50, 79));
}
END_TEST

START_TEST(modified_where_doubles_miss_the_boundary)
{
	/* In doubles 1.5 * 60.128 = 90.19200000000001 > 90.192 and
	 * 32.001 - 2.001 = 29.999999999999996 < 30: a naive comparison would
	 * not flag either, though both sit exactly on a boundary. */
	ck_assert(1.5 * 60.128 > 90.192);
	ck_assert(32.001 - 2.001 < 30.0);
	ck_assert(flagged(SC_CHANGE_MODIFIED, 60.128, 90.192));
	ck_assert(flagged(SC_CHANGE_MODIFIED, 2.001, 32.001));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 60.128, 90.191));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 2.001, 32.000));
	ck_assert(flagged(SC_CHANGE_MODIFIED, 60.01, 90.015));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 60.01, 90.014));
}
END_TEST

START_TEST(modified_base_zero)
{
	struct sc_verdict v;
	sc_verdict_compute(SC_CHANGE_MODIFIED, 0, 30000, &th, &v);
	ck_assert(v.flagged && v.ratio_met && v.delta_met && !v.has_ratio);
	ck_assert_int_eq(v.delta_ms, 30000);
	sc_verdict_compute(SC_CHANGE_MODIFIED, 0, 29999, &th, &v);
	ck_assert(!v.flagged && v.ratio_met && !v.delta_met && !v.has_ratio);
	sc_verdict_compute(SC_CHANGE_MODIFIED, 0, 0, &th, &v);
	ck_assert(!v.flagged && !v.has_ratio);
	/* 0.0004 s is no whole millisecond: refused, not rounded to "base 0". */
	long long z;
	ck_assert_int_eq(sc_seconds_to_ms(0.0004, &z), -1);
}
END_TEST

START_TEST(added_and_removed)
{
	ck_assert(flagged(SC_CHANGE_ADDED, 0, 150));
	ck_assert(!flagged(SC_CHANGE_ADDED, 0, 149.999));
	ck_assert(flagged(SC_CHANGE_ADDED, 0, 150.001));
	ck_assert(!flagged(SC_CHANGE_ADDED, 0, 0));
	/* The base side of an added file does not exist: ignored. */
	ck_assert(!flagged(SC_CHANGE_ADDED, 1000, 149.999));
	ck_assert(!flagged(SC_CHANGE_REMOVED, 1000, 0));
	ck_assert(!flagged(SC_CHANGE_REMOVED, 0, 0));
	struct sc_verdict v;
	sc_verdict_compute(SC_CHANGE_ADDED, 0, 200000, &th, &v);
	ck_assert(!v.has_ratio);
}
END_TEST

START_TEST(ratio_and_delta_values)
{
	struct sc_verdict v;
	sc_verdict_compute(SC_CHANGE_MODIFIED, 60000, 90000, &th, &v);
	ck_assert_int_eq(v.ratio_milli, 1500);
	ck_assert_int_eq(v.delta_ms, 30000);
	sc_verdict_compute(SC_CHANGE_MODIFIED, 3000, 10000, &th, &v);
	ck_assert_int_eq(v.ratio_milli, 3333);
	sc_verdict_compute(SC_CHANGE_MODIFIED, 3000, 2000, &th, &v);
	ck_assert_int_eq(v.ratio_milli, 666);
	ck_assert_int_eq(v.delta_ms, -1000);
	/* The largest accepted values do not overflow. */
	sc_verdict_compute(SC_CHANGE_MODIFIED, 1, SC_MAX_MS, &th, &v);
	ck_assert(v.flagged);
	th.ratio_milli = 1000000;
	sc_verdict_compute(SC_CHANGE_MODIFIED, SC_MAX_MS, SC_MAX_MS, &th, &v);
	ck_assert(!v.ratio_met);
}
END_TEST

/* report.json's ratio is truncated as every shown figure is: it never
 * sits on the other side of the ratio threshold from the verdict beside
 * it (1.49996x is 1.499, not flagged; exactly 1.5x is 1.500, flagged). */
START_TEST(ratio_never_crosses_its_threshold)
{
	struct sc_verdict v;
	sc_verdict_compute(SC_CHANGE_MODIFIED, 100000, 149996, &th, &v);
	ck_assert(!v.ratio_met);
	ck_assert(!v.flagged);
	ck_assert_int_eq(v.ratio_milli, 1499);
	sc_verdict_compute(SC_CHANGE_MODIFIED, 100000, 150000, &th, &v);
	ck_assert(v.flagged);
	ck_assert_int_eq(v.ratio_milli, 1500);
	for (long long head = 149000; head <= 151000; head += 7) {
		sc_verdict_compute(SC_CHANGE_MODIFIED, 100000, head, &th, &v);
		ck_assert_int_eq(v.ratio_milli >= th.ratio_milli, v.ratio_met);
	}
}
END_TEST

START_TEST(custom_thresholds)
{
	th.ratio_milli = 1200;
	th.delta_ms = 0;
	th.added_ms = 1;
	ck_assert(!sc_thresholds_are_default(&th));
	ck_assert(flagged(SC_CHANGE_MODIFIED, 1, 1.2));
	ck_assert(!flagged(SC_CHANGE_MODIFIED, 1, 1.199));
	ck_assert(flagged(SC_CHANGE_ADDED, 0, 0.001));
	ck_assert(!flagged(SC_CHANGE_ADDED, 0, 0));
	sc_thresholds_default(&th);
	ck_assert(sc_thresholds_are_default(&th));
}
END_TEST

START_TEST(seconds_to_ms)
{
	long long v;
	ck_assert_int_eq(ms(89.999), 89999);
	ck_assert_int_eq(ms(0.001), 1);
	/* Sums and differences of three-decimal numbers carry the double's
	 * error, never a fourth decimal: accepted. */
	ck_assert_int_eq(ms(9.10 + 8.64), 17740);
	ck_assert_int_eq(ms(129.999 - 0.25), 129749);
	ck_assert_int_eq(ms(999999999.999), 999999999999LL);
	/* Finer than a millisecond is refused, never rounded: 149.9995 would
	 * round to a flagged 150 s, 60.0005 -> 90.0008 to a "1.500x". */
	ck_assert_int_eq(sc_seconds_to_ms(149.9995, &v), -1);
	ck_assert_int_eq(sc_seconds_to_ms(60.0005, &v), -1);
	ck_assert_int_eq(sc_seconds_to_ms(90.0008, &v), -1);
	ck_assert_int_eq(sc_seconds_to_ms(0.0005, &v), -1);
	ck_assert_int_eq(sc_seconds_to_ms(0.0001, &v), -1);
	ck_assert_int_eq(ms(150), 150000);
	ck_assert_int_eq(sc_seconds_to_ms(-0.001, &v), -1);
	ck_assert_int_eq(sc_seconds_to_ms(NAN, &v), -1);
	ck_assert_int_eq(sc_seconds_to_ms(INFINITY, &v), -1);
	ck_assert_int_eq(sc_seconds_to_ms(1e10, &v), -1);
	ck_assert_int_eq(sc_seconds_to_ms(1e9, &v), 0);
}
END_TEST

START_TEST(parse_and_format_milli)
{
	long long v;
	ck_assert_int_eq(sc_parse_milli("1.5", SC_MAX_MS, &v), 0);
	ck_assert_int_eq(v, 1500);
	ck_assert_int_eq(sc_parse_milli("30", SC_MAX_MS, &v), 0);
	ck_assert_int_eq(v, 30000);
	ck_assert_int_eq(sc_parse_milli("0.001", SC_MAX_MS, &v), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(sc_parse_milli("149.999", SC_MAX_MS, &v), 0);
	ck_assert_int_eq(v, 149999);
	const char *bad[] = {"", "-1", "+1", "1.", ".5", "1.0001", "1e3", "1.5x", " 1", "nan",
	                     "99999999999999999999", NULL};
	for (const char **b = bad; *b; b++)
		ck_assert_msg(sc_parse_milli(*b, SC_MAX_MS, &v) == -1, "accepted \"%s\"", *b);
	struct strbuf sb = STRBUF_INIT;
	const long long in[] = {1500, 30000, 1, 150001, 0, 1200};
	const char *out[] = {"1.5", "30", "0.001", "150.001", "0", "1.2"};
	for (int i = 0; i < 6; i++) {
		sb_reset(&sb);
		sc_format_milli(in[i], &sb);
		ck_assert_str_eq(sb.buf, out[i]);
	}
	sb_release(&sb);
}
END_TEST

START_TEST(reasons)
{
	struct sc_verdict v;
	struct strbuf sb = STRBUF_INIT;
	const struct {
		enum sc_change c;
		long long base, head;
		const char *want;
	} cases[] = {
		{SC_CHANGE_MODIFIED, 60000, 90000, "head ≥ 1.5× base and ≥ +30 s"},
		{SC_CHANGE_MODIFIED, 60000, 89999, "below 1.5× base and below +30 s"},
		{SC_CHANGE_MODIFIED, 100000, 130000, "below 1.5× base"},
		{SC_CHANGE_MODIFIED, 10000, 20000, "below +30 s"},
		{SC_CHANGE_ADDED, 0, 150000, "new file ≥ 150 s"},
		{SC_CHANGE_ADDED, 0, 149999, "new file below 150 s"},
		{SC_CHANGE_REMOVED, 5000, 0, "removed files are listed, never flagged"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		sb_reset(&sb);
		sc_verdict_compute(cases[i].c, cases[i].base, cases[i].head, &th, &v);
		sc_verdict_reason(cases[i].c, &v, &th, &sb);
		ck_assert_str_eq(sb.buf, cases[i].want);
	}
	sb_release(&sb);
}
END_TEST

static char *fmt_ms(long long v, int d)
{
	static struct strbuf sb = STRBUF_INIT;
	sb_reset(&sb);
	sc_format_ms_floor(v, d, &sb);
	return sb.buf;
}

START_TEST(display_truncates)
{
	struct sc_display d;
	sc_display_init(&th, &d);
	ck_assert_int_eq(d.sec_decimals, 2);
	ck_assert_int_eq(d.ratio_decimals, 2);
	ck_assert_str_eq(fmt_ms(149999, 2), "149.99");
	ck_assert_str_eq(fmt_ms(150000, 2), "150.00");
	ck_assert_str_eq(fmt_ms(-50, 1), "-0.1");
	ck_assert_str_eq(fmt_ms(-50, 2), "-0.05");
	ck_assert_str_eq(fmt_ms(7, 0), "0");
	ck_assert_str_eq(fmt_ms(29999, 3), "29.999");
	struct strbuf sb = STRBUF_INIT;
	sc_format_ratio_floor(90001, 60001, 2, &sb);
	ck_assert_str_eq(sb.buf, "1.49");
	sb_reset(&sb);
	sc_format_ratio_floor(6000, 1000, 2, &sb);
	ck_assert_str_eq(sb.buf, "6.00");
	sb_reset(&sb);
	sc_format_pct_floor(90001, 60001, &sb);
	ck_assert_str_eq(sb.buf, "+49.9");
	sb_reset(&sb);
	sc_format_pct_floor(2000, 3000, &sb);
	ck_assert_str_eq(sb.buf, "-33.4");
	sb_reset(&sb);
	sc_format_pct_floor(3000, 3000, &sb);
	ck_assert_str_eq(sb.buf, "+0.0");
	/* Three-decimal thresholds get three decimals. */
	th.ratio_milli = 1234;
	th.delta_ms = 29999;
	sc_display_init(&th, &d);
	ck_assert_int_eq(d.sec_decimals, 3);
	ck_assert_int_eq(d.ratio_decimals, 3);
	sb_release(&sb);
}
END_TEST

/* Every shown ratio, delta and head, read back, is on the verdict's side of
 * its threshold, for default and odd thresholds around the boundaries. */
START_TEST(display_never_contradicts_the_verdict)
{
	const long long ratios[] = {1500, 1234, 1001}, deltas[] = {30000, 29999, 10}, added[] = {150000, 150001};
	struct strbuf sb = STRBUF_INIT;
	for (int k = 0; k < 3; k++) {
		th.ratio_milli = ratios[k];
		th.delta_ms = deltas[k];
		th.added_ms = added[k % 2];
		struct sc_display d;
		sc_display_init(&th, &d);
		for (long long base = 59900; base <= 60100; base += 7) {
			for (long long head = base * ratios[k] / 1000 - 40; head <= base * ratios[k] / 1000 + 40; head++) {
				struct sc_verdict v;
				long long shown;
				sc_verdict_compute(SC_CHANGE_MODIFIED, base, head, &th, &v);
				sb_reset(&sb);
				sc_format_ratio_floor(head, base, d.ratio_decimals, &sb);
				ck_assert_int_eq(sc_parse_milli(sb.buf, SC_MAX_MS, &shown), 0);
				ck_assert_msg((shown >= th.ratio_milli) == v.ratio_met, "%lld/%lld shows %s", head, base, sb.buf);
			}
		}
		for (long long delta = th.delta_ms < 40 ? 0 : th.delta_ms - 40; delta <= th.delta_ms + 40; delta++) {
			long long shown;
			sb_reset(&sb);
			sc_format_ms_floor(delta, d.sec_decimals, &sb);
			ck_assert_int_eq(sc_parse_milli(sb.buf, SC_MAX_MS, &shown), 0);
			ck_assert((shown >= th.delta_ms) == (delta >= th.delta_ms));
		}
		for (long long head = th.added_ms - 40; head <= th.added_ms + 40; head++) {
			long long shown;
			sb_reset(&sb);
			sc_format_ms_floor(head, d.sec_decimals, &sb);
			ck_assert_int_eq(sc_parse_milli(sb.buf, SC_MAX_MS, &shown), 0);
			ck_assert((shown >= th.added_ms) == (head >= th.added_ms));
		}
	}
	sb_release(&sb);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, modified_boundaries);
	tcase_add_test(tc, modified_where_doubles_miss_the_boundary);
	tcase_add_test(tc, modified_base_zero);
	tcase_add_test(tc, added_and_removed);
	tcase_add_test(tc, ratio_and_delta_values);
	tcase_add_test(tc, ratio_never_crosses_its_threshold);
	tcase_add_test(tc, custom_thresholds);
	tcase_add_test(tc, seconds_to_ms);
	tcase_add_test(tc, parse_and_format_milli);
	tcase_add_test(tc, reasons);
	tcase_add_test(tc, display_truncates);
	tcase_add_test(tc, display_never_contradicts_the_verdict);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
