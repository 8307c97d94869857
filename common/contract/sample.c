#include "contract/sample.h"
#include "util/json.h"
#include "contract/leanpath.h"
#include "util/oid.h"
#include "contract/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const error_names[] = {
	[SC_SAMPLE_OK] = "",
	[SC_ERR_PREBUILD_FAILED] = "prebuild_failed",
	[SC_ERR_PREBUILD_TIMEOUT] = "prebuild_timeout",
	[SC_ERR_SOURCE_CHANGED] = "source_changed",
	[SC_ERR_DEADLINE_EXCEEDED] = "deadline_exceeded",
	[SC_ERR_TIMEOUT] = "timeout",
	[SC_ERR_FAILED] = "failed",
	[SC_ERR_INVALID_COUNTERS] = "invalid_counters",
	[SC_ERR_MISSING_COUNTERS] = "missing_counters",
	[SC_ERR_STATUS_MISMATCH] = "status_mismatch",
	[SC_ERR_SANDBOX_FAILED] = "sandbox_failed",
	[SC_ERR_CPU_HIDDEN] = "cpu_hidden",
	[SC_ERR_DISK_FULL] = "disk_full",
	[SC_ERR_IMPORTS_UNREADABLE] = "imports_unreadable",
	[SC_ERR_ORDER_VIOLATED] = "order_violated",
};
#define N_ERRORS (sizeof error_names / sizeof *error_names)

int sc_seconds_to_ms(double s, long long *ms)
{
	if (!isfinite(s) || s < 0 || s > (double)(SC_MAX_MS / 1000))
		return -1;
	/* s >= 0, so adding one half and truncating rounds to nearest (no
	 * libm: the tools link without -lm). */
	double x = s * 1000.0;
	long long r = (long long)(x + 0.5);
	double off = x > (double)r ? x - (double)r : (double)r - x;
	/* A decimal with three places is off by a few ulps at most (below
	 * 1e-3 ms even at SC_MAX_MS); a fourth decimal is off by >= 0.1 ms. */
	if (off > 1e-6 + (double)r * 1e-15)
		return -1;
	*ms = r;
	return 0;
}

const char *sc_sample_error_name(enum sc_sample_error e)
{
	return (size_t)e < N_ERRORS ? error_names[e] : "";
}

enum sc_sample_error sc_sample_error_of(const char *name)
{
	for (size_t i = 1; name && i < N_ERRORS; i++)
		if (strcmp(error_names[i], name) == 0)
			return (enum sc_sample_error)i;
	return SC_SAMPLE_OK;
}

int sc_sample_compared_ms(const struct sc_sample *s, long long *ms)
{
	long long clock = 0;
	if (sc_seconds_to_ms(s->cpu_s, ms) < 0 ||
	    (s->has_task_clock && sc_seconds_to_ms(s->task_clock_s, &clock) < 0))
		return -1;
	if (clock > *ms)
		*ms = clock;
	return 0;
}

long long sc_sample_median_ms(const long long *ms, size_t n)
{
	long long v[SC_MAX_REPEATS + 1];
	if (n > SC_MAX_REPEATS + 1)
		n = SC_MAX_REPEATS + 1;
	for (size_t i = 0; i < n; i++) { /* insertion sort: five at most */
		size_t j = i;
		for (; j && v[j - 1] > ms[i]; j--)
			v[j] = v[j - 1];
		v[j] = ms[i];
	}
	return v[(n - 1) / 2];
}

int sc_cpu_agrees(long long rusage_ms, long long clock_ms)
{
	long long diff = rusage_ms > clock_ms ? rusage_ms - clock_ms : clock_ms - rusage_ms;
	long long big = rusage_ms > clock_ms ? rusage_ms : clock_ms;
	return diff * 100 <= SC_CPU_TOLERANCE_MS * 100 + SC_CPU_TOLERANCE_PCT * big;
}

/* The detail as written: at most SC_SAMPLE_DETAIL_MAX bytes, cut before
 * a UTF-8 continuation byte, marked (a hostile path in it never costs the
 * sample, nor splits a character). */
static char *bounded_detail(const char *d)
{
	size_t n = strlen(d);
	if (n <= SC_SAMPLE_DETAIL_MAX)
		return xstrdup(d);
	size_t keep = SC_SAMPLE_DETAIL_MAX - (sizeof SC_SAMPLE_DETAIL_CUT - 1);
	while (keep > 0 && ((unsigned char)d[keep] & 0xC0) == 0x80)
		keep--;
	return xasprintf("%.*s%s", (int)keep, d, SC_SAMPLE_DETAIL_CUT);
}

int sc_sample_id_split(const char *sample, int *side, const char **id)
{
	const char *colon = strchr(sample, ':');
	if (!colon)
		return -1;
	size_t n = (size_t)(colon - sample);
	if (n == 4 && strncmp(sample, "base", 4) == 0)
		*side = SC_SIDE_BASE;
	else if (n == 4 && strncmp(sample, "head", 4) == 0)
		*side = SC_SIDE_HEAD;
	else
		return -1;
	*id = colon + 1;
	/* An id is a module name: identifiers joined by dots. */
	const char *p = *id, *start = p;
	for (;; p++) {
		if (*p == '.' || *p == '\0') {
			if (!sc_is_lean_ident(start, (size_t)(p - start)))
				return -1;
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	return 0;
}

int sc_sample_prebuild_side(const char *sample)
{
	if (strcmp(sample, "base:" SC_PREBUILD_ID) == 0)
		return SC_SIDE_BASE;
	if (strcmp(sample, "head:" SC_PREBUILD_ID) == 0)
		return SC_SIDE_HEAD;
	return -1;
}

int sc_sample_side(const char *sample)
{
	int side;
	const char *id;
	if (sc_sample_id_split(sample, &side, &id) == 0)
		return side;
	return sc_sample_prebuild_side(sample);
}

void sc_sample_bound(struct sc_sample *s)
{
	if (!s->detail)
		return;
	char *d = bounded_detail(s->detail);
	free(s->detail);
	s->detail = d;
}

void sc_sample_to_json(const struct sc_sample *s, struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(0);
	sc_json_map_open(g);
	sc_json_kv_str(g, "schema", SC_SAMPLE_SCHEMA);
	sc_json_kv_str(g, "run_id", s->run_id);
	sc_json_kv_str(g, "plan_digest", s->plan_digest);
	sc_json_kv_str(g, "revision", s->revision);
	sc_json_kv_str(g, "sample", s->sample);
	sc_json_kv_bool(g, "ok", s->ok);
	const char *num_keys[] = {"cpu_user_s", "cpu_sys_s", "cpu_s", "wall_s"};
	const double nums[] = {s->cpu_user_s, s->cpu_sys_s, s->cpu_s, s->wall_s};
	for (int i = 0; i < 4; i++) {
		if (s->ok)
			sc_json_kv_fixed(g, num_keys[i], nums[i], 3);
		else
			sc_json_kv_null(g, num_keys[i]);
	}
	if (s->ok) {
		sc_json_kv_int(g, "max_rss_kib", s->max_rss_kib);
		sc_json_kv_int(g, "exit_status", s->exit_status);
	} else {
		sc_json_kv_null(g, "max_rss_kib");
		sc_json_kv_null(g, "exit_status");
	}
	if (s->ok && s->has_task_clock)
		sc_json_kv_fixed(g, "task_clock_s", s->task_clock_s, 3);
	else
		sc_json_kv_null(g, "task_clock_s");
	sc_json_kv_str_or_null(g, "error", s->ok ? NULL : sc_sample_error_name(s->error));
	char *detail = s->detail ? bounded_detail(s->detail) : NULL;
	sc_json_kv_str_or_null(g, "detail", detail);
	free(detail);
	if (s->repeat)
		sc_json_kv_int(g, "repeat", s->repeat);
	if (s->shard)
		sc_json_kv_int(g, "shard", s->shard);
	sc_json_map_close(g);
	sc_json_finish(g, out);
}

/* The fields every sample carries; the strings are copied into s, error
 * is left pointing into v. */
static int take_ids(yajl_val v, struct sc_sample *s, const char **error, struct strbuf *err)
{
	static const char *const keys[] = {"schema", "run_id", "plan_digest", "revision", "sample",
	                                   "ok", "cpu_user_s", "cpu_sys_s", "cpu_s", "wall_s",
	                                   "max_rss_kib", "exit_status", "task_clock_s", "error",
	                                   "detail", "repeat", "shard", NULL};
	const char *schema, *run_id, *digest, *rev, *sample, *detail;
	if (sc_json_only_keys(v, keys, "the sample", err) < 0 ||
	    sc_json_get_str(v, "schema", &schema, err) < 0)
		return -1;
	if (strcmp(schema, SC_SAMPLE_SCHEMA) != 0) {
		sb_addf(err, "unsupported sample schema \"%s\"", schema);
		return -1;
	}
	if (sc_json_get_str(v, "run_id", &run_id, err) < 0 ||
	    sc_json_get_str(v, "plan_digest", &digest, err) < 0 ||
	    sc_json_get_str(v, "revision", &rev, err) < 0 ||
	    sc_json_get_str(v, "sample", &sample, err) < 0 ||
	    sc_json_get_bool(v, "ok", &s->ok, err) < 0 ||
	    sc_json_get_str_or_null(v, "error", error, err) < 0 ||
	    sc_json_get_str_or_null(v, "detail", &detail, err) < 0)
		return -1;
	const char *bad = !sc_is_lower_hex(run_id, SC_RUN_ID_HEXSZ) ? "field \"run_id\" is not a run ID"
	                  : !sc_is_lower_hex(digest, 64) ? "field \"plan_digest\" is not a SHA-256 digest"
	                  : !sc_is_lower_hex(rev, 40) && !sc_is_lower_hex(rev, 64)
	                      ? "field \"revision\" is not a full object ID"
	                  : sc_sample_side(sample) < 0
	                      ? "field \"sample\" is not <base|head>:<module> or <base|head>:@prebuild"
	                      : NULL;
	if (!bad && detail && strlen(detail) > SC_SAMPLE_DETAIL_MAX)
		bad = "field \"detail\" is longer than " SC_XSTR(SC_SAMPLE_DETAIL_MAX) " bytes";
	long long repeat = 0;
	if (!bad && sc_json_member(v, "repeat")) {
		if (sc_json_get_int(v, "repeat", &repeat, err) < 0)
			return -1;
		if (repeat < 1 || repeat > SC_MAX_REPEATS || sc_sample_prebuild_side(sample) >= 0)
			bad = "field \"repeat\" is not 1 to " SC_XSTR(SC_MAX_REPEATS) " on a file's sample";
	}
	long long shard = 0;
	if (!bad && sc_json_member(v, "shard")) {
		if (sc_json_get_int(v, "shard", &shard, err) < 0)
			return -1;
		if (shard < 1 || shard > SC_MAX_SHARDS)
			bad = "field \"shard\" is not 1 to " SC_XSTR(SC_MAX_SHARDS);
	}
	if (bad) {
		sb_adds(err, bad);
		return -1;
	}
	s->run_id = xstrdup(run_id);
	s->plan_digest = xstrdup(digest);
	s->revision = xstrdup(rev);
	s->sample = xstrdup(sample);
	s->detail = detail ? xstrdup(detail) : NULL;
	s->repeat = (unsigned)repeat;
	s->shard = (unsigned)shard;
	return 0;
}

/* An ok sample's task clock: null (or absent) where the host has none,
 * else whole milliseconds that agree with cpu_s (CPU_MS). */
static int take_task_clock(yajl_val v, struct sc_sample *s, long long cpu_ms, struct strbuf *err)
{
	yajl_val m = sc_json_member(v, "task_clock_s");
	long long ms;
	if (!m || YAJL_IS_NULL(m))
		return 0;
	if (sc_json_get_num(v, "task_clock_s", &s->task_clock_s, err) < 0)
		return -1;
	if (sc_seconds_to_ms(s->task_clock_s, &ms) < 0) {
		sb_adds(err, "field \"task_clock_s\" is not a whole number of milliseconds");
		return -1;
	}
	if (!sc_cpu_agrees(cpu_ms, ms)) {
		sb_adds(err, "an ok sample's task_clock_s disagrees with its cpu_s (that is cpu_hidden)");
		return -1;
	}
	s->has_task_clock = 1;
	return 0;
}

/* An ok sample's counters: present, in range, whole milliseconds, and
 * cpu_s = user + sys. */
static int take_counters(yajl_val v, struct sc_sample *s, struct strbuf *err)
{
	static const char *const num_keys[] = {"cpu_user_s", "cpu_sys_s", "cpu_s", "wall_s"};
	double *nums[] = {&s->cpu_user_s, &s->cpu_sys_s, &s->cpu_s, &s->wall_s};
	long long rss, exit_status, ms[4];
	for (int i = 0; i < 4; i++)
		if (sc_json_get_num(v, num_keys[i], nums[i], err) < 0)
			return -1;
	if (sc_json_get_int(v, "max_rss_kib", &rss, err) < 0 ||
	    sc_json_get_int(v, "exit_status", &exit_status, err) < 0)
		return -1;
	if (s->cpu_user_s < 0 || s->cpu_sys_s < 0 || s->cpu_s < 0 || s->wall_s < 0 ||
	    rss < 0 || exit_status != 0) {
		sb_adds(err, "an ok sample has a negative counter or a nonzero exit status");
		return -1;
	}
	/* A billion seconds is decades: anything above is garbage, and
	 * sc_sample_to_json could not print it back. */
	if (s->cpu_user_s > 1e9 || s->cpu_sys_s > 1e9 || s->cpu_s > 1e9 || s->wall_s > 1e9) {
		sb_adds(err, "an ok sample has a counter above 1e9 seconds");
		return -1;
	}
	/* Whole milliseconds only (GNU time resolves 10 ms): a finer
	 * counter would be rounded somewhere, and a rounded figure can
	 * land on the other side of a threshold than the verdict. */
	for (int i = 0; i < 4; i++) {
		if (sc_seconds_to_ms(*nums[i], &ms[i]) < 0) {
			sb_addf(err, "field \"%s\" is not a whole number of milliseconds", num_keys[i]);
			return -1;
		}
	}
	if (ms[0] + ms[1] != ms[2]) {
		sb_adds(err, "cpu_s is not cpu_user_s + cpu_sys_s");
		return -1;
	}
	if (take_task_clock(v, s, ms[2], err) < 0)
		return -1;
	s->max_rss_kib = rss;
	s->exit_status = (int)exit_status;
	return 0;
}

/* An error sample: a known reason and no counters at all. */
static int take_error(yajl_val v, const char *error, struct sc_sample *s, struct strbuf *err)
{
	static const char *const nulls[] = {"cpu_user_s", "cpu_sys_s", "cpu_s", "wall_s",
	                                    "max_rss_kib", "exit_status", NULL};
	yajl_val clock = sc_json_member(v, "task_clock_s");
	if (clock && !YAJL_IS_NULL(clock)) {
		sb_adds(err, "an error sample carries \"task_clock_s\"");
		return -1;
	}
	if (!sc_sample_error_of(error)) {
		sb_adds(err, "an error sample has no known error reason");
		return -1;
	}
	for (const char *const *k = nulls; *k; k++) {
		yajl_val m = sc_json_member(v, *k);
		if (!m || !YAJL_IS_NULL(m)) {
			sb_addf(err, "an error sample carries \"%s\"", *k);
			return -1;
		}
	}
	s->error = sc_sample_error_of(error);
	return 0;
}

int sc_sample_from_json(const char *buf, size_t len, struct sc_sample *s, struct strbuf *err)
{
	memset(s, 0, sizeof *s);
	yajl_val v = sc_json_parse(buf, len, err);
	if (!v)
		return -1;
	const char *error = NULL;
	int rc = take_ids(v, s, &error, err);
	if (rc == 0 && s->ok && error) {
		sb_adds(err, "an ok sample carries an error");
		rc = -1;
	} else if (rc == 0) {
		rc = s->ok ? take_counters(v, s, err) : take_error(v, error, s, err);
	}
	yajl_tree_free(v);
	if (rc < 0)
		sc_sample_free(s);
	return rc;
}

void sc_sample_free(struct sc_sample *s)
{
	free(s->run_id);
	free(s->plan_digest);
	free(s->revision);
	free(s->sample);
	free(s->detail);
	memset(s, 0, sizeof *s);
}
