#include "report/verdict.h"
#include "util/milli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sc_thresholds_default(struct sc_thresholds *t)
{
	t->ratio_milli = SC_DEFAULT_RATIO_MILLI;
	t->delta_ms = SC_DEFAULT_DELTA_MS;
	t->added_ms = SC_DEFAULT_ADDED_MS;
}

int sc_thresholds_are_default(const struct sc_thresholds *t)
{
	return t->ratio_milli == SC_DEFAULT_RATIO_MILLI && t->delta_ms == SC_DEFAULT_DELTA_MS &&
	       t->added_ms == SC_DEFAULT_ADDED_MS;
}

void sc_verdict_compute(enum sc_change change, long long base_ms, long long head_ms,
                        const struct sc_thresholds *t, struct sc_verdict *v)
{
	memset(v, 0, sizeof *v);
	switch (change) {
	case SC_CHANGE_MODIFIED:
	case SC_CHANGE_IMPORTER: /* an unchanged importer: judged as a modified file */
		/* Both operands are <= SC_MAX_MS and the ratio <= 1000x, so the
		 * products stay far below LLONG_MAX. */
		v->ratio_met = head_ms * 1000 >= t->ratio_milli * base_ms;
		v->delta_ms = head_ms - base_ms;
		v->delta_met = v->delta_ms >= t->delta_ms;
		v->flagged = v->ratio_met && v->delta_met;
		if (base_ms > 0) {
			v->has_ratio = 1;
			/* truncated, as every figure shown: never across the
			 * threshold from the verdict (measurement.txt "Report") */
			v->ratio_milli = head_ms * 1000 / base_ms;
		}
		break;
	case SC_CHANGE_ADDED:
		v->flagged = head_ms >= t->added_ms;
		break;
	case SC_CHANGE_REMOVED:
		break;
	}
}

void sc_verdict_reason(enum sc_change change, const struct sc_verdict *v,
                       const struct sc_thresholds *t, struct strbuf *out)
{
	struct strbuf ratio = STRBUF_INIT, delta = STRBUF_INIT, added = STRBUF_INIT;
	sc_format_milli(t->ratio_milli, &ratio);
	sc_format_milli(t->delta_ms, &delta);
	sc_format_milli(t->added_ms, &added);
	switch (change) {
	case SC_CHANGE_MODIFIED:
	case SC_CHANGE_IMPORTER:
		if (v->flagged)
			sb_addf(out, "head ≥ %s× base and ≥ +%s s", ratio.buf, delta.buf);
		else if (!v->ratio_met && !v->delta_met)
			sb_addf(out, "below %s× base and below +%s s", ratio.buf, delta.buf);
		else if (!v->ratio_met)
			sb_addf(out, "below %s× base", ratio.buf);
		else
			sb_addf(out, "below +%s s", delta.buf);
		break;
	case SC_CHANGE_ADDED:
		sb_addf(out, "new file %s %s s", v->flagged ? "≥" : "below", added.buf);
		break;
	case SC_CHANGE_REMOVED:
		sb_adds(out, "removed files are listed, never flagged");
		break;
	}
	sb_release(&ratio);
	sb_release(&delta);
	sb_release(&added);
}

/* Decimals a thousandths value needs: 1500 -> 1, 30000 -> 0, 149999 -> 3. */
static int milli_decimals(long long v)
{
	return v % 10 ? 3 : v % 100 ? 2 : v % 1000 ? 1 : 0;
}

static int at_least(int a, int b) { return a > b ? a : b; }

void sc_display_init(const struct sc_thresholds *t, struct sc_display *d)
{
	d->sec_decimals = at_least(2, at_least(milli_decimals(t->delta_ms), milli_decimals(t->added_ms)));
	d->ratio_decimals = at_least(2, milli_decimals(t->ratio_milli));
}

static long long floor_div(long long a, long long b)
{
	long long q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* v in units of 10^-decimals, printed with that many decimals. */
static void add_scaled(long long v, int decimals, struct strbuf *out)
{
	long long scale = 1;
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	long long a = v < 0 ? -v : v;
	sb_addf(out, "%s%lld", v < 0 ? "-" : "", a / scale);
	if (decimals)
		sb_addf(out, ".%0*lld", decimals, a % scale);
}

void sc_format_ms_floor(long long ms, int decimals, struct strbuf *out)
{
	long long unit = 1;
	for (int i = decimals; i < 3; i++)
		unit *= 10;
	add_scaled(floor_div(ms, unit), decimals, out);
}

void sc_format_ratio_floor(long long head_ms, long long base_ms, int decimals,
                           struct strbuf *out)
{
	long long scale = 1;
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	add_scaled(floor_div(head_ms * scale, base_ms), decimals, out);
}

void sc_format_pct_floor(long long head_ms, long long base_ms, struct strbuf *out)
{
	long long tenths = floor_div((head_ms - base_ms) * 1000, base_ms);
	if (tenths >= 0)
		sb_addc(out, '+');
	add_scaled(tenths, 1, out);
}

void sc_format_wall(long long ms, struct strbuf *out)
{
	long long tenths = (ms + 50) / 100;
	sb_addf(out, "%lld.%lld", tenths / 10, tenths % 10);
}
