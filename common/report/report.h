#ifndef SC_REPORT_H
#define SC_REPORT_H
/* The report model: a plan, the samples offered for it, and what they
 * prove.  sc_report_bind() checks every sample against the plan (run ID,
 * plan digest, sample id, revision, duplicates), records each problem, and
 * computes a verdict only for files whose every expected sample is present,
 * accepted and ok.  Writers: report_json.h ("sphereceti.report/1"),
 * report_md.h (report.md, report.txt and the headline), report_files.h
 * (the three files in their order); the attribution's rows: report_attr.h.
 * Documented in sc-report(1). */
#include <stddef.h>
#include "contract/attrlist.h"
#include "contract/plan.h"
#include "report/attribution.h"
#include "contract/sample.h"
#include "util/strbuf.h"
#include "report/verdict.h"

#define SC_REPORT_SCHEMA "sphereceti.report/1"


/* Sample slot of one file on one side. */
enum sc_slot {
	SC_SLOT_UNUSED,   /* the change has no sample on this side */
	SC_SLOT_MISSING,  /* expected, nothing accepted */
	SC_SLOT_OK,       /* an accepted ok sample */
	SC_SLOT_ERROR,    /* an accepted error sample (it says why) */
	SC_SLOT_REJECTED, /* duplicates made it ambiguous */
};

struct sc_sample_in {
	struct sc_sample s;
	char *source; /* "file:line", for messages */
};

struct sc_report_side {
	enum sc_slot state;
	const struct sc_sample_in *in; /* OK / ERROR */
	long long cpu_ms, user_ms, sys_ms, wall_ms;
	/* profile-run --confirm: the repeats offered (by their number), and,
	 * once bound, every ok sample's compared CPU, the first one first:
	 * cpu_ms is then their median (Documentation/measurement.txt
	 * "Confirmation"), first_ms the first sample's own */
	const struct sc_sample_in *rep[SC_MAX_REPEATS + 1];
	long long samples_ms[SC_MAX_REPEATS + 1];
	size_t n_samples, n_rep_failed;
	long long first_ms;
};

/* One side of a file's attribution run (profile-run --attribute): its own
 * figures (no sample's), and Lean's profile summed, or why not. */
struct sc_report_attr_side {
	int ran;         /* a run was recorded for this side */
	int has_figures; /* it ran to its end: cpu_ms, wall_ms hold */
	long long cpu_ms, wall_ms;
	char *note;      /* NULL, or what went wrong, for a person */
	int summed;      /* a: Lean's profile read */
	struct sc_attr a;
};

struct sc_report_file {
	const struct sc_plan_file *f;
	struct sc_report_side side[2]; /* indexed by enum sc_side */
	int compared;
	struct sc_verdict v;
	int confirmed;           /* repeats were offered for it */
	struct sc_verdict first; /* confirmed: the verdict of the first samples alone */
	int disputed;            /* confirmed: a side's first sample lies far beyond its
	                          * repeats' spread (Documentation/measurement.txt
	                          * "Confirmation"); an overturn is then refused */
	int first_kept;          /* disputed, and its first samples judge it */
	int attributed;          /* an attribution run was recorded for it */
	struct sc_report_attr_side attr[2];
};

/* One reason the report is incomplete.  kind: "cross_run",
 * "wrong_plan_digest", "wrong_shard", "unexpected", "wrong_revision", "duplicate",
 * "out_of_range", "sample_error", "missing". */
struct sc_problem {
	char *sample;
	char *source; /* NULL for a missing sample */
	const char *kind;
	char *detail;
};

struct sc_report_env {
	char *platform, *machine;              /* uname (sc_report_env_init) */
	const char *sandbox_user;              /* "UID:GID", NULL when not given */
	const char *lean_version;              /* NULL when not given */
	const char *lean_sha256, *lake_sha256; /* NULL when not given */
	const char *server_url;                /* links: never NULL (default github.com) */
	const char *ci_repository, *ci_run_id; /* the CI run; NULL when not given */
	int lake_cache;                        /* the operator's Lake artifact cache was mounted */
	const char *bwrap_sha256;              /* a shard's report: the bubblewrap it used */
};

/* A runner of a report that merges shards (Documentation/measurement.txt
 * "Shards"): its shard and run ID, its prebuild, and the wall time of its
 * accepted samples (prebuilds and repeats included). */
struct sc_report_runner {
	unsigned shard;
	char *run_id;
	struct sc_report_side prebuild[2];
	size_t n_files;
	long long wall_ms;
};

#define SC_DEFAULT_SERVER_URL "https://github.com"

struct sc_report {
	const struct sc_plan *plan;
	char plan_digest[65];
	char *run_id; /* NULL when neither given nor carried by any sample */
	struct sc_thresholds th;
	struct sc_report_env env;
	struct sc_report_file *files;
	size_t n_files;
	/* Each side's prebuild ("<side>:@prebuild"): UNUSED when the side
	 * measures no file; MISSING when not given (optional: it bears on no
	 * verdict), otherwise bound like any sample. */
	struct sc_report_side prebuild[2];
	struct sc_problem *problems;
	size_t n_problems, alloc_problems;
	size_t n_compared, n_flagged;
	size_t n_ok, n_task_clock; /* accepted ok samples, and those with a task clock */
	int attribution;           /* --attribution given: its section and member are written */
	/* One runner's report: shard K of N (its plan holds shard K's files
	 * alone; every sample must carry K); 0 of 0 unsharded. */
	unsigned shard_k, shard_n;
	/* A report merging the plan's shards: one runner a shard, in shard
	 * order; run_id is then NULL (each runner has its own). */
	struct sc_report_runner *runners;
	size_t n_runners;
	struct sc_sample_in merged_in[2]; /* merged: the runners' prebuilds summed */
};

/* Was every accepted ok sample's CPU also counted on the host's task
 * clock?  1 yes, 0 no (this host has none: rusage alone), -1 when there
 * is no ok sample to tell. */
int sc_report_task_clock(const struct sc_report *r);
/* The run's bounds (the plan's changed files, SC_LIMIT_* of contract/limits.h),
 * stated in every report, appended to OUT;
 * the autoreap limit of rusage unless every sample had the task clock. */
void sc_report_limits_text(const struct sc_report *r, struct strbuf *out);

/* run_id NULL: the first sample offered sets the run ID. */
void sc_report_init(struct sc_report *r, const struct sc_plan *p, const char *plan_digest,
                    const char *run_id, const struct sc_thresholds *t,
                    const struct sc_report_env *env);
/* One runner's report: P (as given to sc_report_init) already holds shard
 * K of N alone (sc_plan_keep_shard). */
void sc_report_set_shard(struct sc_report *r, unsigned k, unsigned n);
/* A report merging every shard of its sharded plan: shard K's samples
 * carry RUN_ID.  Called once a shard, in any order, before binding; the
 * caller has checked that every shard is named once. */
void sc_report_add_runner(struct sc_report *r, unsigned k, const char *run_id);
/* The runner of shard K, or NULL. */
struct sc_report_runner *sc_report_runner(const struct sc_report *r, unsigned k);
/* The samples must outlive r. */
void sc_report_bind(struct sc_report *r, const struct sc_sample_in *in, size_t n);
/* Why a file has no comparison, naming each side that is not ok. */
void sc_report_not_compared_reason(const struct sc_report_file *rf, struct strbuf *out);
/* "ok", "no_changes" or "error". */
const char *sc_report_status(const struct sc_report *r);
void sc_report_free(struct sc_report *r);



#endif
