#include "sandbox/timefile.h"

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

/* DIGITS[.DIGITS]: what GNU time prints for %U %S %e.  No sign, no
 * exponent, no "nan"/"inf": strtod only ever sees a validated string. */
static int parse_seconds(const char *s, size_t n, double *out)
{
	size_t i = 0, int_digits = 0, frac_digits = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, int_digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, frac_digits++;
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

static const char *const keys[] = {"user", "sys", "maxrss_kib", "exit", "elapsed"};

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
	long long v;
	int exited_nonzero = 0;
	long long nonzero = 0;
	if (!next_line(buf, len, &pos, &line, &n))
		goto truncated;
	int r;
	if ((r = prefixed_int(line, n, "Command exited with non-zero status ", 255, &nonzero)) != 0) {
		if (r < 0)
			goto bad_prefix;
		exited_nonzero = 1;
	} else if ((r = prefixed_int(line, n, "Command terminated by signal ", 64, &v)) != 0) {
		if (r < 0)
			goto bad_prefix;
		tf->signal = (int)v;
	} else if ((r = prefixed_int(line, n, "Command stopped by signal ", 64, &v)) != 0) {
		if (r < 0)
			goto bad_prefix;
		tf->signal = (int)v;
		tf->stopped = 1;
	}
	if (r != 0 && !next_line(buf, len, &pos, &line, &n))
		goto truncated;
	if (n != 9 || memcmp(line, "sc-time/1", 9) != 0) {
		sb_adds(err, "the time file does not start with the sc-time/1 header");
		return -1;
	}
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		if (!next_line(buf, len, &pos, &line, &n))
			goto truncated;
		size_t kl = strlen(keys[k]);
		if (n <= kl + 1 || memcmp(line, keys[k], kl) != 0 || line[kl] != ' ') {
			sb_addf(err, "the time file has no \"%s\" line where expected", keys[k]);
			return -1;
		}
		const char *val = line + kl + 1;
		size_t vl = n - kl - 1;
		int bad;
		switch (k) {
		case 0: bad = parse_seconds(val, vl, &tf->user_s); break;
		case 1: bad = parse_seconds(val, vl, &tf->sys_s); break;
		case 2: bad = parse_int(val, vl, SC_TIME_MAX_RSS_KIB, &tf->max_rss_kib); break;
		case 3:
			bad = parse_int(val, vl, 255, &v);
			tf->exit_code = (int)v;
			break;
		default: bad = parse_seconds(val, vl, &tf->elapsed_s); break;
		}
		if (bad) {
			sb_addf(err, "the time file's \"%s\" value is not a valid counter", keys[k]);
			return -1;
		}
	}
	/* At most one final empty line may follow. */
	if (next_line(buf, len, &pos, &line, &n) && (n != 0 || pos < len)) {
		sb_adds(err, "the time file has trailing content");
		return -1;
	}
	if (exited_nonzero ? tf->exit_code != nonzero : (!tf->signal && tf->exit_code != 0)) {
		sb_adds(err, "the time file's exit status contradicts its status line");
		return -1;
	}
	return 0;
truncated:
	sb_adds(err, "the time file is truncated");
	return -1;
bad_prefix:
	sb_adds(err, "the time file's termination line is malformed");
	return -1;
}
