#ifndef SC_SELFTEST_H
#define SC_SELFTEST_H
/* sc-sandbox-exec --self-test: sc-sandbox-probe's checks of the isolation,
 * run as the command (what a candidate sees) of a sandbox built on
 * temporary folders (Documentation/threat-model.txt "The sandbox holds against
 * hostile code"), and GNU time's count of an orphan's CPU. */
#include "sandbox/sandbox_args.h"
#include "sandbox/supervise.h"
#include "contract/timefile.h"
#include "util/die.h"
#include "util/strbuf.h"

#define SC_SELFTEST_TIMEOUT_S 60
/* The orphan burns 0.2 s; GNU time must count at least this much of it. */
#define SC_SELFTEST_MIN_CPU_S 0.1
/* A child autoreaped because its parent ignores SIGCHLD burns 0.1 s more,
 * which rusage never sees: the task clock, where the host has one, must
 * count both (0.3 s), less a little for the granularity of the burn. */
#define SC_SELFTEST_MIN_CLOCK_S 0.28

/* The verdict on a finished self-test run r (not interrupted: sc-pid1's
 * report, the probe's line in its output) whose time
 * file parsed into tf (tf_err: why it did not, empty when it did): 0, or
 * the exit code of the failure with its error line in why. */
enum sc_exit sc_selftest_verdict(const struct sc_sandbox_result *r, const struct sc_timefile *tf,
                        const char *tf_err, const char *bwrap, const char *time_file,
                        struct strbuf *why);

/* Runs the self-test in sb (bwrap set; the standalone programs, folders
 * and report pipe are filled here), sc-pid1 found in LIBEXECDIR
 * (hostcheck.h); prints the
 * "self-test ok" line and returns 0, or dies with the reason. */
int sc_selftest_run(struct sc_sandbox sb, const char *libexecdir);

#endif
