#include "contract/timefile.h"

#include <stdlib.h>
#include <string.h>

/* One line of buf, without its newline; advances *pos.  0 at the end. */
static int next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *n)
{
	if (*pos >= len)
		return 0;
	const char *start = buf + *pos;
	const char *nl = memchr(start, '\n', len - *pos);
	*line = start;
	*n = nl ? (size_t)(nl - start) : len - *pos;
	*pos += *n + (nl ? 1 : 0);
	return 1;
}

/* DIGITS[.DIGITS]: what GNU time prints for %U %S %e (two decimals).  No
 * sign, no exponent, no "nan"/"inf": strtod only ever sees a validated
 * string.  Nothing finer than a millisecond (a fourth decimal that is not
 * 0): samples are whole milliseconds, and rounding a finer counter could
 * carry it across a threshold (149.9999 would be 150.000). */
static int parse_seconds(const char *s, size_t n, double *out)
{
	size_t i = 0, int_digits = 0, frac_digits = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, int_digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			if (++frac_digits > 3 && s[i] != '0')
				return -1;
			i++;
		}
		if (frac_digits == 0)
			return -1;
	}
	if (i != n || int_digits == 0 || int_digits > 12 || frac_digits > 9)
		return -1;
	char tmp[32];
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	*out = strtod(tmp, NULL);
	return *out >= 0 && *out <= SC_TIME_MAX_SECONDS ? 0 : -1;
}

static int parse_int(const char *s, size_t n, long long max, long long *out)
{
	if (n == 0 || n > 18)
		return -1;
	long long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

/* "PREFIX<int>" with the int in [1, max]. */
static int prefixed_int(const char *line, size_t n, const char *prefix, long long max, long long *out)
{
	size_t pl = strlen(prefix);
	if (n <= pl || memcmp(line, prefix, pl) != 0)
		return 0;
	if (parse_int(line + pl, n - pl, max, out) < 0 || *out < 1)
		return -1;
	return 1;
}

/* The line GNU time may put before the format: 1 (tf filled, *nonzero the
 * status it names), 0 when the line is not one, -1 when it is malformed. */
static int termination_line(const char *line, size_t n, struct sc_timefile *tf, long long *nonzero)
{
	long long v;
	int r;
	if ((r = prefixed_int(line, n, "Command exited with non-zero status ", 255, nonzero)) != 0)
		return r;
	if ((r = prefixed_int(line, n, "Command terminated by signal ", 64, &v)) == 0 &&
	    (r = prefixed_int(line, n, "Command stopped by signal ", 64, &v)) != 0)
		tf->stopped = 1;
	if (r > 0)
		tf->signal = (int)v;
	return r;
}

static const char *const keys[] = {"user", "sys", "maxrss_kib", "exit", "elapsed"};

/* The value of keys[k] into tf: 0, or -1 when it is not a valid counter. */
static int key_value(size_t k, const char *val, size_t vl, struct sc_timefile *tf)
{
	long long v;
	switch (k) {
	case 0: return parse_seconds(val, vl, &tf->user_s);
	case 1: return parse_seconds(val, vl, &tf->sys_s);
	case 2: return parse_int(val, vl, SC_TIME_MAX_RSS_KIB, &tf->max_rss_kib);
	case 3:
		if (parse_int(val, vl, 255, &v) < 0)
			return -1;
		tf->exit_code = (int)v;
		return 0;
	default: return parse_seconds(val, vl, &tf->elapsed_s);
	}
}

/* The keyed lines, in order, from *pos. */
static int keyed_lines(const char *buf, size_t len, size_t *pos, struct sc_timefile *tf,
                       struct strbuf *err)
{
	const char *line;
	size_t n;
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		if (!next_line(buf, len, pos, &line, &n)) {
			sb_adds(err, "the time file is truncated");
			return -1;
		}
		size_t kl = strlen(keys[k]);
		if (n <= kl + 1 || memcmp(line, keys[k], kl) != 0 || line[kl] != ' ') {
			sb_addf(err, "the time file has no \"%s\" line where expected", keys[k]);
			return -1;
		}
		if (key_value(k, line + kl + 1, n - kl - 1, tf) < 0) {
			sb_addf(err, "the time file's \"%s\" value is not a valid counter", keys[k]);
			return -1;
		}
	}
	return 0;
}

/* Up to the header: an optional termination line, then "sc-time/1". */
static int header(const char *buf, size_t len, size_t *pos, struct sc_timefile *tf,
                  long long *nonzero, struct strbuf *err)
{
	const char *line;
	size_t n;
	int r;
	if (!next_line(buf, len, pos, &line, &n))
		goto truncated;
	if ((r = termination_line(line, n, tf, nonzero)) < 0) {
		sb_adds(err, "the time file's termination line is malformed");
		return -1;
	}
	if (r > 0 && !next_line(buf, len, pos, &line, &n))
		goto truncated;
	if (n != 9 || memcmp(line, "sc-time/1", 9) != 0) {
		sb_adds(err, "the time file does not start with the sc-time/1 header");
		return -1;
	}
	return 0;
truncated:
	sb_adds(err, "the time file is truncated");
	return -1;
}

int sc_timefile_parse(const char *buf, size_t len, struct sc_timefile *tf, struct strbuf *err)
{
	memset(tf, 0, sizeof *tf);
	if (len == 0) {
		sb_adds(err, "the time file is empty");
		return -1;
	}
	if (memchr(buf, '\0', len)) {
		sb_adds(err, "the time file contains a NUL byte");
		return -1;
	}
	size_t pos = 0, n;
	const char *line;
	long long nonzero = 0;
	if (header(buf, len, &pos, tf, &nonzero, err) < 0 || keyed_lines(buf, len, &pos, tf, err) < 0)
		return -1;
	/* At most one final empty line may follow. */
	if (next_line(buf, len, &pos, &line, &n) && (n != 0 || pos < len)) {
		sb_adds(err, "the time file has trailing content");
		return -1;
	}
	if (nonzero ? tf->exit_code != nonzero : (!tf->signal && tf->exit_code != 0)) {
		sb_adds(err, "the time file's exit status contradicts its status line");
		return -1;
	}
	return 0;
}

enum sc_sample_error sc_timefile_check_status(const struct sc_timefile *tf, int exit_code, int signal,
                                     double wall_s, struct strbuf *why)
{
	int expect = signal ? 128 + signal : exit_code;
	if (tf->signal)
		sb_addf(why, "the time file says the sandbox was killed by signal %d", tf->signal);
	else if (tf->exit_code != expect)
		sb_addf(why, "the time file's exit status %d disagrees with the status line's %d",
		        tf->exit_code, expect);
	else if (tf->elapsed_s > wall_s + SC_TIME_ELAPSED_SLACK_S)
		sb_addf(why, "the time file's elapsed %.2f s exceeds the run's wall %.2f s", tf->elapsed_s,
		        wall_s);
	if (why->len)
		return SC_ERR_STATUS_MISMATCH;
	if (signal)
		sb_addf(why, "the command was killed by signal %d", signal);
	else if (exit_code != 0)
		sb_addf(why, "the command exited with status %d", exit_code);
	return why->len ? SC_ERR_FAILED : SC_SAMPLE_OK;
}
