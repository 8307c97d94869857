/* sc-plan: decide, from Git objects only, which Lean files a profile run
 * measures.  Reads T (tooling), B (base tip) and H (head) of --repo with
 * plumbing, never the working tree or index, never writes the repository,
 * and prints the plan JSON (contract/plan.h, sc-plan(1)) on stdout.  This
 * file owns the options, their checks, the names messages give the
 * revisions (its flags) and the order of the planning's steps
 * (planning/compose.h, on typed values). */
#include "contract/limits.h"
#include "contract/plan.h"
#include "planning/compose.h"
#include "planning/revs.h"
#include "util/decimal.h"
#include "srctree-id.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/options.h"
#include "util/strbuf.h"
#include "version.h"

#include <stdio.h>
#include <string.h>

static const char *const usage[] = {
	"usage: sc-plan --repo DIR --tooling T --base B --head H [--merge-of P] [--importers N]",
	"               [--shards N|auto [--costs REPORT]] [--profiler-commit C]",
	"       sc-plan --version",
	"Print the profiling plan (JSON) for head H against the merge base of B and H,",
	"configured by .sphereceti of commit T.  T, B, H: full commit object IDs.",
	NULL,
};

static void version_lines(void)
{
	printf("source-tree sha1 %s\nsource-tree sha256 %s\n", SC_SRCTREE_SHA1, SC_SRCTREE_SHA256);
	printf("build-commit %s\n", *SC_BUILD_COMMIT ? SC_BUILD_COMMIT : "none");
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-plan");
	sc_check_stdout_at_exit();
	static const char *importers, *shards;
	static struct sc_plan_request rq = {.version = SC_VERSION, .srctree_sha1 = SC_SRCTREE_SHA1,
	                                    .srctree_sha256 = SC_SRCTREE_SHA256,
	                                    .names = {"--tooling", "--base", "--head", "--merge-of"},
	                                    .repo_name = "--repo"};
	static const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "repo", &rq.repo, "DIR", SC_PLAN_HELP_REPO),
		SC_OPT_REQUIRED_STRING(0, "tooling", &rq.tooling, "T", SC_PLAN_HELP_TOOLING),
		SC_OPT_REQUIRED_STRING(0, "base", &rq.base, "B", SC_PLAN_HELP_BASE),
		SC_OPT_REQUIRED_STRING(0, "head", &rq.head, "H", SC_PLAN_HELP_HEAD),
		SC_OPT_STRING(0, "merge-of", &rq.merge_of, "P", SC_PLAN_HELP_MERGE_OF),
		SC_OPT_STRING(0, "importers", &importers, "N", SC_PLAN_HELP_IMPORTERS),
		SC_OPT_STRING(0, "shards", &shards, "N|auto", SC_PLAN_HELP_SHARDS),
		SC_OPT_STRING(0, "costs", &rq.costs, "REPORT", SC_PLAN_HELP_COSTS),
		SC_OPT_STRING(0, "profiler-commit", &rq.profiler_commit, "C", SC_PLAN_HELP_PROFILER_COMMIT),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, version_lines};
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	if (importers && sc_decimal_uint(importers, 0, SC_MAX_IMPORTERS, &rq.importers) < 0)
		sc_die("--importers wants a count from 0 to %d (--importers %s)", SC_MAX_IMPORTERS, importers);
	if (shards && strcmp(shards, "auto") == 0)
		rq.shards_auto = 1;
	else if (shards && sc_decimal_uint(shards, 1, SC_MAX_SHARDS, &rq.shards) < 0)
		sc_die("--shards wants a count from 1 to %d, or auto (--shards %s)", SC_MAX_SHARDS, shards);
	if (rq.costs && !shards)
		sc_die("--costs balances shards: give --shards too (--costs %s)", rq.costs);
	struct strbuf why = STRBUF_INIT;
	if (rq.profiler_commit && sc_profiler_commit_verdict(SC_BUILD_COMMIT, rq.profiler_commit, &why))
		sc_die("%s (--profiler-commit)", why.buf);
	sb_release(&why);
	struct sc_planning *w = sc_planning_start(&rq);
	sc_planning_take_ids(w);
	sc_planning_collect(w);
	sc_planning_check_commits(w);
	sc_planning_check_merge(w);
	sc_planning_check_config(w);
	sc_planning_read_lake(w);
	sc_planning_take_merge_base(w);
	sc_planning_check_lake(w);
	sc_planning_select_changes(w);
	sc_planning_read_modules(w);
	unsigned asked, used = sc_planning_assign_shards(w, &asked);
	/* N runners will each ask for shard K of N: N is exactly what they get */
	if (used < asked && !rq.shards_auto)
		sc_die("the files form %u groups that do not import each other: at most %u shards "
		       "(--shards %s)", used, used, shards);
	sc_planning_check_lean_libs(w);
	sc_planning_print(w);
	/* said once the plan is written, so that a failure stays the one line */
	if (sc_planning_head_in_base(w))
		sc_warning("%s (%s)", SC_HEAD_IN_BASE, rq.names[SC_PLAN_HEAD]);
	sc_planning_free(w);
	return 0;
}
