#ifndef SC_OPTIONS_H
#define SC_OPTIONS_H
/* One option table for every program, in the spirit of git's
 * parse-options.h: a program lists its options once, and --help, --version,
 * prefixes, repeats, missing values and required options are handled the
 * same way everywhere.
 *
 *   --name VALUE and --name=VALUE; a unique prefix of a name is that name,
 *   an ambiguous one is an error naming the candidates;
 *   an option given twice is an error (a LIST option collects instead);
 *   -h/--help prints the usage and the option table on stdout, exits 0;
 *   --version prints "<program> <version>" (and the program's own lines);
 *   options stop at "--" or at the first argument that is not one, so a
 *   command's own flags stay its own.
 * A usage error is one line "sc-x: error: what (where)", exit 2.
 * Hidden: "--complete-options" as the only argument prints the table for
 * bash completion (contrib/completion), one "--NAME KIND [repeat]" a line. */
#include "util/argv.h"
#include "util/strbuf.h"

#include <stddef.h>

enum sc_opt_kind {
	SC_OPTK_END, SC_OPTK_STRING, SC_OPTK_BOOL, SC_OPTK_LIST, SC_OPTK_ARGS,
	SC_OPTK_CALLBACK, /* a value handed at once to the option's check */
	SC_OPTK_PASSTHRU, /* "--NAME" and its value appended to an argv, unread */
};

/* A CALLBACK option's check: the value ARG into TARGET (the option's
 * value pointer), 0; or -1 with what is wrong with it in WHY, which the
 * parser says with the flag and the value: "WHY (--NAME ARG)". */
typedef int (*sc_opt_check)(void *target, const char *arg, struct strbuf *why);

#define SC_OPT_REQUIRED 1 /* missing or empty is an error */
#define SC_OPT_MODE 2     /* required too, but only in the modes whose program
                           * says so (sc_options_require) */

struct sc_option {
	enum sc_opt_kind kind;
	const char *name;  /* long name, without "--" */
	char short_name;   /* 0: none */
	void *value;       /* const char ** (STRING, ARGS: an array), int * (BOOL),
	                    * struct sc_argv * (LIST: the values in order) */
	const char *argh;  /* the value's name in --help, e.g. "DIR" */
	const char *help;
	int flags;         /* SC_OPT_REQUIRED */
	size_t nargs;      /* ARGS: how many values follow the option */
	sc_opt_check check; /* CALLBACK */
};

/* A string; the last argument of STRING_F is SC_OPT_REQUIRED or 0. */
#define SC_OPT_STRING_F(s, l, v, a, h, f) { SC_OPTK_STRING, (l), (s), (v), (a), (h), (f), 1, NULL }
#define SC_OPT_STRING(s, l, v, a, h) SC_OPT_STRING_F(s, l, v, a, h, 0)
#define SC_OPT_REQUIRED_STRING(s, l, v, a, h) SC_OPT_STRING_F(s, l, v, a, h, SC_OPT_REQUIRED)
/* Present or not: *v becomes 1. */
#define SC_OPT_BOOL(s, l, v, h) { SC_OPTK_BOOL, (l), (s), (v), NULL, (h), 0, 0, NULL }
/* One or more values, repeatable: --l=V adds V; --l V... adds every
 * argument up to the next one that starts with "--". */
#define SC_OPT_LIST_F(l, v, a, h, f) { SC_OPTK_LIST, (l), 0, (v), (a), (h), (f), 1, NULL }
/* Exactly n values, the n arguments after the option. */
#define SC_OPT_ARGS(l, v, n, a, h) { SC_OPTK_ARGS, (l), 0, (v), (a), (h), 0, (n), NULL }
/* A value checked as it is parsed, once for every program that takes the
 * option (git's OPT_CALLBACK): CHECK fills V. */
#define SC_OPT_CALLBACK(l, v, a, h, check) { SC_OPTK_CALLBACK, (l), 0, (v), (a), (h), 0, 1, (check) }
/* An option the program only forwards to a stage that checks it (git's
 * OPT_PASSTHRU): "--l" and its value are appended to the struct sc_argv V. */
#define SC_OPT_PASSTHRU(l, v, a, h) { SC_OPTK_PASSTHRU, (l), 0, (v), (a), (h), 0, 1, NULL }
#define SC_OPT_END() { SC_OPTK_END, NULL, 0, NULL, NULL, NULL, 0, 0, NULL }

/* What the parser may leave for the program. */
#define SC_PARSE_NO_ARGS 0 /* any argument left over is an error */
#define SC_PARSE_ARGS 1    /* arguments may follow the options (after "--" or not) */

struct sc_command {
	const char *const *usage; /* "usage: ..." lines then free text; NULL-terminated */
	void (*version)(void);     /* lines printed after "<program> <version>", or NULL */
};

/* Parses argv[1..] by opts, dying with a usage error on anything wrong.
 * Returns the index of the first argument left over (argc when none);
 * argv[index - 1] is "--" when the options ended with it. */
int sc_parse_options(int argc, char **argv, const struct sc_option *opts,
                     const struct sc_command *cmd, int flags);

/* Dies naming every option with a FLAG bit (SC_OPT_REQUIRED, SC_OPT_MODE)
 * that is missing or empty, in one line; sc_parse_options does this for
 * SC_OPT_REQUIRED. */
void sc_options_require(const struct sc_option *opts, int flag);

/* The usage and option table, as -h prints them, on stdout. */
void sc_print_usage(const struct sc_option *opts, const struct sc_command *cmd);

#endif
