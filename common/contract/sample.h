#ifndef SC_SAMPLE_H
#define SC_SAMPLE_H
/* One measurement, bound to its run, plan, revision and sample id.
 * JSON schema "sphereceti.sample/1", one line:
 * {"schema": "sphereceti.sample/1", "run_id": hex32, "plan_digest": hex64,
 *  "revision": oid, "sample": "base:A.B" | "head:A.B", "ok": bool,
 *  "cpu_user_s": n|null, "cpu_sys_s": n|null, "cpu_s": n|null,
 *  "wall_s": n|null, "max_rss_kib": int|null, "exit_status": int|null,
 *  "task_clock_s": n|null,
 *  "error": null | "prebuild_failed" | "prebuild_timeout" |
 *           "source_changed" | "deadline_exceeded" | "timeout" |
 *           "failed" | "invalid_counters" | "missing_counters" |
 *           "status_mismatch" | "sandbox_failed" | "cpu_hidden" | "disk_full" |
 *           "imports_unreadable" | "order_violated",
 *  "detail": null | "human-readable reason"[, "repeat": k][, "shard": k]}
 * "repeat" (1 to SC_MAX_REPEATS) marks the k-th repeat of a file's sample
 * on its side (profile-run --confirm): absent on the first sample, so that
 * a run without repeats writes what it always wrote.  "shard" (1 to
 * SC_MAX_SHARDS) binds the sample to the plan's shard its run measured
 * (Documentation/measurement.txt "Shards"): absent from an unsharded run.
 * An ok sample has every number but task_clock_s (null where the host has
 * no perf counter; read as null when absent) and error null; an error
 * sample has no numbers (partial data never leaves this model).  Counters
 * are whole milliseconds; an ok sample's task_clock_s agrees with cpu_s
 * (sc_cpu_agrees).  "<side>:@prebuild" is the side's prebuild ('@' is in
 * no module name, so it names no file).  detail is at most
 * SC_SAMPLE_DETAIL_MAX bytes: a longer one is cut at a UTF-8 boundary and
 * ends in SC_SAMPLE_DETAIL_CUT.
 */
#include <stddef.h>
#include "contract/limits.h"
#include "util/strbuf.h"

#define SC_SAMPLE_SCHEMA "sphereceti.sample/1"
#define SC_RUN_ID_HEXSZ 32
#define SC_SAMPLE_DETAIL_MAX 1024
/* profile-run --confirm: at most this many repeats of a file's sample. */
#define SC_MAX_REPEATS 4
#define SC_SAMPLE_DETAIL_CUT " [cut]"
/* Upper bound on any time we accept (about 31 years): keeps the products
 * below overflow and rejects absurd counters. */
#define SC_MAX_MS 1000000000000LL

/* The inherited task clock (all the CPU of every descendant) and GNU
 * time's rusage (user + sys, which misses autoreaped children) of one run
 * may differ by this much, SC_CPU_TOLERANCE_MS plus SC_CPU_TOLERANCE_PCT
 * percent of the larger, before CPU counts as hidden.  The clock also
 * counts GNU time itself and its exec (about a millisecond), and GNU time
 * truncates user and sys to 10 ms each. */
#define SC_CPU_TOLERANCE_MS 50
#define SC_CPU_TOLERANCE_PCT 5

/* Why a sample has no counters: the names in the schema above, in one
 * table (sample.c); 0 is an ok sample. */
enum sc_sample_error {
	SC_SAMPLE_OK = 0,
	SC_ERR_PREBUILD_FAILED,
	SC_ERR_PREBUILD_TIMEOUT,
	SC_ERR_SOURCE_CHANGED,
	SC_ERR_DEADLINE_EXCEEDED,
	SC_ERR_TIMEOUT,
	SC_ERR_FAILED,
	SC_ERR_INVALID_COUNTERS,
	SC_ERR_MISSING_COUNTERS,
	SC_ERR_STATUS_MISMATCH,
	SC_ERR_SANDBOX_FAILED,
	SC_ERR_CPU_HIDDEN,
	SC_ERR_DISK_FULL,
	SC_ERR_IMPORTS_UNREADABLE,
	SC_ERR_ORDER_VIOLATED,
};
/* The schema's name of E ("" for SC_SAMPLE_OK). */
const char *sc_sample_error_name(enum sc_sample_error e);
/* The error NAME names, or SC_SAMPLE_OK when it names none. */
enum sc_sample_error sc_sample_error_of(const char *name);

struct sc_sample {
	char *run_id;
	char *plan_digest;
	char *revision;
	char *sample; /* "<side>:<file id>" */
	int ok;
	double cpu_user_s, cpu_sys_s, cpu_s, wall_s;
	long long max_rss_kib;
	int exit_status;
	enum sc_sample_error error; /* SC_SAMPLE_OK when ok */
	char *detail; /* NULL or a reason for a person */
	int has_task_clock; /* task_clock_s counted (ok samples only) */
	double task_clock_s;
	unsigned repeat;    /* 0: the first sample; k: its k-th repeat */
	unsigned shard;     /* 0: an unsharded run; k: the plan's shard k */
};

/* Seconds (finite, >= 0, <= SC_MAX_MS/1000) that are a whole number of
 * milliseconds, as GNU time and sc-parse-time write them, to milliseconds;
 * returns 0, or -1 for anything else.  Only the double's own error is
 * absorbed: 60.0005 is refused rather than rounded, so no figure is rounded
 * on the way in and the verdict and the display start from one number. */
int sc_seconds_to_ms(double s, long long *ms);
/* The CPU an ok sample is compared by, in milliseconds: the larger of
 * rusage and the task clock (Documentation/measurement.txt "Sealed
 * measurement"): work moved into an autoreaped child escapes rusage, and
 * staying inside the cross-check's tolerance must gain a candidate
 * nothing.  Returns 0, or -1 when a counter is no whole millisecond. */
int sc_sample_compared_ms(const struct sc_sample *s, long long *ms);
/* The statistic a side's samples of one file are judged by
 * (Documentation/measurement.txt "Confirmation"): their median, the lower
 * middle of an even count, so never a figure no sample had.  N >= 1, at
 * most SC_MAX_REPEATS + 1. */
long long sc_sample_median_ms(const long long *ms, size_t n);
/* Do rusage (user + sys) and the task clock of one run agree within the
 * tolerance above?  Whole milliseconds. */
int sc_cpu_agrees(long long rusage_ms, long long clock_ms);
/* S's detail cut as sc_sample_to_json writes it (SC_SAMPLE_DETAIL_MAX). */
void sc_sample_bound(struct sc_sample *s);
void sc_sample_to_json(const struct sc_sample *s, struct strbuf *out);
int sc_sample_from_json(const char *buf, size_t len, struct sc_sample *s, struct strbuf *err);
void sc_sample_free(struct sc_sample *s);

/* "base:A.B" -> side and id (pointer into s); returns 0 or -1. */
int sc_sample_id_split(const char *sample, int *side, const char **id);
#define SC_PREBUILD_ID "@prebuild"
/* "base:@prebuild" / "head:@prebuild" -> the side; anything else -> -1. */
int sc_sample_prebuild_side(const char *sample);
/* The side of a file sample or a prebuild sample; -1 when it is neither. */
int sc_sample_side(const char *sample);

#endif
