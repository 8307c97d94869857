#include "sandbox/exec.h"
#include "contract/status.h"
#include "sandbox/bwrap_pin.h"
#include "sandbox/hostcheck.h"
#include "sandbox/selftest.h"
#include "sandbox/supervise.h"
#include "util/die.h"
#include "util/safefile.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sc_sandbox_exec_prepare(void)
{
	sc_sandbox_sane_stdio();
	if (sc_sandbox_no_inherited_descriptors() < 0)
		sc_die_sys_errno("cannot keep our descriptors from the sandbox (close_range)");
	/* Nobody is left to read the status line when whoever started us dies:
	 * SIGTERM then takes the sandbox down like an interrupt. */
	if (sc_die_with_parent(SIGTERM) < 0)
		sc_die_sys_errno("cannot follow our parent's death (prctl)");
}

/* --self-test and --check-bwrap take none of a run's options. */
static void check_modes(const struct sc_sandbox_exec_request *rq)
{
	int check = rq->pins.n != 0;
	const struct sc_command_spec *r = &rq->run;
	if ((rq->self_test && check) ||
	    ((rq->self_test || check) && (r->tree || r->toolchain || r->deps || r->time_file || r->timeout ||
	                                  r->log || rq->sealed.n || r->lake_cache)) ||
	    (check && (rq->user || rq->tmp_size || rq->max_procs)))
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

static int run_command(const struct sc_sandbox *sb, struct sc_sandbox_exec_request *rq)
{
	if (!rq->n_rest || !rq->after_dashdash)
		sc_die("the command must follow --; see %s --help (%s)", sc_progname(),
		       rq->n_rest ? rq->rest[0] : "argv");
	sc_options_require(rq->opts, SC_OPT_RUN);
	rq->run.argv = rq->rest;
	rq->run.sealed = (const char *const *)rq->sealed.v;
	struct sc_outcome out;
	sc_command_run(*sb, &rq->run, &out);
	print_status(&out);
	sc_outcome_release(&out);
	return out.exit;
}

/* fs.file-max; where it cannot be read, the kernel's floor for it (8192),
 * so the bound errs low. */
static unsigned long long kernel_file_max(void)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long n = 8192;
	if (sc_read_file("/proc/sys/fs/file-max", &sb, 64) == 0) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(sb.buf, &end, 10);
		if (!errno && end != sb.buf && v > 0)
			n = v;
	}
	sb_release(&sb);
	return n;
}

/* The sandbox every mode shares: bubblewrap resolved, the user, the
 * bounds. */
static struct sc_sandbox sandbox_of(const struct sc_sandbox_exec_request *rq, char *bwrap)
{
	struct sc_sandbox sb = {.bwrap = bwrap, .tmp_size = SC_SANDBOX_TMP_DEFAULT};
	struct strbuf err = STRBUF_INIT;
	if (sc_sandbox_user(rq->user, &sb.uid, &sb.gid, &err) < 0)
		sc_die("%s", err.buf);
	sb_release(&err);
	sb.own_uid = !rq->user && geteuid() == 0;
	if (rq->tmp_size && sc_sandbox_tmp_size(rq->tmp_size, &sb.tmp_size) < 0)
		sc_die("--tmp-size wants bytes (K, M, G suffixes allowed), at least 1M (%s)", rq->tmp_size);
	if (rq->max_procs && sc_sandbox_max_procs(rq->max_procs, &sb.max_procs) < 0)
		sc_die("--max-procs wants a count from %u to 4194304 (%s)", SC_SANDBOX_MAX_PROCS_MIN,
		       rq->max_procs);
	sb.max_files = sc_sandbox_max_files(kernel_file_max(),
	                                    sb.max_procs ? sb.max_procs : SC_SANDBOX_MAX_PROCS_DEFAULT);
	return sb;
}

int sc_sandbox_exec(struct sc_sandbox_exec_request *rq)
{
	char *bwrap = sc_sandbox_resolve_bwrap(rq->bwrap);
	check_modes(rq);
	struct sc_sandbox sb = sandbox_of(rq, bwrap);
	int rc;
	if (rq->pins.n) {
		if (rq->n_rest || rq->pins.n % 2)
			sc_die("--check-bwrap takes pairs of values, SHA256 VERSION (%s)",
			       rq->n_rest ? rq->rest[0] : rq->pins.v[rq->pins.n - 1]);
		rc = sc_bwrap_pin_check(bwrap, rq->pins.v, rq->pins.n / 2);
	} else if (rq->self_test) {
		if (rq->n_rest)
			sc_die("--self-test takes no arguments (%s)", rq->rest[0]);
		rc = sc_selftest_run(sb, rq->run.libexecdir);
	} else {
		rc = run_command(&sb, rq);
	}
	free(bwrap);
	return rc;
}
