/* One sandboxed step of a side: what it hands sc-sandbox-exec, what its
 * exit code and status line come to, and when it filled the disk.
 * Documentation/measurement.txt "Measurement", sandbox.txt. */
#include "porcelain/step.h"
#include "contract/plan.h"
#include "contract/rawsample.h"
#include "porcelain/stage.h"
#include "porcelain/workspace.h"
#include "util/die.h"
#include "util/fsroom.h"
#include "util/safefile.h"

#include <stdlib.h>
#include <string.h>

/* Below this much free space, or this many free inodes, after a step, the
 * step filled the disk. */
#define DISK_FULL_BELOW (1ll << 20)
#define DISK_FULL_INODES_BELOW 32ll

void sc_steps_init(struct sc_steps *steps, const struct sc_step_opts *o, const char *dir,
                   struct sc_progress *progress)
{
	*steps = (struct sc_steps){.o = o, .dir = dir, .progress = progress,
	                           .sealed = {SC_ARGV_INIT, SC_ARGV_INIT}};
}

void sc_steps_set_workspace(struct sc_steps *steps, const char *ws)
{
	steps->ws = ws;
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
		steps->tree[side] = xasprintf("%s/%s", ws, sc_side_name(side));
}

void sc_steps_release(struct sc_steps *steps)
{
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		free(steps->tree[side]);
		sc_argv_release(&steps->sealed[side]);
	}
}

void sc_steps_push_bwrap(const struct sc_step_opts *o, struct sc_argv *a, int sandbox)
{
	if (o->bwrap) {
		sc_argv_push(a, "--bwrap");
		sc_argv_push(a, o->bwrap);
	}
	if (!sandbox)
		return;
	sc_argv_push(a, "--sandbox-user");
	sc_argv_push(a, o->user);
	if (o->sb.tmp_size) {
		sc_argv_push(a, "--tmp-size");
		sc_argv_push(a, o->sb.tmp_size);
	}
	if (o->sb.max_procs) {
		sc_argv_push(a, "--max-procs");
		sc_argv_push(a, o->sb.max_procs);
	}
}

void sc_steps_set_sealed(struct sc_steps *steps, int side, struct sc_argv *paths)
{
	sc_argv_release(&steps->sealed[side]);
	steps->sealed[side] = *paths;
	*paths = (struct sc_argv)SC_ARGV_INIT;
}

char *sc_step_log_path(const struct sc_steps *steps, int side, const char *name)
{
	char *stem = sc_workspace_stem(sc_side_name(side), name);
	char *path = xasprintf("%s/logs/%s.log", steps->ws, stem);
	free(stem);
	return path;
}

char *sc_step_output_hint(const struct sc_steps *steps, int side, const char *name)
{
	if (!steps->o->keep_logs)
		return xstrdup(steps->o->keep_logs_hint);
	char *stem = sc_workspace_stem(sc_side_name(side), name);
	char *hint = xasprintf("Lake's output: logs/%s.log", stem);
	free(stem);
	return hint;
}

/* Did the last step leave the disk full?  Then it is recorded and the
 * reserve goes back to the file system, so that the status lines, samples
 * and the report fit, and the step and every later one are disk_full, not
 * a machine failure. */
static int record_full_disk(struct sc_steps *steps)
{
	if (steps->disk_full)
		return 1;
	long long avail, inodes;
	if (sc_fs_room(steps->ws, &avail, &inodes) < 0 ||
	    (avail >= DISK_FULL_BELOW && inodes >= DISK_FULL_INODES_BELOW))
		return 0;
	sc_workspace_unreserve(steps->ws);
	steps->disk_full = 1;
	return 1;
}

enum sc_step_outcome sc_step_outcome_of(int rc)
{
	if (rc == 0)
		return SC_STEP_OK;
	if (rc == 1)
		return SC_STEP_FAILED;
	return SC_STEP_NOT_RUN;
}

/* sc-sandbox-exec's arguments for one step of the side, up to "--". */
static void sandbox_args(const struct sc_steps *steps, int side, const struct sc_step *st,
                         const char *name, const char *timeout, const char *log, int lake_ro,
                         struct sc_argv *a)
{
	const struct sc_step_opts *o = steps->o;
	const char *fixed[] = {"--tree", steps->tree[side], "--toolchain", o->toolchain,
	                       "--dependencies", o->deps, "--time-file", st->time_file,
	                       "--timeout", timeout, NULL};
	for (const char *const *p = fixed; *p; p++)
		sc_argv_push(a, *p);
	if (o->lake_cache) {
		sc_argv_push(a, "--cache");
		sc_argv_push(a, o->lake_cache);
	}
	if (log) {
		sc_argv_push(a, "--log");
		sc_argv_push(a, log);
	} else if (o->keep_logs) {
		sc_argv_push(a, "--log");
		sc_argv_push_owned(a, sc_step_log_path(steps, side, name));
	}
	sc_steps_push_bwrap(o, a, 1);
	for (size_t i = 0; i < steps->sealed[side].n; i++) {
		sc_argv_push(a, "--read-only");
		sc_argv_push(a, steps->sealed[side].v[i]);
	}
	if (lake_ro)
		sc_argv_push(a, "--lake-read-only");
	sc_argv_push(a, "--");
}

/* What a still-running line says. */
struct ticking {
	const struct sc_progress *progress;
	int side;
	const char *what;
};

/* sphereceti(1): a step still running says so, never silent for long. */
static void still_running(void *arg, double elapsed)
{
	const struct ticking *t = arg;
	sc_progress_say(t->progress, "%s %s: running for %.*f s", sc_side_name(t->side), t->what,
	                elapsed < 10 ? 1 : 0, elapsed);
}

/* The status line is kept beside the raw counters, both named in ST. */
int sc_steps_run(struct sc_steps *steps, int side, struct sc_step *st, const char *name,
                 const char *what, double timeout, const char *const *cmd, const char *log,
                 int lake_ro)
{
	st->time_file = sc_workspace_raw(steps->ws, sc_side_name(side), name, "time");
	st->status_file = sc_workspace_raw(steps->ws, sc_side_name(side), name, "status");
	char *timeout_s = xasprintf("%.3f", timeout);
	struct sc_argv a = SC_ARGV_INIT;
	sandbox_args(steps, side, st, name, timeout_s, log, lake_ro, &a);
	for (const char *const *p = cmd; *p; p++)
		sc_argv_push(&a, *p);
	struct strbuf status = STRBUF_INIT;
	struct ticking t = {steps->progress, side, what ? what : name};
	const struct sc_stage_tick tick = {steps->o->progress_every, still_running, &t};
	int rc = sc_stage_run_ticking(steps->dir, "sandbox-exec", a.v, &status, &tick);
	sc_stage_stop_if_interrupted(steps->ws);
	if (record_full_disk(steps))
		rc = 1; /* it ran: neither a machine failure nor counters to trust */
	if (sc_stage_system_failure(rc))
		steps->system_failed = 1;
	if (status.len && !steps->disk_full)
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
	return !st->status_ok && st->verdict.error == SC_ERR_TIMEOUT;
}

/* 1 when the status line says the command exited with CODE. */
int sc_step_exited_with(const struct sc_step *st, int code)
{
	return st->status_ok && st->status.exit_code == code;
}

void sc_step_fill(const struct sc_step *st, struct sc_sample *s)
{
	if (st->status_ok)
		sc_sample_from_status(s, &st->status, st->time_file);
	else
		sc_sample_unmeasured(s, st->verdict.error, st->verdict.detail);
}

void sc_step_disk_full(struct sc_sample *s, struct strbuf *line)
{
	sc_sample_unmeasured(s, SC_ERR_DISK_FULL,
	                     "a sandboxed step left the disk full; the rest of the run was skipped");
	if (line)
		sb_adds(line, "not run (disk_full)");
}
