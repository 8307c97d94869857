#ifndef SC_SUGGEST_H
#define SC_SUGGEST_H
/* "Did you mean": the names nearest to a mistyped one, in the spirit of
 * git's help.c (unknown commands).  Distance is the optimal-string-alignment
 * form of Damerau-Levenshtein with git's weights: an adjacent swap costs 0
 * (the commonest typo), a missing character 1, a wrong one 2, an extra one
 * 3; a name holding the typed word as a whole dash-separated part
 * ("timeout" in "sample-timeout") counts 1.  Only names closer than
 * SC_SUGGEST_FLOOR are offered, and only the nearest ones. */
#include "util/strbuf.h"

#include <stddef.h>

#define SC_SUGGEST_FLOOR 7

/* The distance from TYPED (LEN bytes) to NAME, as described above. */
int sc_suggest_distance(const char *typed, size_t len, const char *name);

struct sc_suggest {
	int best;     /* the nearest distance so far; SC_SUGGEST_FLOOR: none */
	size_t n;     /* names at that distance */
	const char *cands[8]; /* those names, in the order given */
};
#define SC_SUGGEST_INIT { SC_SUGGEST_FLOOR, 0, {0} }

/* Considers NAME as an answer for TYPED (LEN bytes). */
void sc_suggest_add(struct sc_suggest *s, const char *typed, size_t len, const char *name);
/* "; did you mean A, B or C?" (appended to OUT) with each name after PREFIX (e.g. "--"), or
 * nothing when no name was near enough. */
void sc_suggest_text(const struct sc_suggest *s, const char *prefix, struct strbuf *out);

#endif
