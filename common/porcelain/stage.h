#ifndef SC_STAGE_H
#define SC_STAGE_H
/* Running sibling stages (sc-<name> in the exec dir) from a porcelain, with
 * interrupts forwarded: SIGINT/SIGTERM/SIGHUP/SIGQUIT (util/stopsignals) received by the porcelain are
 * passed on as SIGTERM to every stage running at that moment, so a stage can
 * take its sandbox down, and are remembered for the porcelain to stop.
 * A stage is also sent SIGTERM when the porcelain dies without a chance to
 * forward anything (SIGKILL, a crash). */
#include "util/argv.h"
#include "util/strbuf.h"

#include <sys/types.h>

/* Install the forwarding handlers (once, before the first stage). */
void sc_stage_init_signals(void);
/* The signal that interrupted us, or 0. */
int sc_stage_interrupted(void);
/* Dies with 128+N when signal N interrupted the run (the stages got it),
 * saying that WORKSPACE is incomplete. */
void sc_stage_stop_if_interrupted(const char *workspace);

/* Run <dir>/sc-<stage> ARGS... (args NULL-terminated, without argv[0]).
 * stdout is collected into out when non-NULL, else inherited; stderr is
 * inherited.  Returns the exit code, 128+N when killed by signal N, or dies
 * if it cannot start. */
int sc_stage_run(const char *dir, const char *stage, const char *const *args,
                 struct strbuf *out);
/* The same, its output collected, with FN(ARG, ELAPSED) called every EVERY
 * seconds while it runs: a long step says it is still running. */
struct sc_stage_tick {
	double every;
	void (*fn)(void *arg, double elapsed);
	void *arg;
};
int sc_stage_run_ticking(const char *dir, const char *stage, const char *const *args,
                         struct strbuf *out, const struct sc_stage_tick *tick);

/* The same in two halves, for a stage that runs while we do other work
 * (at most SC_STAGE_MAX at once).  Output as sc_stage_run, except that
 * SC_STAGE_ALL_OUTPUT collects stderr too, so that a stage we may never
 * wait for (we died first) cannot add lines to the one we printed. */
#define SC_STAGE_MAX 4
enum { SC_STAGE_INHERIT = 0, SC_STAGE_STDOUT = 1, SC_STAGE_ALL_OUTPUT = 2 };
struct sc_stage {
	pid_t pid;
	int out_fd;
	char *path;
};
void sc_stage_start(struct sc_stage *s, const char *dir, const char *stage,
                    const char *const *args, int output);
int sc_stage_finish(struct sc_stage *s, struct strbuf *out);

/* What a stage's exit code RC (nonzero, as sc_stage_finish returns it)
 * makes of the porcelain's: the stage's system failure (3) or its death by
 * a signal the porcelain did not pass on (128+N: the porcelain checks for
 * its own interrupt first) is a system failure, SC_EXIT_SYSTEM; any other
 * code is FAILED, what that stage failing means at that point. */
int sc_stage_exit_code(int rc, int failed);
/* 1 when RC is a system failure in that sense. */
int sc_stage_system_failure(int rc);
/* The error line, exiting with sc_stage_exit_code(RC, FAILED). */
_Noreturn void sc_stage_die(int rc, int failed, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
