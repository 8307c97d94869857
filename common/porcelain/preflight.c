/* The preflight and the checks of T's configuration (Documentation/
 * measurement.txt "Measurement", lake-fidelity.txt "Real Lake"): before
 * any candidate code runs in a side's tree, Lake loads its workspace, and
 * T's configuration is asked whether it builds every selected module and
 * finds the prepared dependencies up to date.  Each either holds or ends
 * the run with the line that says what to prepare. */
#include "porcelain/preflight.h"
#include "contract/leanpath.h"
#include "porcelain/order.h"
#include "porcelain/seal.h"
#include "porcelain/stage.h"
#include "porcelain/workspace.h"
#include "sandbox/inputs.h"
#include "sandbox/sandbox_args.h"
#include "util/die.h"
#include "util/fswalk.h"
#include "util/safefile.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Lake loads the workspace read-only before anything is built (Documentation/
 * lake-fidelity.txt "Real Lake": git in every dependency, the lakefile.lean config cache). */
void sc_preflight_side(struct sc_steps *steps, int side, const struct sc_preflight *pf)
{
	const char *cmd[] = {"lake", "env", "true", NULL};
	const char *deps = steps->o->deps;
	struct sc_step st;
	int rc = sc_steps_run(steps, side, &st, "preflight", NULL, pf->timeout, cmd, NULL, 0);
	struct strbuf why = STRBUF_INIT;
	if (rc == 1 && sc_dependency_config_problem(deps, pf->manifest, pf->lean_version, &why))
		sc_stage_die(rc, SC_EXIT_USAGE, "Lake could not load the %s workspace in the sandbox: %s (%s)",
		             sc_side_name(side), why.buf, deps);
	sb_release(&why);
	if (rc != 0) {
		char *hint = sc_step_output_hint(steps, side, "preflight");
		sc_stage_die(rc, SC_EXIT_USAGE,
		             "Lake could not load the %s workspace in the sandbox: likely a dependency not "
		             "prepared in a checkout of T with this toolchain (HEAD not at its manifest rev, a "
		             "missing lakefile.lean config cache) or git refusing its owner; prepare "
		             "the dependencies folder with `lake build` in a trusted checkout of T; %s (%s)",
		             sc_side_name(side), hint, deps);
	}
	struct sc_argv sealed = SC_ARGV_INIT;
	sc_seal_find_config(steps->tree[side], &sealed);
	sc_steps_set_sealed(steps, side, &sealed);
	sc_step_release(&st);
}

/* The selected file whose module Lake's output OUT (LEN bytes) names in a
 * line "error: unknown module `A.B`" (Lake could not resolve the target),
 * or NULL.  CLI/Error.lean CliError.toString: unknownModule is "unknown
 * module `A.B`", logged as "error: ..." (Util/MainM.lean MainM.error);
 * older wording quoted with ' is taken too.  Only a whole line matches. */
static const struct sc_plan_file *unknown_target(const struct sc_plan *p, const char *out,
                                                 size_t len)
{
	static const char prefix[] = "error: unknown module ";
	const char *end = out + len;
	for (const char *line = out; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = (size_t)((nl ? nl : end) - line);
		if (n > sizeof prefix + 1 && memcmp(line, prefix, sizeof prefix - 1) == 0) {
			const char *q = line + sizeof prefix - 1;
			size_t m = n - (sizeof prefix - 1) - 2;
			if ((*q == '`' || *q == '\'') && q[m + 1] == *q)
				for (size_t i = 0; i < p->n_files; i++)
					if (strlen(p->files[i].module) == m &&
					    memcmp(p->files[i].module, q + 1, m) == 0)
						return &p->files[i];
		}
		line = nl ? nl + 1 : end;
	}
	return NULL;
}

/* A selected file that no lean_lib of T's lakefile.lean builds (sc-plan
 * checks a lakefile.toml's itself): Lake resolves every target by name
 * (Config/Workspace.lean findTargetModule?, Config/LeanLib.lean
 * isBuildableModule, never the file) before it checks or builds anything,
 * and an unresolved one is "error: unknown module `A.B`", exit 1
 * (CLI/Build.lean parseTargetSpecs, CLI/Error.lean, CLI/Main.lean).  So
 * one `lake build --no-build` of both sides' targets, in the first side's
 * tree after its preflight (T's configuration, no candidate code: nothing
 * is elaborated), names such a module before any prebuild.  Its output is
 * read for that one line only, and only when Lake exited 1; anything else
 * (out of date: 3, a module's broken header: 1 without that line) is the
 * prebuild's to report.  Both sides load T's configuration: one call. */
static void check_targets_known(struct sc_steps *steps, int side, const struct sc_preflight *pf)
{
	if (!pf->plan->lake_blobs[SC_LAKE_LEAN])
		return;
	struct sc_argv cmd = SC_ARGV_INIT;
	sc_argv_push(&cmd, "lake");
	sc_argv_push(&cmd, "build");
	sc_argv_push(&cmd, "--no-build");
	sc_order_push_targets(pf->plan, NULL, 0, &cmd);
	const char *name = "lake-targets";
	char *log = steps->o->keep_logs ? sc_step_log_path(steps, side, name)
	                           : sc_workspace_raw(steps->ws, sc_side_name(side), name, "log");
	struct sc_step st;
	int rc = sc_steps_run(steps, side, &st, name, "check of the selected modules", pf->timeout,
	                     (const char *const *)cmd.v, log, 0);
	if (rc != 0 && rc != 1)
		sc_stage_die(rc, SC_EXIT_USAGE, "Lake's check of the selected modules did not run in the "
		             "sandbox (%s)", steps->ws);
	struct strbuf out = STRBUF_INIT;
	const struct sc_plan_file *f = NULL;
	if (rc == 1 && sc_step_exited_with(&st, 1) &&
	    sc_read_file(log, &out, SC_SANDBOX_LOG_MAX + 4096) == 0)
		f = unknown_target(pf->plan, out.buf, out.len);
	if (!steps->o->keep_logs)
		unlink(log);
	sb_release(&out);
	sc_argv_release(&cmd);
	free(log);
	sc_step_release(&st);
	if (f) /* the plan's: still ours; nothing else is left to leak */
		sc_die_policy("no lean_lib of T's configuration builds module %s, so %s "
		              "cannot be measured (Lake: \"unknown module\"): add it to a lean_lib's roots "
		              "or globs, or drop its root from .sphereceti (lakefile.lean at %.12s)",
		              f->module, f->path, pf->plan->tooling);
}

/* sc_fswalk_list's visit: the "+A.B" target of every prepared module
 * (A/B.olean) below a dependency's build/lib/lean, pushed onto CTX. */
static int push_olean_target(const char *rel, const struct stat *st, void *ctx)
{
	size_t n = strlen(rel);
	if (S_ISDIR(st->st_mode) || S_ISLNK(st->st_mode) || n <= 6 ||
	    strcmp(rel + n - 6, ".olean") != 0)
		return 0;
	char *lean = xasprintf("%.*s.lean", (int)(n - 6), rel);
	struct strbuf mod = STRBUF_INIT;
	if (sc_lean_module_of(lean, &mod) == 0)
		sc_argv_push_owned(ctx, xasprintf("+%s", mod.buf));
	sb_release(&mod);
	free(lean);
	return 0;
}

/* The "+A.B" targets of one dependency's prepared modules, pushed onto CMD. */
static void push_dep_targets(const char *deps, const struct sc_manifest_pkg *p, struct sc_argv *cmd)
{
	char *lib = xasprintf("%s/%s%s%s/.lake/build/lib/lean", deps, p->name, p->subdir ? "/" : "",
	                      p->subdir ? p->subdir : "");
	struct stat st;
	char *where = NULL;
	/* a link in its place is not followed, as no link below it is */
	if (lstat(lib, &st) == 0 && S_ISDIR(st.st_mode) &&
	    sc_fswalk_list(lib, push_olean_target, cmd, &where) != 0)
		sc_die_sys_errno("cannot list dependency \"%s\"'s build (%s)", p->name, where ? where : lib);
	free(lib);
}

/* `lake build --no-build` of the prepared modules of the dependencies
 * FIRST .. FIRST + N: Lake's exit code, 0 when there are none. */
static int deps_up_to_date(struct sc_steps *steps, const struct sc_preflight *pf, int side,
                           size_t first, size_t n, const char *name)
{
	struct sc_argv cmd = SC_ARGV_INIT;
	sc_argv_push(&cmd, "lake");
	sc_argv_push(&cmd, "build");
	sc_argv_push(&cmd, "--no-build");
	size_t fixed = cmd.n;
	for (size_t i = first; i < first + n; i++)
		push_dep_targets(steps->o->deps, &pf->manifest->pkgs[i], &cmd);
	int rc = 0;
	if (cmd.n > fixed) {
		struct sc_step step;
		rc = sc_steps_run(steps, side, &step, name, "check of the prepared dependencies",
		                 pf->timeout, (const char *const *)cmd.v, NULL, 0);
		sc_step_release(&step);
	}
	sc_argv_release(&cmd);
	return rc;
}

/* Lake rebuilds a dependency module whose trace is stale (another Lean
 * githash or toolchain, other options, sources changed since its build)
 * into the dependency's own build folder: read-only here, so the prebuild
 * would fail on it.  Before any candidate code runs, every dependency's
 * prepared modules (its .lake/build oleans) must be up to date:
 * `lake build --no-build` (exit 3 otherwise) on all of them at once, one
 * workspace load (a Mathlib workspace takes seconds to load, and it has
 * eight dependencies); only when that fails, one dependency at a time, so
 * that the error names it.  The dependencies are the same for both sides:
 * checked once. */
static void check_dep_builds(struct sc_steps *steps, int side, const struct sc_preflight *pf)
{
	/* named apart from every "preflight-NAME" */
	int all = deps_up_to_date(steps, pf, side, 0, pf->manifest->n, "dependencies-preflight");
	if (all == 0)
		return;
	for (size_t i = 0; i < pf->manifest->n; i++) {
		const struct sc_manifest_pkg *p = &pf->manifest->pkgs[i];
		char *name = xasprintf("preflight-%s", p->name);
		int rc = deps_up_to_date(steps, pf, side, i, 1, name);
		if (rc != 0) {
			char *hint = sc_step_output_hint(steps, side, name);
			free(name);
			sc_stage_die(rc, SC_EXIT_USAGE,
			             "dependency \"%s\" was not prepared for this toolchain and "
			             "workspace: Lake finds its built modules out of date and would rebuild "
			             "them into the read-only dependencies folder; prepare it with `lake build` "
			             "in a trusted checkout of T with this toolchain (no LEAN_GITHASH or "
			             "option changes); %s (%s/%s)",
			             p->name, hint, steps->o->deps, p->name);
		}
		free(name);
	}
	char *hint = sc_step_output_hint(steps, side, "dependencies-preflight");
	sc_stage_die(all, SC_EXIT_USAGE,
	             "Lake finds the prepared dependencies out of date together, each up to date "
	             "alone; prepare them with `lake build` in a trusted checkout of T with this "
	             "toolchain; %s (%s)", hint, steps->o->deps);
}

void sc_preflight_check_config(struct sc_steps *steps, int side, const struct sc_preflight *pf)
{
	check_targets_known(steps, side, pf);
	check_dep_builds(steps, side, pf);
}
