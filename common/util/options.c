#include "util/options.h"
#include "util/die.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The two every program answers; they are found like any other option, so
 * "--vers" works and "--he" is ambiguous only where a table has "--head". */
static const struct sc_option builtin[] = {
	{SC_OPTK_BOOL, "help", 'h', NULL, NULL, "print this help and exit", 0, 0, NULL},
	{SC_OPTK_BOOL, "version", 0, NULL, NULL, "print the version and exit", 0, 0, NULL},
	SC_OPT_END(),
};

/* The nearest names of the tables, as git suggests a command. */
static _Noreturn void unknown(const struct sc_option *const tables[2], const char *name,
                              size_t len, const char *arg)
{
	struct sc_suggest near = SC_SUGGEST_INIT;
	struct strbuf hint = STRBUF_INIT;
	for (size_t t = 0; t < 2; t++)
		for (const struct sc_option *o = tables[t]; o->kind != SC_OPTK_END; o++)
			sc_suggest_add(&near, name, len, o->name);
	sc_suggest_text(&near, "--", &hint);
	sc_die("unknown option%s%ssee %s --help (%s)", hint.buf, hint.len ? " " : "; ", sc_progname(),
	       arg);
}

/* Exact name first, then a unique prefix; dies on an unknown or ambiguous
 * name.  ARG is the whole argument, for the error line. */
static const struct sc_option *find_long(const struct sc_option *opts, const char *name,
                                         size_t len, const char *arg)
{
	const struct sc_option *tables[] = {opts, builtin}, *hit = NULL;
	struct strbuf cands = STRBUF_INIT;
	size_t n = 0;
	for (size_t t = 0; t < 2; t++)
		for (const struct sc_option *o = tables[t]; o->kind != SC_OPTK_END; o++) {
			if (strncmp(o->name, name, len) != 0)
				continue;
			if (strlen(o->name) == len) {
				sb_release(&cands);
				return o;
			}
			sb_addf(&cands, "%s--%s", n ? ", " : "", o->name);
			hit = o, n++;
		}
	if (n > 1)
		sc_die("ambiguous option: could be %s; see %s --help (%s)", cands.buf, sc_progname(),
		       arg);
	if (n == 0)
		unknown(tables, name, len, arg);
	sb_release(&cands);
	return hit;
}

static const struct sc_option *find_short(const struct sc_option *opts, char c, const char *arg)
{
	const struct sc_option *tables[] = {opts, builtin};
	for (size_t t = 0; t < 2; t++)
		for (const struct sc_option *o = tables[t]; o->kind != SC_OPTK_END; o++)
			if (o->short_name && o->short_name == c)
				return o;
	sc_die("unknown option; see %s --help (%s)", sc_progname(), arg);
}

static void print_version(const struct sc_command *cmd)
{
	printf("%s %s\n", sc_progname(), SC_VERSION);
	if (cmd->version)
		cmd->version();
	exit(SC_EXIT_OK);
}

void sc_print_usage(const struct sc_option *opts, const struct sc_command *cmd)
{
	for (const char *const *u = cmd->usage; *u; u++)
		printf("%s\n", *u);
	putchar('\n');
	const struct sc_option *tables[] = {opts, builtin};
	for (size_t t = 0; t < 2; t++)
		for (const struct sc_option *o = tables[t]; o->kind != SC_OPTK_END; o++) {
			struct strbuf left = STRBUF_INIT;
			sb_addf(&left, "    %s%s--%s", o->short_name ? (char[]){'-', o->short_name, 0} : "",
			        o->short_name ? ", " : "", o->name);
			if (o->argh)
				sb_addf(&left, " %s%s", o->argh, o->kind == SC_OPTK_LIST ? "..." : "");
			printf("%-30s%s%s%s\n", left.buf, left.len >= 30 ? "\n                              " : "",
			       o->help ? o->help : "", o->flags & SC_OPT_REQUIRED ? " (required)" : "");
			sb_release(&left);
		}
}

/* What an option's value is, for completion: named by its argh, so the
 * table stays the one place an option is described. */
static const char *value_kind(const struct sc_option *o)
{
	static const struct { const char *kind, *arghs[6]; } kinds[] = {
		{"dir", {"DIR", "NEWDIR"}},
		{"file", {"FILE", "FILE|-", "PATH"}},
		{"revision", {"B", "C", "H", "T", "SHA"}},
		{"number", {"S", "SECONDS", "R", "BYTES"}},
	};
	if (o->kind == SC_OPTK_BOOL)
		return "flag";
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		for (const char *const *a = kinds[k].arghs; *a; a++)
			if (o->argh && strcmp(o->argh, *a) == 0)
				return kinds[k].kind;
	return "text";
}

/* The hidden --complete-options (git's --git-completion-helper): one line
 * per option, "--NAME KIND" with KIND flag, dir, file, revision, number or
 * text, and " repeat" when it may be given again. */
static _Noreturn void print_completion(const struct sc_option *opts)
{
	const struct sc_option *tables[] = {opts, builtin};
	for (size_t t = 0; t < 2; t++)
		for (const struct sc_option *o = tables[t]; o->kind != SC_OPTK_END; o++)
			printf("--%s %s%s\n", o->name, value_kind(o),
			       o->kind == SC_OPTK_LIST ? " repeat" : "");
	exit(SC_EXIT_OK);
}

/* A CALLBACK option's value, checked by the option's own check. */
static void checked(const struct sc_option *o, const char *value)
{
	struct strbuf why = STRBUF_INIT;
	if (o->check(o->value, value, &why) < 0)
		sc_die("%s (--%s %s)", why.buf, o->name, value);
	sb_release(&why);
}

/* Stores the value(s) of option o; VALUE is the "=..." part or NULL.
 * Values taken from the arguments after argv[*i] advance *i past them. */
static void take(const struct sc_option *o, const char *value, int argc, char **argv, int *i,
                 const char *arg, const char **seen)
{
	if (o->kind != SC_OPTK_LIST && seen[0]) /* seen: this option's slot in the table */
		sc_die("option given twice (--%s)", o->name);
	seen[0] = arg;
	switch (o->kind) {
	case SC_OPTK_BOOL:
		if (value)
			sc_die("option --%s takes no value (%s)", o->name, arg);
		*(int *)o->value = 1;
		return;
	case SC_OPTK_STRING:
	case SC_OPTK_CALLBACK:
	case SC_OPTK_PASSTHRU:
		if (!value) {
			if (*i + 1 >= argc)
				sc_die("option --%s needs a value (%s)", o->name, arg);
			value = argv[++*i];
		}
		if (o->kind == SC_OPTK_STRING) {
			*(const char **)o->value = value;
		} else if (o->kind == SC_OPTK_PASSTHRU) {
			sc_argv_push_owned(o->value, xasprintf("--%s", o->name));
			sc_argv_push(o->value, value);
		} else {
			checked(o, value);
		}
		return;
	case SC_OPTK_LIST:
		if (value) {
			sc_argv_push(o->value, value);
			return;
		}
		if (*i + 1 >= argc || strncmp(argv[*i + 1], "--", 2) == 0)
			sc_die("option --%s needs at least one value (%s)", o->name, arg);
		while (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0)
			sc_argv_push(o->value, argv[++*i]);
		return;
	case SC_OPTK_ARGS:
		if (value || *i + (int)o->nargs >= argc)
			sc_die("option --%s needs %zu values, %s (%s)", o->name, o->nargs, o->argh, arg);
		for (size_t k = 0; k < o->nargs; k++)
			((const char **)o->value)[k] = argv[++*i];
		return;
	case SC_OPTK_END:
		break;
	}
}

static size_t count(const struct sc_option *opts)
{
	size_t n = 0;
	while (opts[n].kind != SC_OPTK_END)
		n++;
	return n;
}

void sc_options_require(const struct sc_option *opts, int flag)
{
	struct strbuf missing = STRBUF_INIT;
	size_t n = 0;
	for (const struct sc_option *o = opts; o->kind != SC_OPTK_END; o++) {
		if (!(o->flags & flag))
			continue;
		int absent = o->kind == SC_OPTK_LIST ? !((struct sc_argv *)o->value)->n
		                                     : !*(const char **)o->value ||
		                                           !**(const char **)o->value;
		if (absent)
			sb_addf(&missing, "%s--%s", n++ ? ", " : "", o->name);
	}
	if (n)
		sc_die("missing required option%s (%s)", n > 1 ? "s" : "", missing.buf);
	sb_release(&missing);
}

int sc_parse_options(int argc, char **argv, const struct sc_option *opts,
                     const struct sc_command *cmd, int flags)
{
	if (argc == 2 && strcmp(argv[1], "--complete-options") == 0)
		print_completion(opts);
	const char **seen = xcalloc(count(opts) + 1, sizeof *seen);
	int i = 1;
	for (; i < argc; i++) {
		const char *arg = argv[i], *value = NULL;
		const struct sc_option *o;
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (strncmp(arg, "--", 2) == 0) {
			const char *name = arg + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			value = eq ? eq + 1 : NULL;
			o = find_long(opts, name, len, arg);
		} else if (arg[0] == '-' && arg[1] && !arg[2]) {
			o = find_short(opts, arg[1], arg);
		} else {
			break;
		}
		if (o == &builtin[0] || o == &builtin[1]) {
			if (value)
				sc_die("option --%s takes no value (%s)", o->name, arg);
			if (o == builtin)
				sc_print_usage(opts, cmd), exit(SC_EXIT_OK);
			print_version(cmd);
		}
		take(o, value, argc, argv, &i, arg, &seen[o - opts]);
	}
	free(seen);
	if (!(flags & SC_PARSE_ARGS) && i < argc)
		sc_die("unexpected argument; see %s --help (%s)", sc_progname(), argv[i]);
	sc_options_require(opts, SC_OPT_REQUIRED);
	return i;
}
