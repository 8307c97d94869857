#ifndef SC_PORCELAIN_STATE_H
#define SC_PORCELAIN_STATE_H
/* One profile run (Documentation/architecture.txt "Shape"): the operator's
 * options and what the run learns on its way (the plan and its digest,
 * the run ID, the toolchain, T's manifest) and the parts each concept
 * owns: the samples and their binding (samples.h), the progress lines
 * (progress.h), the sealed paths (seal.h).  cmd/sc-profile-run.c
 * sequences the phases; precheck.c holds the checks before the workspace, side.c one
 * side's steps, prebuild.c its prebuild's layers, step.c one sandboxed
 * step and the full-disk policy,
 * workspace.c the workspace and its disk reserve. */
#include "contract/attrlist.h"
#include "contract/plan.h"
#include "contract/sample.h"
#include "contract/manifest.h"
#include "porcelain/progress.h"
#include "porcelain/samples.h"
#include "report/verdict.h"
#include "sandbox/inputs.h"
#include "util/argv.h"
#include "util/strbuf.h"

struct sc_run_opts {
	const char *repo, *tooling, *base, *head, *workspace, *toolchain, *deps, *bwrap;
	const char *merge_of; /* passed to sc-plan when given */
	const char *importers; /* passed to sc-plan as given (it checks it) */
	const char *profiler_commit; /* passed to sc-plan as given (it checks it) */
	const char *tmp_size;     /* validated; passed on as given */
	const char *lake_cache;   /* --cache: the operator's Lake artifact cache, or NULL */
	const char *max_procs;    /* validated; passed on as given */
	const char *sandbox_user; /* "UID:GID", resolved (by default one of the run's own, held
	                           * for the whole run: both sides, every sandbox) */
	unsigned sandbox_uid, sandbox_gid;
	double prebuild_timeout, sample_timeout, phase_timeout;
	double progress_every; /* seconds between "still running" lines */
	const char *thr_ratio, *thr_delta, *thr_added; /* checked as sc-report checks them */
	struct sc_display display; /* how the report will show figures: progress lines too */
	struct sc_thresholds th;   /* as the report will judge: which files --confirm repeats */
	unsigned confirm;          /* --confirm N: repeats of a file near a threshold (0-4) */
	int attribute;             /* --attribute: Lean's profile of each flagged file */
	int quiet;
	int keep_logs; /* candidate output into WS/logs/, bounded */
	const char *keep_logs_hint; /* without keep_logs: how the operator keeps it */
	/* From GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID (NULL when
	 * unset or empty), checked as sc-report checks them, passed to it. */
	const char *server_url, *ci_repository, *ci_run_id;
};

struct sc_run {
	struct sc_run_opts o;
	const char *dir; /* exec dir: where the stages live */
	char *ws;  /* absolute workspace path, once claimed */
	struct sc_plan plan;
	struct strbuf plan_json; /* sc-plan's bytes, written once the workspace exists */
	char digest[65];
	char run_id[SC_RUN_ID_HEXSZ + 1];
	struct sc_toolchain_info tc;
	struct sc_manifest manifest; /* T's lake-manifest.json, read once (precheck.c) */
	struct sc_samples samples;   /* bound to the run once the plan is made */
	struct sc_progress progress;
	struct sc_argv sealed[2]; /* per side: paths below .lake read-only after the preflight */
	int measurement_failed; /* a tree not given back: exit 1 (an error sample is samples') */
	int deps_checked;       /* the dependencies' prepared builds were found up to date */
	int system_failed;      /* a sandbox stage failed as a system: exit 3 */
	int disk_full;          /* a step left the disk full: the rest of the run is disk_full */
	/* per plan file, per side: the compared CPU of its first sample, when
	 * it was ok (what --confirm judges), and of every ok sample (what
	 * --attribute judges) */
	struct sc_first_cpu {
		long long ms[2];
		unsigned char ok[2];
		long long all[2][SC_MAX_REPEATS + 1];
		unsigned char n[2];
	} *first;
	struct sc_attr_list attr; /* --attribute: the attribution runs made */
};

/* An ok sample's "C s CPU, W s wall" as the report shows them: the
 * compared CPU truncated at the report's decimals, the wall in tenths
 * (one figure everywhere). */
void sc_run_sample_figures(const struct sc_display *d, const struct sc_sample *s,
                           struct strbuf *out);
/* Dies with 128+N when signal N interrupted the run (the stages got it). */
void sc_run_stop_if_interrupted(const struct sc_run *r);
/* The operator's bubblewrap, when named, for every sandbox-exec call; with
 * SANDBOX, the sandbox user, /tmp size and process bound for a call that
 * starts one. */
void sc_run_push_bwrap(const struct sc_run *r, struct sc_argv *a, int sandbox);
/* The side's tree in the workspace (allocated). */
char *sc_run_tree(const struct sc_run *r, int side);

/* Where --keep-logs keeps one sandboxed invocation's output:
 * WS/logs/<side>-<name>.log (allocated). */
char *sc_run_log_path(const struct sc_run *r, int side, const char *name);
/* What a failure line says about Lake's output (allocated). */
char *sc_run_output_hint(const struct sc_run *r, int side, const char *name);

/* S recorded (porcelain/samples.h), unless the run was interrupted
 * meanwhile (then it dies as sc_run_stop_if_interrupted).  Returns S->ok. */
int sc_run_record(struct sc_run *r, struct sc_sample *s);
/* The sample "<side>:<id>" recorded as REASON with DETAIL: nothing
 * measured. */
void sc_run_record_unmeasured(struct sc_run *r, int side, const char *id, const char *reason,
                              const char *detail);

#endif
