/* sc-parse-time: turn one raw GNU time file and its sandbox status line into
 * one sample bound to its run, plan, revision and file.  Anything doubtful
 * becomes an error sample, never a number.  See man/sc-parse-time.1. */
#include "contract/sample.h"
#include "contract/status.h"
#include "report/verdict.h"
#include "contract/timefile.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/options.h"
#include "util/run.h"
#include "util/safefile.h"
#include "util/strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT 65536

static const char *const usage[] = {
	"usage: sc-parse-time --time-file FILE --status FILE|- BINDING",
	"   or: sc-parse-time --unmeasured REASON [--detail TEXT] BINDING",
	"BINDING: --run-id ID --plan-digest HEX --revision SHA",
	"         --sample base:MOD|head:MOD|base:@prebuild|head:@prebuild",
	"",
	"Prints one sphereceti.sample/1 line: the counters, or an error sample.",
	"See man sc-parse-time.",
	NULL,
};

static struct {
	const char *time_file, *status, *run_id, *digest, *rev, *sample, *unmeasured, *detail;
} o;

static const struct sc_option opts[] = {
	SC_OPT_STRING(0, "time-file", &o.time_file, "FILE", "the raw counters GNU time wrote"),
	SC_OPT_STRING(0, "status", &o.status, "FILE|-", "sc-sandbox-exec's status line"),
	SC_OPT_REQUIRED_STRING(0, "run-id", &o.run_id, "ID", "32 lowercase hex digits"),
	SC_OPT_REQUIRED_STRING(0, "plan-digest", &o.digest, "HEX", "the plan's SHA-256"),
	SC_OPT_REQUIRED_STRING(0, "revision", &o.rev, "SHA", "the side's commit (a full object ID)"),
	SC_OPT_REQUIRED_STRING(0, "sample", &o.sample, "SIDE:ID", "base:MODULE, head:MODULE or SIDE:@prebuild"),
	SC_OPT_STRING(0, "unmeasured", &o.unmeasured, "REASON", "an error sample for a sample that never ran"),
	SC_OPT_STRING(0, "detail", &o.detail, "TEXT", "with --unmeasured: the sample's detail"),
	SC_OPT_END(),
};

static const struct sc_command cmd = {usage, NULL};

static struct sc_sample sample;

static _Noreturn void emit(void)
{
	struct strbuf out = STRBUF_INIT;
	sc_sample_to_json(&sample, &out);
	if (sc_write_all(1, out.buf, out.len) < 0)
		sc_die_sys_errno("cannot write the sample (stdout)");
	sb_release(&out);
	exit(sample.ok ? SC_EXIT_OK : SC_EXIT_FAIL);
}

static _Noreturn void error_sample(const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static _Noreturn void error_sample(const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	/* Any length: the sample model bounds what it writes. */
	if (vasprintf(&sample.detail, fmt, ap) < 0)
		sc_die_sys("out of memory (vasprintf)");
	va_end(ap);
	sample.ok = 0;
	sample.error = (char *)reason;
	emit();
}

static void read_status(const char *path, struct strbuf *sb)
{
	if (strcmp(path, "-") == 0) {
		if (sc_read_all(0, sb) < 0)
			sc_die_sys_errno("cannot read the status line (stdin)");
		if (sb->len > MAX_INPUT)
			sc_die("the status input is too large (stdin)");
	} else if (sc_read_file(path, sb, MAX_INPUT) < 0) {
		sc_die_path_errno("cannot read the status line (%s)", path);
	}
}

/* The status line: one line of JSON, sane, not a timeout. */
static void status_line(const char *status_path, struct sc_status *st)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	read_status(status_path, &sb);
	size_t len = sb.len;
	if (len && sb.buf[len - 1] == '\n')
		len--;
	if (len == 0)
		error_sample("sandbox_failed", "sc-sandbox-exec printed no status line");
	if (memchr(sb.buf, '\n', len) || memchr(sb.buf, '\0', len))
		error_sample("sandbox_failed", "the status input is not one line");
	if (sc_status_from_json(sb.buf, len, st, &err) < 0)
		error_sample("sandbox_failed", "invalid status line: %s", err.buf);
	if (!isfinite(st->wall_s) || st->wall_s > SC_TIME_MAX_SECONDS)
		error_sample("sandbox_failed", "the status line's wall time is absurd");
	if (st->timed_out)
		error_sample("timeout", "the command ran out of time (%.1f s wall)", st->wall_s);
	if ((st->exit_code == -1) != (st->signal > 0))
		error_sample("status_mismatch", "the status line has both or neither of an exit code and a signal");
	sb_release(&sb);
	sb_release(&err);
}

/* GNU time's rusage misses what the task clock saw (an autoreaped
 * child): no number of this run may enter a comparison. */
static void check_hidden(const struct sc_timefile *tf, const struct sc_status *st)
{
	long long user, sys, clock;
	if (!st->has_task_clock)
		return;
	if (sc_seconds_to_ms(tf->user_s, &user) < 0 || sc_seconds_to_ms(tf->sys_s, &sys) < 0 ||
	    sc_seconds_to_ms(st->task_clock_s, &clock) < 0)
		error_sample("invalid_counters", "a counter is not a whole number of milliseconds");
	if (!sc_cpu_agrees(user + sys, clock))
		error_sample("cpu_hidden",
		             "the host's task clock counted %.3f s of CPU, GNU time's rusage %.3f s: "
		             "a descendant's CPU escaped rusage (tolerance %d ms + %d %%)",
		             st->task_clock_s, (double)(user + sys) / 1000, SC_CPU_TOLERANCE_MS,
		             SC_CPU_TOLERANCE_PCT);
}

static _Noreturn void measured(const char *time_path, const char *status_path)
{
	struct sc_status st;
	status_line(status_path, &st);
	struct strbuf tb = STRBUF_INIT, err = STRBUF_INIT;
	if (sc_read_file(time_path, &tb, MAX_INPUT) < 0)
		error_sample("missing_counters", "no readable time file: %s", strerror(errno));
	struct sc_timefile tf;
	if (sc_timefile_parse(tb.buf, tb.len, &tf, &err) < 0)
		error_sample("invalid_counters", "%s", err.buf);
	const char *reason = sc_timefile_check_status(&tf, st.exit_code, st.signal, st.wall_s, &err);
	if (reason)
		error_sample(reason, "%s", err.buf);
	check_hidden(&tf, &st);
	sample.ok = 1;
	sample.cpu_user_s = tf.user_s;
	sample.cpu_sys_s = tf.sys_s;
	sample.cpu_s = tf.user_s + tf.sys_s;
	sample.wall_s = st.wall_s;
	sample.max_rss_kib = tf.max_rss_kib;
	sample.exit_status = 0;
	sample.has_task_clock = st.has_task_clock;
	sample.task_clock_s = st.task_clock_s;
	sb_release(&tb);
	sb_release(&err);
	emit();
}

/* The binding every sample carries, checked. */
static void bind(char digest[65], char rev[65])
{
	if (!sc_is_lower_hex(o.run_id, SC_RUN_ID_HEXSZ))
		sc_die("--run-id is not 32 lowercase hex digits (%s)", o.run_id);
	if (sc_oid_normalize(o.digest, 64, digest) < 0)
		sc_die("--plan-digest is not a SHA-256 hex digest (%s)", o.digest);
	if (sc_oid_normalize(o.rev, 40, rev) < 0 && sc_oid_normalize(o.rev, 64, rev) < 0)
		sc_die("--revision is not a full object ID (%s)", o.rev);
	if (sc_sample_side(o.sample) < 0)
		sc_die("--sample is not base:MODULE, head:MODULE, base:@prebuild or head:@prebuild (%s)",
		       o.sample);
	sample.run_id = (char *)o.run_id;
	sample.plan_digest = digest;
	sample.revision = rev;
	sample.sample = (char *)o.sample;
}

static _Noreturn void unmeasured(void)
{
	if (o.time_file || o.status)
		sc_die("--unmeasured excludes --time-file and --status (see %s --help)", sc_progname());
	if (!sc_is_error_reason(o.unmeasured))
		sc_die("--unmeasured needs a known error reason (%s)", o.unmeasured);
	error_sample(o.unmeasured, "%s", o.detail ? o.detail : "the sample was not measured");
}

int main(int argc, char **argv)
{
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	char digest[65], rev[65];
	bind(digest, rev);
	if (o.unmeasured)
		unmeasured();
	if (o.detail)
		sc_die("--detail goes with --unmeasured (see %s --help)", sc_progname());
	if (!o.time_file || !o.status)
		sc_die("--time-file and --status are required (see %s --help)", sc_progname());
	measured(o.time_file, o.status);
}
