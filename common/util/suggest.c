#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

enum { SWAP = 0, SUBST = 2, ADD = 1, DEL = 3 };

static int min2(int a, int b) { return a < b ? a : b; }

/* Turning typed into name: d[i][j] is the cost for typed's first i bytes to
 * become name's first j; names and typed options are short, so the whole
 * table is fine. */
static int osa(const char *a, size_t la, const char *b, size_t lb)
{
	int *d = malloc((la + 1) * (lb + 1) * sizeof *d);
	if (!d)
		abort();
#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = (int)j * ADD;
	for (size_t i = 1; i <= la; i++) {
		D(i, 0) = (int)i * DEL;
		for (size_t j = 1; j <= lb; j++) {
			int v = D(i - 1, j - 1) + (a[i - 1] != b[j - 1] ? SUBST : 0);
			v = min2(v, D(i - 1, j) + DEL);
			v = min2(v, D(i, j - 1) + ADD);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				v = min2(v, D(i - 2, j - 2) + SWAP);
			D(i, j) = v;
		}
	}
	int r = D(la, lb);
#undef D
	free(d);
	return r;
}

/* The nearest run of whole dash-separated parts of name to typed, so that
 * --timout finds --sample-timeout as --timeout does. */
static int nearest_parts(const char *typed, size_t len, const char *name)
{
	int best = SC_SUGGEST_FLOOR;
	for (const char *p = name; *p; p++) {
		if (p != name && p[-1] != '-')
			continue;
		for (const char *e = p + 1; e[-1]; e++)
			if (*e == '-' || *e == '\0')
				best = min2(best, osa(typed, len, p, (size_t)(e - p)));
	}
	return best;
}

int sc_suggest_distance(const char *typed, size_t len, const char *name)
{
	int d = osa(typed, len, name, strlen(name));
	/* a whole part costs 1; one slip in it (a letter missing or swapped,
	 * or one wrong) 2 or 3, where the word is long enough to tell a slip
	 * from another word */
	int part = len ? nearest_parts(typed, len, name) : SC_SUGGEST_FLOOR;
	return part == 0 || (part <= 2 && len >= 4) ? min2(d, 1 + part) : d;
}

void sc_suggest_add(struct sc_suggest *s, const char *typed, size_t len, const char *name)
{
	int d = sc_suggest_distance(typed, len, name);
	if (d > s->best || d >= SC_SUGGEST_FLOOR)
		return;
	if (d < s->best)
		s->best = d, s->n = 0;
	if (s->n < sizeof s->cands / sizeof *s->cands)
		s->cands[s->n++] = name;
}

void sc_suggest_text(const struct sc_suggest *s, const char *prefix, struct strbuf *out)
{
	if (!s->n)
		return;
	sb_adds(out, "; did you mean ");
	for (size_t i = 0; i < s->n; i++)
		sb_addf(out, "%s%s%s", i == 0 ? "" : i + 1 == s->n ? " or " : ", ", prefix, s->cands[i]);
	sb_adds(out, "?");
}
