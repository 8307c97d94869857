/* sc-sandbox-exec: run one command sealed in bubblewrap, timed from the
 * host by GNU time.  See man/sc-sandbox-exec.1 for the contract. */
#include "paths.h"
#include "contract/status.h"
#include "sandbox/bwrap_pin.h"
#include "sandbox/command.h"
#include "sandbox/hostcheck.h"
#include "sandbox/supervise.h"
#include "sandbox/selftest.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/options.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <signal.h>
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

static struct {
	struct sc_command_spec run;
	struct sc_argv sealed;
	const char *user, *tmp_size, *max_procs, *bwrap;
	int self_test;
	struct sc_argv pins; /* SHA256 VERSION pairs */
} o = {.bwrap = "/usr/bin/bwrap", .sealed = SC_ARGV_INIT, .pins = SC_ARGV_INIT};

static const struct sc_option opts[] = {
	SC_OPT_STRING_F(0, "tree", &o.run.tree, "DIR", "the side's source tree: read-only at /project, its .lake read-write", SC_OPT_RUN),
	SC_OPT_STRING_F(0, "toolchain", &o.run.toolchain, "DIR", "holds bin/lean and bin/lake; read-only", SC_OPT_RUN),
	SC_OPT_STRING_F(0, "dependencies", &o.run.deps, "DIR", "the prepared Lake packages; read-only", SC_OPT_RUN),
	SC_OPT_STRING_F(0, "time-file", &o.run.time_file, "FILE", "GNU time's counters (a new file)", SC_OPT_RUN),
	SC_OPT_STRING_F(0, "timeout", &o.run.timeout, "SECONDS", "in (0, 86400]", SC_OPT_RUN),
	SC_OPT_STRING(0, "log", &o.run.log, "FILE", "keep the command's stdout and stderr (a new file)"),
	SC_OPT_LIST_F("read-only", &o.sealed, "PATH", "a path below TREE/.lake, read-only too (repeatable)", 0),
	SC_OPT_STRING(0, "cache", &o.run.lake_cache, "DIR", "a trusted Lake artifact cache; read-only"),
	SC_OPT_STRING(0, "sandbox-user", &o.user, "USER|UID:GID", "who the sandbox runs as (root operator)"),
	SC_OPT_STRING(0, "tmp-size", &o.tmp_size, "BYTES", "size of /tmp and of /dev/shm (K, M, G; default 1G)"),
	SC_OPT_STRING(0, "max-procs", &o.max_procs, "N", "the sandbox user's processes and threads (default 4096)"),
	SC_OPT_STRING(0, "bwrap", &o.bwrap, "PATH", "the bubblewrap binary (default /usr/bin/bwrap)"),
	SC_OPT_BOOL(0, "self-test", &o.self_test, "check this host's sandbox and stop"),
	SC_OPT_LIST_F("check-bwrap", &o.pins, "SHA256 VERSION", "check bubblewrap against its pins and stop", 0),
	SC_OPT_END(),
};

static const struct sc_command cmd = {usage, NULL};

/* --self-test and --check-bwrap take none of a run's options. */
static void check_modes(void)
{
	int check = o.pins.n != 0;
	const struct sc_command_spec *r = &o.run;
	if ((o.self_test && check) ||
	    ((o.self_test || check) && (r->tree || r->toolchain || r->deps || r->time_file || r->timeout || r->log ||
	                                o.sealed.n || r->lake_cache)) ||
	    (check && (o.user || o.tmp_size || o.max_procs)))
		sc_die("--self-test and --check-bwrap stand alone; see %s --help (argv)", sc_progname());
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

static int run_command(const struct sc_sandbox *sb, int i, int argc, char **argv)
{
	if (i >= argc || strcmp(argv[i - 1], "--") != 0)
		sc_die("the command must follow --; see %s --help (%s)", sc_progname(), i < argc ? argv[i] : "argv");
	sc_options_require(opts, SC_OPT_RUN);
	o.run.argv = argv + i;
	o.run.libexecdir = SC_LIBEXECDIR;
	o.run.sealed = (const char *const *)o.sealed.v;
	struct sc_outcome out;
	sc_command_run(*sb, &o.run, &out);
	print_status(&out);
	sc_outcome_release(&out);
	return out.exit;
}

int main(int argc, char **argv)
{
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	sc_sandbox_sane_stdio();
	if (sc_sandbox_no_inherited_descriptors() < 0)
		sc_die_sys_errno("cannot keep our descriptors from the sandbox (close_range)");
	/* Nobody is left to read the status line when whoever started us dies:
	 * SIGTERM then takes the sandbox down like an interrupt. */
	if (sc_die_with_parent(SIGTERM) < 0)
		sc_die_sys_errno("cannot follow our parent's death (prctl)");
	/* Options end at "--" or at CMD: CMD's own flags stay CMD's. */
	int i = sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_ARGS);
	char *bwrap = sc_sandbox_resolve_bwrap(o.bwrap);
	check_modes();
	struct sc_sandbox sb = {.bwrap = bwrap, .tmp_size = SC_SANDBOX_TMP_DEFAULT};
	struct strbuf err = STRBUF_INIT;
	if (sc_sandbox_user(o.user, &sb.uid, &sb.gid, &err) < 0)
		sc_die("%s", err.buf);
	sb.own_uid = !o.user && geteuid() == 0;
	if (o.tmp_size && sc_sandbox_tmp_size(o.tmp_size, &sb.tmp_size) < 0)
		sc_die("--tmp-size wants bytes (K, M, G suffixes allowed), at least 1M (%s)", o.tmp_size);
	if (o.max_procs && sc_sandbox_max_procs(o.max_procs, &sb.max_procs) < 0)
		sc_die("--max-procs wants a count from %u to 4194304 (%s)", SC_SANDBOX_MAX_PROCS_MIN, o.max_procs);
	int rc;
	if (o.pins.n) {
		if (i != argc || o.pins.n % 2)
			sc_die("--check-bwrap takes pairs of values, SHA256 VERSION (%s)",
			       i != argc ? argv[i] : o.pins.v[o.pins.n - 1]);
		rc = sc_bwrap_pin_check(bwrap, o.pins.v, o.pins.n / 2);
	} else if (o.self_test) {
		if (i != argc)
			sc_die("--self-test takes no arguments (%s)", argv[i]);
		rc = sc_selftest_run(sb, SC_LIBEXECDIR);
	} else {
		rc = run_command(&sb, i, argc, argv);
	}
	free(bwrap);
	return rc;
}
