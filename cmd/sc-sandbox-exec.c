/* sc-sandbox-exec: run one command sealed in bubblewrap, timed from the
 * host by GNU time.  See man/sc-sandbox-exec.1 for the contract. */
#include "paths.h"
#include "sandbox/exec.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/options.h"

#include <string.h>

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

static struct sc_sandbox_exec_request o = {.bwrap = "/usr/bin/bwrap", .sealed = SC_ARGV_INIT,
                                            .pins = SC_ARGV_INIT};

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

int main(int argc, char **argv)
{
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	sc_sandbox_exec_prepare();
	/* Options end at "--" or at CMD: CMD's own flags stay CMD's. */
	int i = sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_ARGS);
	o.opts = opts;
	o.run.libexecdir = SC_LIBEXECDIR;
	o.rest = argv + i;
	o.n_rest = argc - i;
	o.after_dashdash = i > 0 && strcmp(argv[i - 1], "--") == 0;
	return sc_sandbox_exec(&o);
}
