#ifndef SC_PORCELAIN_STATE_H
#define SC_PORCELAIN_STATE_H
/* One profile run (Documentation/architecture.txt "Shape"): the operator's
 * options and what the run learns on its way (the plan and its digest,
 * the run ID, the toolchain, T's manifest), and the parts each concept
 * owns, each written by its own file: the samples and their binding
 * (samples.h), the progress lines (progress.h), the sandboxed steps, their
 * sealed paths, and what they came to (step.h).  The whole run is the
 * subject of cmd/sc-profile-run.c's sequence and of the report
 * (profile.c) alone: the checks (precheck.c) and the measurement
 * (measure.h: side.c, prebuild.c, attribute.c) take only what they use
 * (Documentation/architecture.txt "State flows forward"). */
#include "contract/attrlist.h"
#include "contract/manifest.h"
#include "contract/plan.h"
#include "porcelain/measure.h"
#include "porcelain/progress.h"
#include "porcelain/samples.h"
#include "porcelain/step.h"
#include "sandbox/inputs.h"
#include "util/argv.h"
#include "util/strbuf.h"

struct sc_run_opts {
	const char *repo, *tooling, *base, *head, *workspace;
	struct sc_argv plan_args; /* sc-plan's own options (--merge-of, --importers,
	                           * --profiler-commit), passed through as given: it checks them */
	struct sc_step_opts sandbox; /* what every sandboxed step is handed (step.h) */
	struct sc_measure_opts measure; /* what shapes the measurement (measure.h) */
	const char *thr_ratio, *thr_delta, *thr_added; /* checked as sc-report checks them */
	/* the shard measured, K of N (measurement.txt "Shards"); 1 of 1 is
	 * the whole plan, the run as it always was */
	unsigned shard_k, shard_n;
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
	char bwrap_sha256[65]; /* a shard's run: the bubblewrap it used */
	struct sc_toolchain_info tc;
	struct sc_manifest manifest; /* T's lake-manifest.json, read once (precheck.c) */
	struct sc_samples samples;   /* bound to the run once the plan is made */
	struct sc_progress progress;
	struct sc_steps steps;  /* every sandboxed step, and what they came to (step.h) */
	int measurement_failed; /* a tree not given back: exit 1 (an error sample is samples') */
	struct sc_attr_list attr; /* --attribute: the attribution runs made */
};

/* Dies with 128+N when signal N interrupted the run (the stages got it). */
void sc_run_stop_if_interrupted(const struct sc_run *r);

#endif
