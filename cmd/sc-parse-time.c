/* sc-parse-time: turn one raw GNU time file and its sandbox status line into
 * one sample bound to its run, plan, revision and file.  Anything doubtful
 * becomes an error sample, never a number.  See man/sc-parse-time.1. */
#include "util/closeout.h"
#include "util/badopt.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/run.h"
#include "util/safefile.h"
#include "report/sample.h"
#include "util/strbuf.h"
#include "sandbox/timefile.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT 65536
/* GNU time's elapsed lies inside our wall window; allow for its wall-clock
 * source stepping a little. */
#define ELAPSED_SLACK_S 2.0

static const char usage_line[] =
	"usage: sc-parse-time (--time-file FILE --status FILE|- | --unmeasured REASON [--detail TEXT]) "
	"--run-id ID --plan-digest HEX --revision SHA --sample base:MOD|head:MOD|base:@prebuild|head:@prebuild";

static struct sc_sample sample;
static char detail_buf[512];

static _Noreturn void emit(void)
{
	struct strbuf out = STRBUF_INIT;
	sc_sample_to_json(&sample, &out);
	if (sc_write_all(1, out.buf, out.len) < 0)
		sc_die_errno("cannot write the sample (stdout)");
	sb_release(&out);
	exit(sample.ok ? SC_EXIT_OK : SC_EXIT_FAIL);
}

static _Noreturn void error_sample(const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static _Noreturn void error_sample(const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail_buf, sizeof detail_buf, fmt, ap);
	va_end(ap);
	sample.ok = 0;
	sample.error = (char *)reason;
	sample.detail = detail_buf;
	emit();
}

static void read_status(const char *path, struct strbuf *sb)
{
	if (strcmp(path, "-") == 0) {
		if (sc_read_all(0, sb) < 0)
			sc_die_errno("cannot read the status line (stdin)");
		if (sb->len > MAX_INPUT)
			sc_die("the status input is too large (stdin)");
	} else if (sc_read_file(path, sb, MAX_INPUT) < 0) {
		sc_die_errno("cannot read the status line (%s)", path);
	}
}

static void measured(const char *time_path, const char *status_path)
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
	struct sc_status st;
	if (sc_status_from_json(sb.buf, len, &st, &err) < 0)
		error_sample("sandbox_failed", "invalid status line: %s", err.buf);
	if (!isfinite(st.wall_s) || st.wall_s > SC_TIME_MAX_SECONDS)
		error_sample("sandbox_failed", "the status line's wall time is absurd");
	if (st.timed_out)
		error_sample("timeout", "the command ran out of time (%.1f s wall)", st.wall_s);
	if ((st.exit_code == -1) != (st.signal > 0))
		error_sample("status_mismatch", "the status line has both or neither of an exit code and a signal");

	struct strbuf tb = STRBUF_INIT;
	if (sc_read_file(time_path, &tb, MAX_INPUT) < 0)
		error_sample("missing_counters", "no readable time file: %s", strerror(errno));
	struct sc_timefile tf;
	sb_reset(&err);
	if (sc_timefile_parse(tb.buf, tb.len, &tf, &err) < 0)
		error_sample("invalid_counters", "%s", err.buf);
	/* bwrap and GNU time hand the command's status on: exit N, or 128+N
	 * for signal N.  The wrapper itself is never signalled unless it
	 * timed out, which the status line would say. */
	int expect = st.signal ? 128 + st.signal : st.exit_code;
	if (tf.signal)
		error_sample("status_mismatch", "the time file says the sandbox was killed by signal %d",
		             tf.signal);
	if (tf.exit_code != expect)
		error_sample("status_mismatch", "the time file's exit status %d disagrees with the status line's %d",
		             tf.exit_code, expect);
	if (tf.elapsed_s > st.wall_s + ELAPSED_SLACK_S)
		error_sample("status_mismatch", "the time file's elapsed %.2f s exceeds the run's wall %.2f s",
		             tf.elapsed_s, st.wall_s);
	if (st.signal)
		error_sample("failed", "the command was killed by signal %d", st.signal);
	if (st.exit_code != 0)
		error_sample("failed", "the command exited with status %d", st.exit_code);
	sample.ok = 1;
	sample.cpu_user_s = tf.user_s;
	sample.cpu_sys_s = tf.sys_s;
	sample.cpu_s = tf.user_s + tf.sys_s;
	sample.wall_s = st.wall_s;
	sample.max_rss_kib = tf.max_rss_kib;
	sample.exit_status = 0;
	sb_release(&sb);
	sb_release(&tb);
	sb_release(&err);
	emit();
}

int main(int argc, char **argv)
{
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	enum { O_TIME = 256, O_STATUS, O_RUN, O_DIGEST, O_REV, O_SAMPLE, O_UNMEASURED, O_DETAIL };
	static const struct option opts[] = {
		{"time-file", required_argument, NULL, O_TIME},
		{"status", required_argument, NULL, O_STATUS},
		{"run-id", required_argument, NULL, O_RUN},
		{"plan-digest", required_argument, NULL, O_DIGEST},
		{"revision", required_argument, NULL, O_REV},
		{"sample", required_argument, NULL, O_SAMPLE},
		{"unmeasured", required_argument, NULL, O_UNMEASURED},
		{"detail", required_argument, NULL, O_DETAIL},
		{NULL, 0, NULL, 0},
	};
	const char *v[O_DETAIL - O_TIME + 1] = {0};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c < O_TIME || c > O_DETAIL)
			sc_die_bad_option(opts, argv[optind - 1]);
		if (v[c - O_TIME])
			sc_die("an option is given twice (%s)", usage_line);
		v[c - O_TIME] = optarg;
	}
	if (optind != argc)
		sc_die("unexpected argument \"%s\" (%s)", argv[optind], usage_line);
#define ARG(o) v[(o) - O_TIME]
	for (int o = O_RUN; o <= O_SAMPLE; o++)
		if (!ARG(o))
			sc_die("--%s is required (%s)", opts[o - O_TIME].name, usage_line);
	if (!sc_is_lower_hex(ARG(O_RUN), SC_RUN_ID_HEXSZ))
		sc_die("--run-id is not 32 lowercase hex digits (%s)", ARG(O_RUN));
	char digest[65], rev[65];
	if (sc_oid_normalize(ARG(O_DIGEST), 64, digest) < 0)
		sc_die("--plan-digest is not a SHA-256 hex digest (%s)", ARG(O_DIGEST));
	if (sc_oid_normalize(ARG(O_REV), 40, rev) < 0 && sc_oid_normalize(ARG(O_REV), 64, rev) < 0)
		sc_die("--revision is not a full object ID (%s)", ARG(O_REV));
	if (sc_sample_side(ARG(O_SAMPLE)) < 0)
		sc_die("--sample is not base:MODULE, head:MODULE, base:@prebuild or head:@prebuild (%s)",
		       ARG(O_SAMPLE));
	sample.run_id = (char *)ARG(O_RUN);
	sample.plan_digest = digest;
	sample.revision = rev;
	sample.sample = (char *)ARG(O_SAMPLE);

	if (ARG(O_UNMEASURED)) {
		if (ARG(O_TIME) || ARG(O_STATUS))
			sc_die("--unmeasured excludes --time-file and --status (%s)", usage_line);
		if (!sc_is_error_reason(ARG(O_UNMEASURED)))
			sc_die("--unmeasured needs a known error reason (%s)", ARG(O_UNMEASURED));
		if (ARG(O_DETAIL) && strlen(ARG(O_DETAIL)) >= sizeof detail_buf)
			sc_die("--detail is too long (%zu bytes)", strlen(ARG(O_DETAIL)));
		error_sample(ARG(O_UNMEASURED), "%s",
		             ARG(O_DETAIL) ? ARG(O_DETAIL) : "the sample was not measured");
	}
	if (ARG(O_DETAIL))
		sc_die("--detail goes with --unmeasured (%s)", usage_line);
	if (!ARG(O_TIME) || !ARG(O_STATUS))
		sc_die("--time-file and --status are required (%s)", usage_line);
	measured(ARG(O_TIME), ARG(O_STATUS));
}
