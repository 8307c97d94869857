#ifndef SC_BADOPT_H
#define SC_BADOPT_H
/* getopt_long returns '?' alike for an unknown option, an ambiguous
 * abbreviation and a missing value: say which one it was. */
#include <getopt.h>

/* ARG is argv[optind - 1] after getopt_long returned '?' or ':'; OPTS its
 * option table.  Prints the one error line and exits SC_EXIT_USAGE. */
_Noreturn void sc_die_bad_option(const struct option *opts, const char *arg);

#endif
