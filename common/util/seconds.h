#ifndef SC_SECONDS_H
#define SC_SECONDS_H
/* A number of seconds the operator gives a timeout: more than 0, at most a
 * day (a bound so that no arithmetic on it overflows, and no typo waits
 * for ever).  One rule for sc-sandbox-exec's --timeout and profile-run's
 * three. */
#define SC_SECONDS_MAX 86400

/* Returns 0 with *out set, or -1 (*out untouched) when S is not a finite
 * decimal in (0, SC_SECONDS_MAX]. */
int sc_parse_seconds(const char *s, double *out);

#endif
