/* libFuzzer: sc_attr_parse (Lean's profile, written by the candidate's Lean
 * in the sandbox) on arbitrary bytes.  It either refuses with one line or
 * yields sums that hold together: every name one printable line within its
 * bound, every figure finite and not negative, the declarations and what
 * lies outside them adding up to the total, largest first. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/attribution.h"

static void check_sums(const struct sc_attr_sum *v, size_t n, double *sum)
{
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i].ms) || v[i].ms < 0 || strlen(v[i].name) > SC_ATTR_NAME_MAX)
			abort();
		for (const char *p = v[i].name; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				abort();
		if (i && v[i].ms > v[i - 1].ms)
			abort();
		*sum += v[i].ms;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_attr a;
	struct strbuf why = STRBUF_INIT;
	if (sc_attr_parse((const char *)data, size, 0, &a, &why) < 0) {
		if (!why.len || strchr(why.buf, '\n') || a.n_decls || a.n_cats)
			abort();
		sb_release(&why);
		return 0;
	}
	double decls = a.outside_ms, cats = 0;
	check_sums(a.decls, a.n_decls, &decls);
	check_sums(a.cats, a.n_cats, &cats);
	if (!isfinite(a.total_ms) || fabs(decls - a.total_ms) > 1e-6 * (1 + a.total_ms) ||
	    fabs(cats - a.total_ms) > 1e-6 * (1 + a.total_ms))
		abort();
	sc_attr_free(&a);
	sb_release(&why);
	return 0;
}
