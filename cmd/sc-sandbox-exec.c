/* sc-sandbox-exec: run one command sealed in bubblewrap, timed from the
 * host by GNU time.  This file owns the program: its option table, its
 * three modes (a command run sealed, the self-test, the bubblewrap pin
 * check), the rules of their combinations, every message naming a flag,
 * and the order of the steps.  The libraries take typed values
 * (sandbox/command.h, sandbox/selftest.h, sandbox/bwrap_pin.h).  See
 * man/sc-sandbox-exec.1 for the contract. */
#include "contract/status.h"
#include "paths.h"
#include "sandbox/bwrap_pin.h"
#include "sandbox/command.h"
#include "sandbox/exec.h"
#include "sandbox/hostcheck.h"
#include "sandbox/sandbox_args.h"
#include "sandbox/sandbox_opts.h"
#include "sandbox/user.h"
#include "sandbox/selftest.h"
#include "util/argv.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/options.h"
#include "util/safefile.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The usage, written once: --help prints it, a usage error points to it. */
static const char *const usage[] = {
	"usage: sc-sandbox-exec --tree DIR --toolchain DIR --dependencies DIR --time-file FILE",
	"           --timeout SECONDS [--log FILE] [--read-only PATH]... [--cache DIR]",
	"           [--sandbox-user USER|UID:GID]",
	"           [--tmp-size BYTES] [--max-procs N] [--bwrap PATH] -- CMD [ARG...]",
	"   or: sc-sandbox-exec --self-test [--sandbox-user USER|UID:GID] [--tmp-size BYTES] [--max-procs N]",
	"           [--bwrap PATH]",
	"   or: sc-sandbox-exec --check-bwrap SHA256 VERSION [SHA256 VERSION...] [--bwrap PATH]",
	"",
	"Runs CMD sealed in bubblewrap, its CPU counted by GNU time on the host; prints one",
	"sphereceti.status/1 line.  See man sc-sandbox-exec.",
	NULL,
};

/* What the options named, as given. */
static struct sc_command_spec run = {.libexecdir = SC_LIBEXECDIR};
static struct sc_argv sealed = SC_ARGV_INIT, pins = SC_ARGV_INIT;
static struct sc_sandbox_opts so;
static const char *bwrap_opt = "/usr/bin/bwrap";
static int self_test;

static const struct sc_option opts[] = {
	SC_OPT_STRING_F(0, "tree", &run.tree, "DIR", "the side's source tree: read-only at /project, its .lake read-write", SC_OPT_MODE),
	SC_OPT_STRING_F(0, "toolchain", &run.toolchain, "DIR", SC_SANDBOX_HELP_TOOLCHAIN, SC_OPT_MODE),
	SC_OPT_STRING_F(0, "dependencies", &run.deps, "DIR", SC_SANDBOX_HELP_DEPS, SC_OPT_MODE),
	SC_OPT_STRING_F(0, "time-file", &run.time_file, "FILE", "GNU time's counters (a new file)", SC_OPT_MODE),
	SC_OPT_STRING_F(0, "timeout", &run.timeout, "SECONDS", "in (0, 86400]", SC_OPT_MODE),
	SC_OPT_STRING(0, "log", &run.log, "FILE", "keep the command's stdout and stderr (a new file)"),
	SC_OPT_LIST_F("read-only", &sealed, "PATH", "a path below TREE/.lake, read-only too (repeatable)", 0),
	SC_OPT_BOOL(0, "lake-read-only", &run.lake_read_only, "TREE/.lake read-only too: the command leaves nothing there"),
	SC_OPT_STRING(0, "cache", &run.lake_cache, "DIR", SC_SANDBOX_HELP_CACHE),
	SC_OPT_SANDBOX_USER(&so),
	SC_OPT_SANDBOX_TMP_SIZE(&so),
	SC_OPT_SANDBOX_MAX_PROCS(&so),
	SC_OPT_STRING(0, "bwrap", &bwrap_opt, "PATH", SC_SANDBOX_HELP_BWRAP),
	SC_OPT_BOOL(0, "self-test", &self_test, "check this host's sandbox and stop"),
	SC_OPT_LIST_F("check-bwrap", &pins, "SHA256 VERSION", "check bubblewrap against its pins and stop", 0),
	SC_OPT_END(),
};

static const struct sc_command cmd = {usage, NULL};

/* --self-test and --check-bwrap take none of a run's options. */
static void check_modes(void)
{
	int check = pins.n != 0;
	if ((self_test && check) ||
	    ((self_test || check) && (run.tree || run.toolchain || run.deps || run.time_file ||
	                              run.timeout || run.log || sealed.n || run.lake_cache ||
	                              run.lake_read_only)) ||
	    (check && (so.user_given || so.tmp_size || so.max_procs)))
		sc_die("--self-test and --check-bwrap stand alone; see %s --help (argv)", sc_progname());
}

/* The sandbox every mode shares: bubblewrap resolved, the user (its
 * options were checked as they were parsed), the bounds. */
static struct sc_sandbox sandbox_of(char *bwrap)
{
	struct sc_sandbox sb = {.bwrap = bwrap, .tmp_size = SC_SANDBOX_TMP_DEFAULT};
	struct strbuf err = STRBUF_INIT;
	if (sc_sandbox_opts_finish(&so, &err) < 0)
		sc_die("%s", err.buf);
	sb_release(&err);
	sb.uid = so.uid;
	sb.gid = so.gid;
	sb.own_uid = !so.user_given && geteuid() == 0;
	if (so.tmp_bytes)
		sb.tmp_size = so.tmp_bytes;
	sb.max_procs = so.max_procs_n;
	sb.max_files = sc_sandbox_host_max_files(sb.max_procs ? sb.max_procs : SC_SANDBOX_MAX_PROCS_DEFAULT);
	return sb;
}

static void print_status(const struct sc_outcome *out)
{
	struct sc_status st = {.exit_code = out->exit_code, .signal = out->signal,
	                       .timed_out = out->timed_out, .wall_s = out->wall_s,
	                       .has_task_clock = out->task_clock, .task_clock_s = out->task_clock_s};
	struct strbuf line = STRBUF_INIT;
	sc_status_to_json(&st, &line);
	if (sc_write_all(1, line.buf, line.len) < 0)
		sc_die_sys_errno("cannot write the status line (stdout)");
	sb_release(&line);
}

/* The run: every run option given, the command after "--"; its status line
 * printed, its exit code returned. */
static int run_command(const struct sc_sandbox *sb, char **rest, int n_rest, int after_dashdash)
{
	if (!n_rest || !after_dashdash)
		sc_die("the command must follow --; see %s --help (%s)", sc_progname(),
		       n_rest ? rest[0] : "argv");
	sc_options_require(opts, SC_OPT_MODE);
	run.argv = rest;
	run.sealed = (const char *const *)sealed.v;
	struct sc_outcome out;
	sc_command_run(*sb, &run, &out);
	print_status(&out);
	sc_outcome_release(&out);
	return out.exit;
}

int main(int argc, char **argv)
{
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	sc_sandbox_exec_prepare();
	/* Options end at "--" or at CMD: CMD's own flags stay CMD's. */
	int i = sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_ARGS);
	char **rest = argv + i;
	int n_rest = argc - i, after_dashdash = i > 0 && strcmp(argv[i - 1], "--") == 0;
	char *bwrap = sc_sandbox_resolve_bwrap(bwrap_opt);
	check_modes();
	struct sc_sandbox sb = sandbox_of(bwrap);
	int rc;
	if (pins.n) {
		if (n_rest || pins.n % 2)
			sc_die("--check-bwrap takes pairs of values, SHA256 VERSION (%s)",
			       n_rest ? rest[0] : pins.v[pins.n - 1]);
		rc = sc_bwrap_pin_check(bwrap, pins.v, pins.n / 2);
	} else if (self_test) {
		if (n_rest)
			sc_die("--self-test takes no arguments (%s)", rest[0]);
		rc = sc_selftest_run(sb, run.libexecdir);
	} else {
		rc = run_command(&sb, rest, n_rest, after_dashdash);
	}
	free(bwrap);
	sc_argv_release(&sealed);
	sc_argv_release(&pins);
	return rc;
}
