/* One sandboxed step of a side: what it hands sc-sandbox-exec, what its
 * exit code and status line come to, and when it filled the disk.
 * Documentation/measurement.txt "Measurement", sandbox.txt. */
#include "porcelain/step.h"
#include "contract/rawsample.h"
#include "porcelain/seal.h"
#include "porcelain/stage.h"
#include "porcelain/workspace.h"
#include "util/die.h"
#include "util/safefile.h"

#include <stdlib.h>
#include <string.h>

/* Below this much free space, or this many free inodes, after a step, the
 * step filled the disk. */
#define DISK_FULL_BELOW (1ll << 20)
#define DISK_FULL_INODES_BELOW 32ll

/* Did the last step leave the disk full?  Then it is recorded in R and the
 * reserve goes back to the file system, so that the status lines, samples
 * and the report fit, and the step and every later one are disk_full, not
 * a machine failure. */
static int record_full_disk(struct sc_run *r)
{
	if (r->disk_full)
		return 1;
	long long avail, inodes;
	if (sc_workspace_room(r->ws, &avail, &inodes) < 0 ||
	    (avail >= DISK_FULL_BELOW && inodes >= DISK_FULL_INODES_BELOW))
		return 0;
	sc_workspace_unreserve(r->ws);
	r->disk_full = 1;
	return 1;
}

enum sc_step_outcome sc_step_record_outcome(struct sc_run *r, int rc)
{
	if (rc == 0)
		return SC_STEP_OK;
	if (rc == 1)
		return SC_STEP_FAILED;
	if (sc_stage_system_failure(rc))
		r->system_failed = 1;
	return SC_STEP_NOT_RUN;
}

/* sc-sandbox-exec's arguments for one step of the side, up to "--". */
static void sandbox_args(const struct sc_run *r, int side, const struct sc_step *st,
                         const char *name, const char *timeout, const char *log, int lake_ro,
                         struct sc_argv *a)
{
	sc_argv_push(a, "--tree");
	sc_argv_push_owned(a, sc_run_tree(r, side));
	const char *fixed[] = {"--toolchain", r->o.toolchain, "--dependencies", r->o.deps,
	                       "--time-file", st->time_file, "--timeout", timeout, NULL};
	for (const char *const *p = fixed; *p; p++)
		sc_argv_push(a, *p);
	if (r->o.lake_cache) {
		sc_argv_push(a, "--cache");
		sc_argv_push(a, r->o.lake_cache);
	}
	if (log) {
		sc_argv_push(a, "--log");
		sc_argv_push(a, log);
	} else if (r->o.keep_logs) {
		sc_argv_push(a, "--log");
		sc_argv_push_owned(a, sc_run_log_path(r, side, name));
	}
	sc_run_push_bwrap(r, a, 1);
	sc_run_push_sealed(r, side, a);
	if (lake_ro)
		sc_argv_push(a, "--lake-read-only");
	sc_argv_push(a, "--");
}

/* What a still-running line says. */
struct ticking {
	struct sc_run *r;
	int side;
	const char *what;
};

/* sphereceti(1): a step still running says so, never silent for long. */
static void still_running(void *arg, double elapsed)
{
	const struct ticking *t = arg;
	sc_progress_say(&t->r->progress, "%s %s: running for %.*f s", sc_side_name(t->side), t->what,
	                elapsed < 10 ? 1 : 0, elapsed);
}

/* The status line is kept beside the raw counters, both named in ST. */
int sc_step_run(struct sc_run *r, int side, struct sc_step *st, const char *name, const char *what,
                double timeout, const char *const *cmd, const char *log, int lake_ro)
{
	st->time_file = sc_workspace_raw(r->ws, sc_side_name(side), name, "time");
	st->status_file = sc_workspace_raw(r->ws, sc_side_name(side), name, "status");
	char *timeout_s = xasprintf("%.3f", timeout);
	struct sc_argv a = SC_ARGV_INIT;
	sandbox_args(r, side, st, name, timeout_s, log, lake_ro, &a);
	for (const char *const *p = cmd; *p; p++)
		sc_argv_push(&a, *p);
	struct strbuf status = STRBUF_INIT;
	struct ticking t = {r, side, what ? what : name};
	const struct sc_stage_tick tick = {r->o.progress_every, still_running, &t};
	int rc = sc_stage_run_ticking(r->dir, "sandbox-exec", a.v, &status, &tick);
	sc_run_stop_if_interrupted(r);
	if (record_full_disk(r))
		rc = 1; /* it ran: neither a machine failure nor counters to trust */
	if (status.len && !r->disk_full)
		sc_write_file_atomic_or_die(st->status_file, status.buf, status.len, "status line");
	memset(&st->verdict, 0, sizeof st->verdict);
	st->status_ok = sc_sample_status_check(&st->verdict, status.buf, status.len, &st->status) == 0;
	sb_release(&status);
	sc_argv_release(&a);
	free(timeout_s);
	return rc;
}

void sc_step_release(struct sc_step *st)
{
	free(st->time_file);
	free(st->status_file);
	sc_sample_free(&st->verdict);
}

/* 1 when the status line says the command ran out of time. */
int sc_step_timed_out(const struct sc_step *st)
{
	return !st->status_ok && strcmp(st->verdict.error, "timeout") == 0;
}

/* 1 when the status line says the command exited with CODE. */
int sc_step_exited_with(const struct sc_step *st, int code)
{
	return st->status_ok && st->status.exit_code == code;
}

/* The sample "<side>:<id>" from the step's status line and time file (it
 * ran: sc-sandbox-exec exited 0 or 1), into S, not recorded. */
void sc_step_sample(const struct sc_run *r, int side, const char *id, const struct sc_step *st,
                    struct sc_sample *s)
{
	sc_samples_bind(&r->samples, side, id, s);
	if (st->status_ok)
		sc_sample_from_status(s, &st->status, st->time_file);
	else
		sc_sample_unmeasured(s, st->verdict.error, st->verdict.detail);
}

/* A sample (FILE, or the side's prebuild when FILE is NULL) not measured
 * because the disk is full. */
void sc_step_record_disk_full(struct sc_run *r, int side, const struct sc_plan_file *f)
{
	const char *detail = "a sandboxed step left the disk full; the rest of the run was skipped";
	sc_run_record_unmeasured(r, side, f ? f->id : SC_PREBUILD_ID, "disk_full", detail);
	sc_progress_say(&r->progress, "%s %s: not run (disk_full)", sc_side_name(side),
	                f ? f->path : "prebuild");
}
