/* sphereceti: the porcelain.  "sphereceti <stage> ARGS" execs sc-<stage>
 * from the directory this program lives in (like git's exec path);
 * profile-plan is sc-plan; profile-run (sc-profile-run) chains the stages. */
#include "closeout.h"
#include "die.h"
#include "execdir.h"
#include "strbuf.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"usage: sphereceti <command> [<args>]\n"
	"\n"
	"porcelain:\n"
	"  profile-plan   plan which Lean files to measure (sc-plan)\n"
	"  profile-run    plan, build both sides sealed, time, report\n"
	"\n"
	"stages (each is also a program of its own):\n"
	"  plan, materialize, sandbox-exec, parse-time, report\n"
	"\n"
	"  sphereceti --version | help\n";

static int is_stage(const char *name)
{
	static const char *const stages[] = {"plan", "materialize", "sandbox-exec", "parse-time",
	                                     "report", "profile-run", NULL};
	for (const char *const *s = stages; *s; s++)
		if (strcmp(*s, name) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	sc_set_progname("sphereceti");
	sc_check_stdout_at_exit();
	if (argc < 2) {
		fputs(usage, stderr);
		return SC_EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("sphereceti %s\n", SC_VERSION);
		return 0;
	}
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	char *dir = sc_exec_dir();
	const char *stage = strcmp(cmd, "profile-plan") == 0 ? "plan" : cmd;
	if (!is_stage(stage))
		sc_die("unknown command '%s'; see 'sphereceti help' (argv[1])", cmd);
	char *prog = xasprintf("%s/sc-%s", dir, stage);
	argv[1] = prog;
	execv(prog, argv + 1);
	sc_die_errno("cannot run sc-%s (%s)", stage, prog);
}
