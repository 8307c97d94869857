#include "contract/rawsample.h"
#include "contract/status.h"
#include "contract/timefile.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/safefile.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* S becomes an error sample: REASON, and the detail FMT says. */
static void fail(struct sc_sample *s, enum sc_sample_error reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct sc_sample *s, enum sc_sample_error reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(s->detail);
	/* Any length: the sample model bounds what it writes. */
	if (vasprintf(&s->detail, fmt, ap) < 0)
		sc_die_sys("out of memory (vasprintf)");
	va_end(ap);
	s->error = reason;
	s->ok = 0;
}

void sc_sample_unmeasured(struct sc_sample *s, enum sc_sample_error reason, const char *detail)
{
	fail(s, reason, "%s", detail ? detail : "the sample was not measured");
}

/* The status line: one line of JSON, sane, not a timeout.  0 when it is. */
static int status_line(struct sc_sample *s, const char *buf, size_t len, struct sc_status *st)
{
	struct strbuf err = STRBUF_INIT;
	int rc = -1;
	if (len && buf[len - 1] == '\n')
		len--;
	if (len == 0)
		fail(s, SC_ERR_SANDBOX_FAILED, "sc-sandbox-exec printed no status line");
	else if (memchr(buf, '\n', len) || memchr(buf, '\0', len))
		fail(s, SC_ERR_SANDBOX_FAILED, "the status input is not one line");
	else if (sc_status_from_json(buf, len, st, &err) < 0)
		fail(s, SC_ERR_SANDBOX_FAILED, "invalid status line: %s", err.buf);
	else if (!isfinite(st->wall_s) || st->wall_s > SC_TIME_MAX_SECONDS)
		fail(s, SC_ERR_SANDBOX_FAILED, "the status line's wall time is absurd");
	else if (st->timed_out)
		fail(s, SC_ERR_TIMEOUT, "the command ran out of time (%.1f s wall)", st->wall_s);
	else if ((st->exit_code == -1) != (st->signal > 0))
		fail(s, SC_ERR_STATUS_MISMATCH,
		     "the status line has both or neither of an exit code and a signal");
	else
		rc = 0;
	sb_release(&err);
	return rc;
}

/* GNU time's rusage misses what the task clock saw (an autoreaped
 * child): no number of this run may enter a comparison.  0 when none
 * escaped. */
static int check_hidden(struct sc_sample *s, const struct sc_timefile *tf,
                        const struct sc_status *st)
{
	long long user, sys, clock;
	if (!st->has_task_clock)
		return 0;
	if (sc_seconds_to_ms(tf->user_s, &user) < 0 || sc_seconds_to_ms(tf->sys_s, &sys) < 0 ||
	    sc_seconds_to_ms(st->task_clock_s, &clock) < 0) {
		fail(s, SC_ERR_INVALID_COUNTERS, "a counter is not a whole number of milliseconds");
		return -1;
	}
	if (!sc_cpu_agrees(user + sys, clock)) {
		fail(s, SC_ERR_CPU_HIDDEN,
		     "the host's task clock counted %.3f s of CPU, GNU time's rusage %.3f s: "
		     "a descendant's CPU escaped rusage (tolerance %d ms + %d %%)",
		     st->task_clock_s, (double)(user + sys) / 1000, SC_CPU_TOLERANCE_MS,
		     SC_CPU_TOLERANCE_PCT);
		return -1;
	}
	return 0;
}

static void take(struct sc_sample *s, const struct sc_timefile *tf, const struct sc_status *st)
{
	s->ok = 1;
	s->cpu_user_s = tf->user_s;
	s->cpu_sys_s = tf->sys_s;
	s->cpu_s = tf->user_s + tf->sys_s;
	s->wall_s = st->wall_s;
	s->max_rss_kib = tf->max_rss_kib;
	s->exit_status = 0;
	s->has_task_clock = st->has_task_clock;
	s->task_clock_s = st->task_clock_s;
}

int sc_sample_status_check(struct sc_sample *s, const char *status, size_t len,
                           struct sc_status *st)
{
	memset(st, 0, sizeof *st);
	return status_line(s, status, len, st);
}

int sc_sample_from_status(struct sc_sample *s, const struct sc_status *st, const char *time_path)
{
	struct sc_timefile tf;
	struct strbuf tb = STRBUF_INIT, err = STRBUF_INIT;
	enum sc_sample_error reason;
	if (sc_read_file(time_path, &tb, SC_RAW_INPUT_MAX) < 0)
		fail(s, SC_ERR_MISSING_COUNTERS, "no readable time file: %s", strerror(errno));
	else if (sc_timefile_parse(tb.buf, tb.len, &tf, &err) < 0)
		fail(s, SC_ERR_INVALID_COUNTERS, "%s", err.buf);
	else if ((reason = sc_timefile_check_status(&tf, st->exit_code, st->signal, st->wall_s, &err)))
		fail(s, reason, "%s", err.buf);
	else if (check_hidden(s, &tf, st) == 0)
		take(s, &tf, st);
	sb_release(&tb);
	sb_release(&err);
	return s->ok;
}

int sc_sample_from_raw(struct sc_sample *s, const char *status, size_t len,
                       const char *time_path)
{
	struct sc_status st;
	if (sc_sample_status_check(s, status, len, &st) < 0)
		return 0;
	return sc_sample_from_status(s, &st, time_path);
}

