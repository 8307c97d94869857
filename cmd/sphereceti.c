/* sphereceti: the porcelain.  "sphereceti <stage> ARGS" execs sc-<stage>
 * from the directory this program lives in (like git's exec path);
 * profile-plan is sc-plan; profile-run (sc-profile-run) chains the stages. */
#include "util/closeout.h"
#include "util/die.h"
#include "util/execdir.h"
#include "util/options.h"
#include "paths.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage[] = {
	"usage: sphereceti [--help | --version] <command> [<args>]",
	"",
	"porcelain:",
	"  init           set a Lean project up for sphereceti in CI (sc-setup)",
	"  doctor         check this machine for a profile run, each fix named",
	"  profile-plan   plan which Lean files to measure (sc-plan)",
	"  profile-run    plan, build both sides sealed, time, report",
	"  merge          one report of a plan's shards, each measured by its own runner",
	"",
	"stages (each is also a program of its own):",
	"  plan, materialize, sandbox-exec, parse-time, report",
	"",
	"  sphereceti help <command>   show that command's manual page",
	"  sphereceti version | help",
	NULL,
};

static const char *const stages[] = {"plan", "materialize", "sandbox-exec", "parse-time",
                                     "report", "profile-run", "merge", "doctor", NULL};

/* Commands that are no stage's name; init runs sc-setup, which only it
 * names (one name a command: sc-pid1 is the sandbox's PID 1). */
static const char *const more[] = {"init", "profile-plan", "help", "version", NULL};

static int is_stage(const char *name)
{
	for (const char *const *s = stages; *s; s++)
		if (strcmp(*s, name) == 0)
			return 1;
	return 0;
}

/* The hidden --complete-commands, for bash completion: every command. */
static int list_commands(void)
{
	for (const char *const *lists[] = {more, stages}, *const *const *l = lists; l < lists + 2; l++)
		for (const char *const *s = *l; *s; s++)
			printf("%s\n", *s);
	return 0;
}

/* An unknown command, with git's "did you mean" over every command. */
static _Noreturn void unknown_command(const char *cmd, const char *where)
{
	struct sc_suggest near = SC_SUGGEST_INIT;
	struct strbuf hint = STRBUF_INIT;
	for (const char *const *lists[] = {more, stages}, *const *const *l = lists; l < lists + 2; l++)
		for (const char *const *s = *l; *s; s++)
			sc_suggest_add(&near, cmd, strlen(cmd), *s);
	sc_suggest_text(&near, "", &hint);
	sc_die("unknown command '%s'%s%ssee 'sphereceti help' (%s)", cmd, hint.buf,
	       hint.len ? " " : "; ", where);
}

/* The porcelain commands that are a program of another name. */
static const char *program_of(const char *cmd)
{
	if (strcmp(cmd, "profile-plan") == 0)
		return "plan";
	if (strcmp(cmd, "init") == 0)
		return "setup";
	return cmd;
}

/* The page of a command: a stage's own, profile-plan's is sc-plan's,
 * profile-run's is this program's (sc-profile-run.1 is its alias). */
static char *page_of(const char *cmd)
{
	if (strcmp(cmd, "profile-plan") == 0 || strcmp(cmd, "init") == 0)
		return xasprintf("sc-%s", program_of(cmd));
	if (strcmp(cmd, "profile-run") == 0 || strcmp(cmd, "sphereceti") == 0 ||
	    strcmp(cmd, "help") == 0)
		return xstrdup("sphereceti");
	if (!is_stage(cmd))
		unknown_command(cmd, "help");
	return xasprintf("sc-%s", cmd);
}

/* As git help does: man with the page from the build tree (man/man1 beside
 * us), the installed layout (../share/man/man1) or the configured mandir,
 * else man's own path. */
static _Noreturn void show_manual(const char *cmd)
{
	char *page = page_of(cmd), *dir = sc_exec_dir();
	const char *const cands[] = {"%s/man/man1/%s.1", "%s/../share/man/man1/%s.1",
	                             "%.0s" SC_MANDIR "/man1/%s.1"};
	for (size_t i = 0; i < sizeof cands / sizeof *cands; i++) {
		char *path = xasprintf(cands[i], dir, page);
		if (access(path, R_OK) == 0) {
			char *const argv[] = {"man", "-l", path, NULL};
			execvp("man", argv);
			sc_die_path_errno("cannot run man (help %s)", cmd);
		}
		free(path);
	}
	char *const argv[] = {"man", page, NULL};
	execvp("man", argv);
	sc_die_path_errno("cannot run man (help %s)", cmd);
}

int main(int argc, char **argv)
{
	sc_set_progname("sphereceti");
	sc_check_stdout_at_exit();
	static const struct sc_option opts[] = {SC_OPT_END()};
	if (argc == 2 && strcmp(argv[1], "--complete-commands") == 0)
		return list_commands();
	const struct sc_command command = {usage, NULL};
	int i = sc_parse_options(argc, argv, opts, &command, SC_PARSE_ARGS);
	if (i == argc)
		sc_die("no command; see sphereceti --help (argv[1])");
	const char *cmd = argv[i];
	if (strcmp(cmd, "version") == 0) {
		printf("sphereceti %s\n", SC_VERSION);
		return 0;
	}
	if (strcmp(cmd, "help") == 0 && i + 1 < argc) {
		if (i + 2 < argc)
			sc_die("help takes one command (%s)", argv[i + 2]);
		show_manual(argv[i + 1]);
	}
	if (strcmp(cmd, "help") == 0) {
		sc_print_usage(opts, &command);
		return 0;
	}
	char *dir = sc_exec_dir();
	const char *stage = program_of(cmd);
	if (!is_stage(cmd) && stage == cmd) {
		char where[32];
		snprintf(where, sizeof where, "argv[%d]", i);
		unknown_command(cmd, where);
	}
	char *prog = xasprintf("%s/sc-%s", dir, stage);
	argv[i] = prog;
	execv(prog, argv + i);
	sc_die_path_errno("cannot run sc-%s (%s)", stage, prog);
}
