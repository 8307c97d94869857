#ifndef SC_PORCELAIN_STATE_H
#define SC_PORCELAIN_STATE_H
/* One profile run (Documentation/architecture.txt "Shape"): the operator's
 * options and what the run learns on its way (the plan and its digest,
 * the run ID, the toolchain, T's manifest) and the parts each concept
 * owns, each written by its own file: the samples and their binding
 * (samples.h), the progress lines (progress.h), the sandboxed steps, their
 * sealed paths, and what they came to (step.h).  cmd/sc-profile-run.c
 * sequences the phases; precheck.c holds the checks before the workspace,
 * side.c one side's steps, prebuild.c its prebuild's layers, seal.c what
 * candidate code may touch, workspace.c the workspace and its disk
 * reserve. */
#include "contract/attrlist.h"
#include "contract/plan.h"
#include "contract/sample.h"
#include "contract/manifest.h"
#include "porcelain/progress.h"
#include "porcelain/samples.h"
#include "porcelain/step.h"
#include "report/verdict.h"
#include "sandbox/inputs.h"
#include "util/argv.h"
#include "util/strbuf.h"

struct sc_run_opts {
	const char *repo, *tooling, *base, *head, *workspace;
	const char *merge_of; /* passed to sc-plan when given */
	const char *importers; /* passed to sc-plan as given (it checks it) */
	const char *profiler_commit; /* passed to sc-plan as given (it checks it) */
	struct sc_step_opts sandbox; /* what every sandboxed step is handed (step.h) */
	double prebuild_timeout, sample_timeout, phase_timeout;
	const char *thr_ratio, *thr_delta, *thr_added; /* checked as sc-report checks them */
	struct sc_display display; /* how the report will show figures: progress lines too */
	struct sc_thresholds th;   /* as the report will judge: which files --confirm repeats */
	unsigned confirm;          /* --confirm N: repeats of a file near a threshold (0-4) */
	int attribute;             /* --attribute: Lean's profile of each flagged file */
	int quiet;
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
	struct sc_steps steps;  /* every sandboxed step, and what they came to (step.h) */
	int measurement_failed; /* a tree not given back: exit 1 (an error sample is samples') */
	int deps_checked;       /* the dependencies' prepared builds were found up to date */
	struct sc_attr_list attr; /* --attribute: the attribution runs made */
};

/* An ok sample's "C s CPU, W s wall" as the report shows them: the
 * compared CPU truncated at the report's decimals, the wall in tenths
 * (one figure everywhere). */
void sc_run_sample_figures(const struct sc_display *d, const struct sc_sample *s,
                           struct strbuf *out);
/* Dies with 128+N when signal N interrupted the run (the stages got it). */
void sc_run_stop_if_interrupted(const struct sc_run *r);
/* S recorded (porcelain/samples.h), unless the run was interrupted
 * meanwhile (then it dies as sc_run_stop_if_interrupted).  Returns S->ok. */
int sc_run_record(struct sc_run *r, struct sc_sample *s);

#endif
