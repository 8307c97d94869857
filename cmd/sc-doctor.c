/* sc-doctor (run as "sphereceti doctor"): every precondition of a profile
 * run on this machine, each on a line of its own with its fix, all of them
 * even when one fails (sc-doctor(1)).  The checks are profile-run's own
 * (porcelain/doctor.h); this file owns the options and their order. */
#include "porcelain/doctor.h"
#include "porcelain/precheck.h"
#include "porcelain/stage.h"
#include "sandbox/sandbox_args.h"
#include "sandbox/sandbox_opts.h"
#include "sandbox/user.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/execdir.h"
#include "util/options.h"
#include "util/strbuf.h"

#include <stdlib.h>

static const char *const usage[] = {
	"usage: sphereceti doctor [--repo DIR --tooling T] [--toolchain DIR] [--dependencies DIR]",
	"                         [--cache DIR] [--workspace NEWDIR] [--sandbox-user USER|UID:GID]",
	"                         [--bwrap PATH]",
	"Check this machine for a profile run with these options, one line a check, each",
	"failure with its fix; what no option names is skipped.",
	NULL,
};

int main(int argc, char **argv)
{
	sc_set_progname("sc-doctor");
	sc_check_stdout_at_exit();
	static const char *tooling;
	static struct sc_run_opts o;
	static const struct sc_option opts[] = {
		SC_OPT_STRING(0, "repo", &o.repo, "DIR", "the project's repository"),
		SC_OPT_STRING(0, "tooling", &tooling, "T", "the base branch's tip, whose .sphereceti counts"),
		SC_OPT_STRING(0, "toolchain", &o.sandbox.toolchain, "DIR", SC_SANDBOX_HELP_TOOLCHAIN),
		SC_OPT_STRING(0, "dependencies", &o.sandbox.deps, "DIR", SC_SANDBOX_HELP_DEPS),
		SC_OPT_STRING(0, "cache", &o.sandbox.lake_cache, "DIR", SC_SANDBOX_HELP_CACHE),
		SC_OPT_STRING(0, "workspace", &o.workspace, "NEWDIR", "where a run's workspace would go"),
		SC_OPT_SANDBOX_USER(&o.sandbox.sb),
		SC_OPT_STRING(0, "bwrap", &o.sandbox.bwrap, "PATH", SC_SANDBOX_HELP_BWRAP),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	if (argc == 1)
		sc_die("nothing to check: name what profile-run will be given, --repo DIR --tooling T, "
		       "--toolchain DIR, --dependencies DIR, --workspace NEWDIR (see sphereceti help doctor) "
		       "(argv)");
	if (!o.repo != !tooling)
		sc_die("--repo and --tooling go together (%s)", o.repo ? "--tooling" : "--repo");
	struct strbuf why = STRBUF_INIT;
	if (sc_sandbox_opts_finish(&o.sandbox.sb, &why) < 0)
		sc_die("%s", why.buf);
	o.sandbox.user = xasprintf("%u:%u", o.sandbox.sb.uid, o.sandbox.sb.gid);
	char *dir = sc_exec_dir();
	sc_stage_init_signals();

	struct sc_doctor t = {.dir = dir};
	struct sc_tooling_facts tt = {0};
	sb_reset(&why);
	if (sc_check_linux(&why) < 0)
		sc_doctor_line(&t, "FAIL", "host", why.buf);
	else
		sc_doctor_line(&t, "ok", "host", "Linux, GNU time");
	/* what no option names is skipped, saying which option would name it */
	if (o.repo)
		sc_doctor_tooling(&t, o.repo, tooling, &tt);
	else
		sc_doctor_line(&t, "skip", "repository", "no --repo and --tooling: T's files are not read");
	sc_doctor_bwrap(&t, &o, &tt);
	sc_doctor_sandbox(&t, &o);
	if (o.sandbox.toolchain)
		sc_doctor_toolchain(&t, &o, &tt);
	else
		sc_doctor_line(&t, "skip", "toolchain", "no --toolchain");
	if (o.sandbox.deps)
		sc_doctor_dependencies(&t, &o, &tt);
	else
		sc_doctor_line(&t, "skip", "dependencies", "no --dependencies");
	if (o.sandbox.lake_cache)
		sc_doctor_cache(&t, &o);
	else
		sc_doctor_line(&t, "skip", "cache", "no --cache: the prebuilds elaborate their cones");
	if (o.workspace)
		sc_doctor_workspace(&t, &o);
	else
		sc_doctor_line(&t, "skip", "workspace", "no --workspace: where it goes is not looked at");

	sc_tooling_facts_free(&tt);
	free((char *)o.sandbox.user);
	free(dir);
	sb_release(&why);
	if (t.failed)
		sc_die("%d of %d checks failed; each FAIL line above says what to do (stdout)", t.failed,
		       t.checks);
	return 0;
}
