/* report.md: GitHub-flavoured markdown for people, read top-down: what got
 * slower first, then per section the flagged files, the rest by CPU delta.
 * Every string that did not come from this program (paths, sample details,
 * file names, uname, the Lean version) goes through mdescape; object IDs
 * and digests are validated hex and sample ids validated module names: they
 * go into code spans as they are; links are built from the validated server
 * URL, the checked profile.github slug and plan paths only.  Cells hold numbers only, units are in
 * the headers (a unit never wraps away from its number), and paths may wrap
 * at their '/' so the figures stay on screen at GitHub's content width.
 * CPU figures, ratios and deltas are truncated (common/verdict) so no shown
 * figure contradicts its verdict. */
#include "report/headline.h"
#include "report/mdescape.h"
#include "report/report_md.h"
#include "report/report_attr.h"
#include "report/report.h"
#include "report/view.h"
#include "util/die.h"
#include "util/milli.h"

#include <stdlib.h>
#include <string.h>

/* Links go to SERVER/<profile.github>/...: the server URL was validated
 * (report_args), the slug is checked here because the plan reader does not
 * check it (sc-plan does): a hand-made plan with anything else gets plain
 * labels rather than a crafted URL.  NULL: no links. */
static const char *repo_slug(const struct sc_report *r)
{
	const char *gh = r->plan->github;
	return gh && sc_is_github_slug(gh) ? gh : NULL;
}

/* Opens a link to the file at SHA ("[" now, "](URL)" from link_close), or
 * nothing; returns whether it opened one.  Plan paths are Lean module paths
 * (the plan reader refuses anything else): they go into a URL as they are. */
static int blob_link_open(struct strbuf *md, const struct sc_report_view *c, const char *sha)
{
	if (!c->markdown || !repo_slug(c->r) || !sha)
		return 0;
	sb_adds(md, "[");
	return 1;
}

static void blob_link_close(struct strbuf *md, const struct sc_report_view *c, int open, const char *sha,
                            const char *p)
{
	if (open)
		sb_addf(md, "](%s/%s/blob/%s/%s)", c->r->env.server_url, repo_slug(c->r), sha, p);
}

/* A merge made where the run ran (plan "merge_of") has no page on the
 * hosting site: it is named, never linked. */
static int is_local_merge(const struct sc_plan *p, const char *sha)
{
	return p->merge_of && strcmp(sha, p->head) == 0;
}

/* Where a head-side file is linked: the head, or for a merge the pull
 * request's head whose change it measures. */
static const char *head_link_rev(const struct sc_plan *p)
{
	return p->merge_of ? p->merge_of : p->head;
}

static void rev_label(struct strbuf *md, const struct sc_report *r, const char *sha)
{
	if (repo_slug(r) && !is_local_merge(r->plan, sha))
		sb_addf(md, "[`%.7s`](%s/%s/commit/%s)", sha, r->env.server_url, repo_slug(r), sha);
	else
		sb_addf(md, "`%.7s`", sha);
}

/* The title names the two measured revisions, linked to their comparison. */
static void compare_link(struct strbuf *md, const struct sc_report *r, const char *from,
                         const char *to)
{
	if (repo_slug(r))
		sb_addf(md, "[`%.7s…%.7s`](%s/%s/compare/%s...%s)", from, to, r->env.server_url,
		        repo_slug(r), from, to);
	else
		sb_addf(md, "`%.7s…%.7s`", from, to);
}

static void title(struct strbuf *md, const struct sc_report *r)
{
	const struct sc_plan *p = r->plan;
	sb_adds(md, "# sphereceti profile: ");
	if (p->merge_of) {
		/* base_tip...merge_of on the site is the pull request's own diff. */
		compare_link(md, r, p->base_tip, p->merge_of);
		sb_adds(md, " (base tip … the merge of the pull request's head into it)\n\n");
		return;
	}
	compare_link(md, r, p->merge_base, p->head);
	sb_adds(md, " (merge base … head)\n\n");
}

static void rule(struct strbuf *md, const struct sc_thresholds *t)
{
	struct strbuf ratio = STRBUF_INIT, delta = STRBUF_INIT, added = STRBUF_INIT;
	sc_format_milli(t->ratio_milli, &ratio);
	sc_format_milli(t->delta_ms, &delta);
	sc_format_milli(t->added_ms, &added);
	sb_addf(md, "Rule: a modified file is flagged when its head CPU is ≥ %s× base **and** "
	            "≥ +%s s; an added file when its head CPU is ≥ %s s; removed files are "
	            "listed, never flagged. Figures are truncated, never rounded up, so each "
	            "sits on the same side of its threshold as the exact value.",
	        ratio.buf, delta.buf, added.buf);
	if (!sc_thresholds_are_default(t))
		sb_adds(md, " **Non-default thresholds** (set on the command line; TauCeti's are "
		            "1.5×, +30 s and 150 s).");
	sb_adds(md, "\n\n");
	sb_release(&ratio);
	sb_release(&delta);
	sb_release(&added);
}

static void revisions(struct strbuf *md, const struct sc_report *r)
{
	const struct sc_plan *p = r->plan;
	const char *names[] = {"base (merge base)", "head", "base tip", "tooling",
	                       "pull request head"};
	const char *shas[] = {p->merge_base, p->head, p->base_tip, p->tooling, p->merge_of};
	if (p->merge_of)
		names[1] = "head (merge of the pull request head into the base tip, made for this run)";
	sb_adds(md, "| side | revision | full ID |\n|:--|:--|:--|\n");
	for (int i = 0; i < 5 && shas[i]; i++) {
		sb_addf(md, "| %s | ", names[i]);
		rev_label(md, r, shas[i]);
		sb_addf(md, " | `%s` |\n", shas[i]);
	}
	/* A commit of sphereceti's own repository: never linked into this one. */
	if (p->profiler_commit)
		sb_addf(md, "| profiler (sphereceti, pinned) | `%.7s` | `%s` |\n", p->profiler_commit,
		        p->profiler_commit);
	sb_adds(md, "\n");
}

static void row(struct strbuf *md, const struct sc_report_view *c, const struct sc_report_file *rf)
{
	const struct sc_report_side *base = &rf->side[SC_SIDE_BASE], *head = &rf->side[SC_SIDE_HEAD];
	int modified = rf->f->change == SC_CHANGE_MODIFIED || rf->f->change == SC_CHANGE_IMPORTER;
	const struct sc_plan *p = c->r->plan;
	/* The path links to the file as measured: at the head, a removed file
	 * at the merge base; a modified file's base figure links to it there. */
	const char *at = rf->f->change == SC_CHANGE_REMOVED ? p->merge_base : head_link_rev(p);
	sb_adds(md, "| ");
	int open = blob_link_open(md, c, at);
	sc_view_path(md, c, rf->f->path, 1);
	blob_link_close(md, c, open, at, rf->f->path);
	sb_addf(md, " | %s | ", sc_change_name(rf->f->change));
	open = modified && base->state == SC_SLOT_OK &&
	       blob_link_open(md, c, p->merge_base);
	sc_view_slot_cell(md, c, base, SC_FIG_CPU);
	blob_link_close(md, c, open, p->merge_base, rf->f->path);
	sb_adds(md, " | ");
	sc_view_slot_cell(md, c, head, SC_FIG_CPU);
	sb_adds(md, " | ");
	sc_view_ratio(md, c, rf);
	sb_adds(md, " | ");
	if (rf->compared)
		sc_view_signed_cpu(md, c, sc_view_delta(rf));
	else
		sb_adds(md, "—");
	sb_adds(md, " | ");
	if (rf->compared && modified && base->cpu_ms > 0) {
		sc_format_pct_floor(head->cpu_ms, base->cpu_ms, md);
		sb_adds(md, "%");
	} else {
		sb_adds(md, "—");
	}
	sb_adds(md, " | ");
	sc_view_verdict_cell(md, c, rf);
	sb_adds(md, " |\n");
}

/* Sums over the compared files of the section. */
static void totals(struct strbuf *md, const struct sc_report_view *c, const size_t *idx, size_t n)
{
	long long base = 0, head = 0;
	size_t compared = 0, flagged = 0;
	for (size_t k = 0; k < n; k++) {
		const struct sc_report_file *rf = &c->r->files[idx[k]];
		if (!rf->compared)
			continue;
		compared++;
		flagged += (size_t)rf->v.flagged;
		base += rf->side[SC_SIDE_BASE].state == SC_SLOT_OK ? rf->side[SC_SIDE_BASE].cpu_ms : 0;
		head += rf->side[SC_SIDE_HEAD].state == SC_SLOT_OK ? rf->side[SC_SIDE_HEAD].cpu_ms : 0;
	}
	sb_addf(md, "| **total** | %zu compared | ", compared);
	sc_view_cpu(md, c, base);
	sb_adds(md, " | ");
	sc_view_cpu(md, c, head);
	sb_adds(md, " | — | ");
	sc_view_signed_cpu(md, c, head - base);
	sb_adds(md, " | ");
	if (base > 0) {
		sc_format_pct_floor(head, base, md);
		sb_adds(md, "%");
	} else {
		sb_adds(md, "—");
	}
	sb_addf(md, " | %zu flagged", flagged);
	if (compared < n)
		sb_addf(md, ", %zu not compared", n - compared);
	sb_adds(md, " |\n");
}

static void section(struct strbuf *md, const struct sc_report_view *c, enum sc_role role, const char *title)
{
	const struct sc_report *r = c->r;
	size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
	size_t n = sc_view_order(r, (int)role, idx);
	if (!n) {
		free(idx);
		return;
	}
	sb_addf(md, "## %s\n\n", title);
	sb_adds(md, "| file | change | base CPU (s) | head CPU (s) | ratio | Δ CPU (s) | Δ % | "
	            "verdict |\n|:--|:--|--:|--:|--:|--:|--:|:--|\n");
	for (size_t k = 0; k < n; k++)
		row(md, c, &r->files[idx[k]]);
	totals(md, c, idx, n);
	sb_adds(md, "\n");
	free(idx);
}

/* The unchanged files that import a changed one (plan --importers):
 * judged as modified files, in a section of their own, each with what it
 * imports, and how many qualified. */
static void importers(struct strbuf *md, const struct sc_report_view *c)
{
	const struct sc_report *r = c->r;
	const struct sc_plan *p = r->plan;
	if (!p->importers_limit)
		return;
	size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
	size_t n = sc_view_order(r, SC_VIEW_IMPORTERS, idx);
	sb_adds(md, "## Unchanged files that import a changed file\n\n");
	sb_addf(md, "%zu qualified (unchanged library or roadmap files that import a modified or "
	            "added one at the head), %zu measured (at most %u), judged as modified "
	            "files.\n\n",
	        p->importers_qualified, n, p->importers_limit);
	if (n) {
		sb_adds(md, "| file | change | base CPU (s) | head CPU (s) | ratio | Δ CPU (s) | Δ % | "
		            "verdict |\n|:--|:--|--:|--:|--:|--:|--:|:--|\n");
		for (size_t k = 0; k < n; k++)
			row(md, c, &r->files[idx[k]]);
		sb_adds(md, "\n");
		for (size_t k = 0; k < n; k++) {
			const struct sc_plan_file *f = r->files[idx[k]].f;
			sb_adds(md, "- ");
			sc_view_path(md, c, f->path, 0);
			sb_adds(md, " imports");
			for (size_t i = 0; i < f->n_imports; i++)
				sb_addf(md, "%s `%s`", i ? "," : "", f->imports[i]); /* module names of the plan */
			sb_adds(md, "\n");
		}
		sb_adds(md, "\n");
	}
	free(idx);
	for (size_t i = 0; i < p->n_importers_unreadable; i++) {
		if (i == 0)
			sb_adds(md, "Headers that could not be read (their files were not considered):\n\n");
		sb_adds(md, "- ");
		sc_md_escape(p->importers_unreadable[i], md);
		sb_adds(md, "\n");
	}
	if (p->n_importers_unreadable)
		sb_adds(md, "\n");
}

/* Wall time and peak memory of every sample, and each side's prebuild. */
static void resources(struct strbuf *md, const struct sc_report_view *c)
{
	const struct sc_report *r = c->r;
	if (!r->n_files)
		return;
	sb_adds(md, "## Wall time and peak memory\n\n| file | base wall (s) | head wall (s) | "
	            "base max RSS (MiB) | head max RSS (MiB) |\n|:--|--:|--:|--:|--:|\n");
	const enum sc_role roles[] = {SC_ROLE_LIBRARY, SC_ROLE_ROADMAP};
	for (int k = 0; k < 2; k++) {
		size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
		size_t n = sc_view_order(r, (int)roles[k], idx);
		for (size_t i = 0; i < n; i++) {
			const struct sc_report_file *rf = &r->files[idx[i]];
			sb_adds(md, "| ");
			sc_view_path(md, c, rf->f->path, 1);
			const enum sc_view_figure figs[] = {SC_FIG_WALL, SC_FIG_WALL, SC_FIG_RSS, SC_FIG_RSS};
			for (int f = 0; f < 4; f++) {
				sb_adds(md, " | ");
				sc_view_slot_cell(md, c, &rf->side[f % 2], figs[f]);
			}
			sb_adds(md, " |\n");
		}
		free(idx);
	}
	sb_adds(md, "\nPrebuild (each side's import cones, before its samples; not compared):\n\n"
	            "| side | CPU (s) | wall (s) | max RSS (MiB) |\n|:--|--:|--:|--:|\n");
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		const struct sc_report_side *sd = &r->prebuild[side];
		sb_addf(md, "| %s | ", sc_side_name(side));
		if (sd->state == SC_SLOT_MISSING)
			sb_adds(md, "not recorded");
		else if (sd->state == SC_SLOT_UNUSED)
			sb_adds(md, "not run (no file)");
		else
			sc_view_slot_cell(md, c, sd, SC_FIG_CPU);
		sb_adds(md, " | ");
		sc_view_slot_cell(md, c, sd, SC_FIG_WALL);
		sb_adds(md, " | ");
		sc_view_slot_cell(md, c, sd, SC_FIG_RSS);
		sb_adds(md, " |\n");
	}
	sb_adds(md, "\n");
}

/* A shard's report says so; a merged one lists its runners
 * (Documentation/measurement.txt "Shards"). */
static void runners(struct strbuf *md, const struct sc_report_view *c)
{
	const struct sc_report *r = c->r;
	if (r->shard_n > 1)
		sb_addf(md, "This is shard %u of %u: the files sc-plan dealt to this runner alone; "
		            "`sphereceti merge` joins the shards' workspaces into one report.\n\n",
		        r->shard_k, r->shard_n);
	if (!r->n_runners)
		return;
	sb_addf(md, "## Runners\n\n%zu runners measured this change, each the files dealt to it, both "
	            "sides by turns: every comparison above is between two samples of one runner.\n\n"
	            "| runner | files | base prebuild CPU (s) | head prebuild CPU (s) | wall (s) |\n"
	            "|--:|:--|--:|--:|--:|\n", r->n_runners);
	for (size_t i = 0; i < r->n_runners; i++) {
		const struct sc_report_runner *rn = &r->runners[i];
		sb_addf(md, "| %u | ", rn->shard);
		const char *sep = "";
		for (size_t k = 0; k < r->n_files; k++)
			if (r->files[k].f->shard == rn->shard) {
				sb_adds(md, sep);
				sc_view_path(md, c, r->files[k].f->path, 0);
				sep = ", ";
			}
		for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
			sb_adds(md, " | ");
			sc_view_slot_cell(md, c, &rn->prebuild[side], SC_FIG_CPU);
		}
		sb_adds(md, " | ");
		sc_view_wall(md, rn->wall_ms);
		sb_adds(md, " |\n");
	}
	sb_adds(md, "\n");
}

static void problems(struct strbuf *md, const struct sc_report *r)
{
	if (!r->n_problems)
		return;
	sb_adds(md, "## Problems\n\n");
	for (size_t i = 0; i < r->n_problems; i++) {
		const struct sc_problem *p = &r->problems[i];
		/* Sample ids passed sc_sample_side: "base|head:" + a module name
		 * or "@prebuild". */
		sb_addf(md, "- `%s`", p->sample);
		if (p->source) {
			sb_adds(md, " (");
			sc_md_escape(p->source, md);
			sb_adds(md, ")");
		}
		sb_addf(md, " — %s: ", p->kind);
		sc_md_escape(p->detail, md);
		sb_adds(md, "\n");
	}
	sb_adds(md, "\n");
}

static void environment(struct strbuf *md, const struct sc_report *r)
{
	const struct sc_report_env *e = &r->env;
	sb_adds(md, "## Environment\n\n- CI run: ");
	if (e->ci_run_id) /* validated: a slug and digits */
		sb_addf(md, "[%s run %s](%s/%s/actions/runs/%s)", e->ci_repository, e->ci_run_id,
		        e->server_url, e->ci_repository, e->ci_run_id);
	else
		sb_adds(md, "not recorded");
	sb_adds(md, "\n- Run ID: ");
	if (r->run_id)
		sb_addf(md, "`%s`", r->run_id);
	else
		sb_adds(md, r->n_runners ? "one a runner (Runners)" : "none (no samples)");
	sb_addf(md, "\n- Plan digest (SHA-256 of plan.json): `%s`", r->plan_digest);
	sb_adds(md, "\n- Platform: ");
	sc_md_escape(e->platform, md);
	sb_adds(md, " (");
	sc_md_escape(e->machine, md);
	sb_adds(md, ")\n- Sandbox user: ");
	if (e->sandbox_user)
		sb_addf(md, "`%s` (uid:gid)", e->sandbox_user); /* validated digits:digits */
	else
		sb_adds(md, "not recorded");
	sb_adds(md, "\n- Lean: ");
	if (e->lean_version)
		sc_md_code(e->lean_version, md);
	else
		sb_adds(md, "not recorded");
	const char *names[] = {"bin/lean", "bin/lake"};
	const char *hashes[] = {e->lean_sha256, e->lake_sha256};
	for (int i = 0; i < 2; i++) {
		sb_addf(md, "\n- `%s` SHA-256: ", names[i]);
		if (hashes[i])
			sb_addf(md, "`%s`", hashes[i]);
		else
			sb_adds(md, "not recorded");
	}
	if (e->bwrap_sha256)
		sb_addf(md, "\n- bubblewrap SHA-256: `%s`", e->bwrap_sha256); /* validated hex */
	sb_adds(md, "\n- Dependencies: operator prepared\n- Lake artifact cache: ");
	sb_adds(md, e->lake_cache ? "operator prepared, read-only (prebuilds restore from it; samples "
	                            "elaborate their file)\n" : "none\n");
	sb_adds(md, "- CPU counter: ");
	int task_clock = sc_report_task_clock(r);
	sb_adds(md, task_clock == 1   ? "GNU time's rusage, checked against the host's perf task clock "
	                                "(the larger of the two is compared)"
	            : task_clock == 0 ? "GNU time's rusage only (this host gave no perf task clock: "
	                                "perf_event_open unavailable)"
	                              : "not recorded (no measured sample)");
	sb_adds(md, "\n\n");
}

/* Milliseconds of Lean's profile as seconds, "—" where a side has none. */
static void profile_s(struct strbuf *md, double ms, int on)
{
	if (on)
		sb_addf(md, "%.2f", ms / 1000);
	else
		sb_adds(md, "—");
}

/* One side's attribution run: its own CPU (no sample) or what went wrong. */
static void attr_run_line(struct strbuf *md, const struct sc_report_file *rf, int side)
{
	const struct sc_report_attr_side *sd = &rf->attr[side];
	if (!sd->ran)
		return;
	sb_addf(md, "- %s run: ", sc_side_name(side));
	if (sd->has_figures)
		sb_addf(md, "%.2f s CPU, %.1f s wall (Lean's profiler on; not a sample)",
		        (double)sd->cpu_ms / 1000, (double)sd->wall_ms / 1000);
	else
		sb_adds(md, "no figures");
	if (sd->note) {
		sb_adds(md, "; ");
		sc_md_escape(sd->note, md);
	}
	sb_adds(md, "\n");
}

static void attr_table(struct strbuf *md, const struct sc_report_file *rf, int cats)
{
	struct sc_report_attr_row *rows;
	size_t n, grown;
	sc_report_attr_rows(rf, cats, &rows, &n, &grown);
	if (!n) {
		free(rows);
		return;
	}
	sb_addf(md, "\n| %s | base (s) | head (s) |%s\n|:--|--:|--:|%s\n", cats ? "category" : "declaration",
	        cats ? "" : " |", cats ? "" : ":--|");
	for (size_t i = 0; i < n; i++) {
		sb_adds(md, "| ");
		sc_md_code(rows[i].name, md);
		sb_adds(md, " | ");
		profile_s(md, rows[i].base_ms, rows[i].on_base);
		sb_adds(md, " | ");
		profile_s(md, rows[i].head_ms, rows[i].on_head);
		if (!cats)
			sb_addf(md, " | %s", !rows[i].on_base ? "new" : !rows[i].on_head ? "removed" : "grew");
		sb_adds(md, " |\n");
	}
	free(rows);
}

/* profile-run --attribute: where each flagged file's time went, by Lean's
 * own account (Documentation/measurement.txt "Attribution"). */
static void attribution(struct strbuf *md, const struct sc_report_view *c)
{
	const struct sc_report *r = c->r;
	if (!r->attribution)
		return;
	sb_adds(md, "## Where the time went (Lean's own profiler)\n\n"
	            "Each flagged file was elaborated once more on each side, in the same sandbox, with "
	            "Lean's profiler on (trace.profiler). These figures are what the candidate's own Lean "
	            "reports: a hostile head can forge them, so they never enter a verdict or a CPU "
	            "figure above. They say where to look, not how much slower the file is.\n");
	size_t n = 0;
	for (size_t i = 0; i < r->n_files; i++) {
		const struct sc_report_file *rf = &r->files[i];
		if (!rf->attributed)
			continue;
		n++;
		sb_adds(md, "\n### ");
		sc_view_path(md, c, rf->f->path, 0);
		sb_adds(md, "\n\n");
		attr_run_line(md, rf, SC_SIDE_BASE);
		attr_run_line(md, rf, SC_SIDE_HEAD);
		attr_table(md, rf, 0);
		attr_table(md, rf, 1);
	}
	if (!n)
		sb_adds(md, "\nNo file was flagged: nothing was attributed.\n");
	sb_adds(md, "\n");
}

/* ---- report.txt: the same figures for a terminal ---- */

void sc_report_to_md(const struct sc_report *r, struct strbuf *md)
{
	struct sc_report_view c = {r, {0, 0}, 1};
	sc_display_init(&r->th, &c.d);
	title(md, r);
	sc_view_headline(md, &c);
	sb_adds(md, "\n\n");
	sc_view_rebuild_line(md, &c);
	rule(md, &r->th);
	revisions(md, r);
	section(md, &c, SC_ROLE_LIBRARY, "Library files");
	section(md, &c, SC_ROLE_ROADMAP, "Roadmap files");
	importers(md, &c);
	sc_view_confirmation(md, &c);
	attribution(md, &c);
	resources(md, &c);
	runners(md, &c);
	problems(md, r);
	environment(md, r);
	sb_adds(md, "## Limits\n\n");
	sc_report_limits_text(r, md);
	sb_adds(md, "\n");
}
