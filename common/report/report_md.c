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
#include "report/mdescape.h"
#include "report/report_md.h"
#include "report/report_attr.h"
#include "report/report.h"
#include "util/die.h"
#include "util/milli.h"

#include <stdlib.h>
#include <string.h>

struct ctx {
	const struct sc_report *r;
	struct sc_display d;
	int markdown; /* 0: plain text (the headline for a terminal) */
};

static void cpu(struct strbuf *md, const struct ctx *c, long long ms)
{
	sc_format_ms_floor(ms, c->d.sec_decimals, md);
}

static void signed_cpu(struct strbuf *md, const struct ctx *c, long long ms)
{
	if (ms >= 0)
		sb_addc(md, '+');
	cpu(md, c, ms);
}

static void wall(struct strbuf *md, long long ms) { sc_format_wall(ms, md); }

static void rss(struct strbuf *md, long long kib) { sb_addf(md, "%lld", (kib + 512) / 1024); }

/* Paths up to this many characters fit a table column whole; longer ones
 * may wrap after their '/'. */
#define PATH_WRAP_AT 40

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
static int blob_link_open(struct strbuf *md, const struct ctx *c, const char *sha)
{
	if (!c->markdown || !repo_slug(c->r) || !sha)
		return 0;
	sb_adds(md, "[");
	return 1;
}

static void blob_link_close(struct strbuf *md, const struct ctx *c, int open, const char *sha,
                            const char *p)
{
	if (open)
		sb_addf(md, "](%s/%s/blob/%s/%s)", c->r->env.server_url, repo_slug(c->r), sha, p);
}

static void path(struct strbuf *md, const struct ctx *c, const char *p, int wrap)
{
	if (!c->markdown)
		sb_adds(md, p); /* plan paths are Lean module paths: plain ASCII */
	else if (wrap && strlen(p) > PATH_WRAP_AT)
		sc_md_code_path(p, md);
	else
		sc_md_code(p, md);
}

/* Head minus base, a side the change does not measure counting 0. */
static long long effective_delta(const struct sc_report_file *rf)
{
	const struct sc_report_side *b = &rf->side[SC_SIDE_BASE], *h = &rf->side[SC_SIDE_HEAD];
	return (h->state == SC_SLOT_OK ? h->cpu_ms : 0) - (b->state == SC_SLOT_OK ? b->cpu_ms : 0);
}

static void ratio(struct strbuf *md, const struct ctx *c, const struct sc_report_file *rf)
{
	if (!rf->compared || (rf->f->change != SC_CHANGE_MODIFIED && rf->f->change != SC_CHANGE_IMPORTER))
		sb_adds(md, "—");
	else if (rf->v.has_ratio) {
		sc_format_ratio_floor(rf->side[SC_SIDE_HEAD].cpu_ms, rf->side[SC_SIDE_BASE].cpu_ms,
		                      c->d.ratio_decimals, md);
		sb_adds(md, "×");
	} else /* base 0 ms: the ratio is undefined */
		sb_adds(md, rf->side[SC_SIDE_HEAD].cpu_ms > 0 ? "∞" : "—");
}

/* "<path> 60.00 → 90.00 s CPU (1.50×, +30.00 s)" or "<path> new, 150.00 s CPU". */
static void slower_item(struct strbuf *md, const struct ctx *c, const struct sc_report_file *rf)
{
	path(md, c, rf->f->path, 0);
	if (rf->f->change == SC_CHANGE_ADDED) {
		sb_adds(md, " new, ");
		cpu(md, c, rf->side[SC_SIDE_HEAD].cpu_ms);
		sb_adds(md, " s CPU");
		return;
	}
	sb_adds(md, " ");
	cpu(md, c, rf->side[SC_SIDE_BASE].cpu_ms);
	sb_adds(md, " → ");
	cpu(md, c, rf->side[SC_SIDE_HEAD].cpu_ms);
	sb_adds(md, " s CPU (");
	ratio(md, c, rf);
	sb_adds(md, ", ");
	signed_cpu(md, c, rf->v.delta_ms);
	sb_adds(md, " s)");
}

/* Which files order() takes: the changed files of one role, every file,
 * or the importers (plan --importers). */
#define ALL_FILES -1
#define IMPORTERS -2

/* Files of one role (or all, or the importers) in reading order: flagged
 * first, then the other compared files, each by CPU delta descending, then
 * the files without a comparison; plan order breaks ties.  Returns the
 * count. */
static size_t order(const struct sc_report *r, int role, size_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_files; i++) {
		const struct sc_report_file *rf = &r->files[i];
		int importer = rf->f->change == SC_CHANGE_IMPORTER;
		if (role == IMPORTERS ? !importer : role >= 0 && (importer || (int)rf->f->role != role))
			continue;
		int group = !rf->compared ? 2 : rf->v.flagged ? 0 : 1;
		long long delta = rf->compared ? effective_delta(rf) : 0;
		size_t j = n++;
		for (; j > 0; j--) {
			const struct sc_report_file *o = &r->files[out[j - 1]];
			int og = !o->compared ? 2 : o->v.flagged ? 0 : 1;
			long long od = o->compared ? effective_delta(o) : 0;
			if (og < group || (og == group && od >= delta))
				break;
			out[j] = out[j - 1];
		}
		out[j] = i;
	}
	return n;
}

/* Each flagged file; lead_in starts the sentence ("" at the very start of
 * the line, where it is bold in markdown). */
static void slower_list(struct strbuf *md, const struct ctx *c, const char *lead_in)
{
	const struct sc_report *r = c->r;
	if (!r->n_flagged) {
		sb_addf(md, "%snothing got slower beyond the thresholds.", lead_in);
		return;
	}
	size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
	size_t n = order(r, ALL_FILES, idx);
	const char *b = c->markdown && !*lead_in ? "**" : "";
	size_t flagged[2] = {0, 0}, compared[2] = {0, 0};
	for (size_t i = 0; i < r->n_files; i++) {
		int k = r->files[i].f->change == SC_CHANGE_IMPORTER;
		compared[k] += r->files[i].compared;
		flagged[k] += r->files[i].compared && r->files[i].v.flagged;
	}
	if (!r->plan->importers_limit)
		sb_addf(md, "%s%s%zu of %zu file%s got slower beyond the thresholds:%s ", lead_in, b,
		        r->n_flagged, r->n_compared, r->n_compared == 1 ? "" : "s", b);
	else
		sb_addf(md, "%s%s%zu of %zu changed file%s and %zu of %zu importer%s got slower beyond "
		            "the thresholds:%s ", lead_in, b, flagged[0], compared[0],
		        compared[0] == 1 ? "" : "s", flagged[1], compared[1], compared[1] == 1 ? "" : "s", b);
	const char *sep = "";
	for (size_t k = 0; k < n && r->files[idx[k]].compared && r->files[idx[k]].v.flagged; k++) {
		sb_adds(md, sep);
		slower_item(md, c, &r->files[idx[k]]);
		sep = "; ";
	}
	sb_adds(md, ". Flags are advisory.");
	free(idx);
}

static void headline(struct strbuf *md, const struct ctx *c)
{
	const struct sc_report *r = c->r;
	const char *status = sc_report_status(r);
	const char *b = c->markdown ? "**" : "";
	size_t n = r->n_files;
	if (strcmp(status, "no_changes") == 0 &&
	    strcmp(r->plan->merge_base, r->plan->head) == 0) {
		sb_addf(md, "%sThe head is already in the base%s (merged, or base and head "
		            "swapped): nothing was measured.", b, b);
	} else if (strcmp(status, "no_changes") == 0) {
		sb_adds(md, "No changed Lean files between the merge base and head: nothing was "
		            "measured.");
	} else if (strcmp(status, "error") == 0) {
		sb_addf(md, "%sMeasurement incomplete%s — %zu problem%s with the samples (listed "
		            "%s); %zu of %zu file%s compared, no verdict for the rest.",
		        b, b, r->n_problems, r->n_problems == 1 ? "" : "s",
		        c->markdown ? "under Problems below" : "in report.md", r->n_compared, n,
		        n == 1 ? "" : "s");
		if (r->n_compared)
			slower_list(md, c, " Of those compared, ");
	} else if (!r->n_flagged) {
		sb_addf(md, "%sNothing got slower beyond the thresholds%s (%zu file%s compared", b,
		        b, r->n_compared, r->n_compared == 1 ? "" : "s");
		if (r->plan->importers_limit) {
			size_t imp = 0;
			for (size_t i = 0; i < r->n_files; i++)
				imp += r->files[i].compared && r->files[i].f->change == SC_CHANGE_IMPORTER;
			sb_addf(md, ", %zu of them importer%s", imp, imp == 1 ? "" : "s");
		}
		sb_adds(md, ").");
	} else {
		slower_list(md, c, "");
	}
}

/* N with a comma every three digits: 1,234. */
static void thousands(struct strbuf *out, size_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%zu", n);
	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			sb_addc(out, ',');
		sb_addc(out, digits[i]);
	}
}

/* The rebuild the change causes (plan "rebuild"), one sentence, or nothing
 * when it was not counted. */
static void rebuild_line(struct strbuf *out, const struct ctx *c)
{
	const struct sc_plan *p = c->r->plan;
	if (!p->has_rebuild)
		return;
	const char *b = c->markdown ? "**" : "";
	sb_addf(out, "This change makes %s", b);
	thousands(out, p->rebuild_modules);
	sb_adds(out, " of ");
	thousands(out, p->rebuild_of);
	sb_addf(out, "%s modules under the roots rebuild: the changed ones and every module "
	             "importing one, directly or not, at the head", b);
	if (p->rebuild_unreadable) {
		sb_adds(out, " (");
		thousands(out, p->rebuild_unreadable);
		sb_addf(out, " module%s whose imports could not be read not counted)",
		        p->rebuild_unreadable == 1 ? "" : "s");
	}
	sb_adds(out, ".\n\n");
}

void sc_report_headline(const struct sc_report *r, int markdown, struct strbuf *out)
{
	struct ctx c = {r, {0, 0}, markdown};
	sc_display_init(&r->th, &c.d);
	headline(out, &c);
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

enum figure { FIG_CPU, FIG_WALL, FIG_RSS };

/* One figure of one slot, or why there is none. */
static void slot_cell(struct strbuf *md, const struct ctx *c, const struct sc_report_side *sd,
                      enum figure fig)
{
	switch (sd->state) {
	case SC_SLOT_UNUSED:
		sb_adds(md, "—");
		break;
	case SC_SLOT_MISSING:
		sb_adds(md, fig == FIG_CPU ? "missing" : "—");
		break;
	case SC_SLOT_REJECTED:
		sb_adds(md, fig == FIG_CPU ? "rejected (duplicate)" : "—");
		break;
	case SC_SLOT_OK:
		if (fig == FIG_CPU)
			cpu(md, c, sd->cpu_ms);
		else if (fig == FIG_WALL)
			wall(md, sd->wall_ms);
		else
			rss(md, sd->in->s.max_rss_kib);
		break;
	case SC_SLOT_ERROR:
		if (fig != FIG_CPU) {
			sb_adds(md, "—");
			break;
		}
		sb_adds(md, "error: ");
		if (c->markdown)
			sc_md_escape(sd->in->s.ok ? "out of range" : sc_sample_error_name(sd->in->s.error), md);
		else /* an error name of the sample model: [a-z_] */
			sb_adds(md, sd->in->s.ok ? "out of range" : sc_sample_error_name(sd->in->s.error));
		break;
	}
}

static void verdict_cell(struct strbuf *md, const struct ctx *c, const struct sc_report_file *rf)
{
	const char *b = c->markdown ? "**" : "";
	if (!rf->compared) {
		sb_addf(md, "%snot compared%s (see Problems%s)", b, b, c->markdown ? "" : " in report.md");
		return;
	}
	struct strbuf reason = STRBUF_INIT;
	sc_verdict_reason(rf->f->change, &rf->v, &c->r->th, &reason);
	if (rf->v.flagged)
		sb_addf(md, "%sflagged%s: ", b, b);
	else
		sb_adds(md, rf->f->change == SC_CHANGE_REMOVED ? "listed: " : "not flagged: ");
	/* Our own words and numbers: [a-z0-9 .,+] and ≥ × only, inert here;
	 * a unit stays on its number's line. */
	for (const char *p = reason.buf; *p; p++) {
		if (c->markdown && *p == ' ' && p > reason.buf && p[-1] >= '0' && p[-1] <= '9' &&
		    p[1] == 's' && (p[2] == '\0' || p[2] == ' '))
			sb_adds(md, "&nbsp;");
		else
			sb_addc(md, *p);
	}
	sb_release(&reason);
}

static void row(struct strbuf *md, const struct ctx *c, const struct sc_report_file *rf)
{
	const struct sc_report_side *base = &rf->side[SC_SIDE_BASE], *head = &rf->side[SC_SIDE_HEAD];
	int modified = rf->f->change == SC_CHANGE_MODIFIED || rf->f->change == SC_CHANGE_IMPORTER;
	const struct sc_plan *p = c->r->plan;
	/* The path links to the file as measured: at the head, a removed file
	 * at the merge base; a modified file's base figure links to it there. */
	const char *at = rf->f->change == SC_CHANGE_REMOVED ? p->merge_base : head_link_rev(p);
	sb_adds(md, "| ");
	int open = blob_link_open(md, c, at);
	path(md, c, rf->f->path, 1);
	blob_link_close(md, c, open, at, rf->f->path);
	sb_addf(md, " | %s | ", sc_change_name(rf->f->change));
	open = modified && base->state == SC_SLOT_OK &&
	       blob_link_open(md, c, p->merge_base);
	slot_cell(md, c, base, FIG_CPU);
	blob_link_close(md, c, open, p->merge_base, rf->f->path);
	sb_adds(md, " | ");
	slot_cell(md, c, head, FIG_CPU);
	sb_adds(md, " | ");
	ratio(md, c, rf);
	sb_adds(md, " | ");
	if (rf->compared)
		signed_cpu(md, c, effective_delta(rf));
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
	verdict_cell(md, c, rf);
	sb_adds(md, " |\n");
}

/* Sums over the compared files of the section. */
static void totals(struct strbuf *md, const struct ctx *c, const size_t *idx, size_t n)
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
	cpu(md, c, base);
	sb_adds(md, " | ");
	cpu(md, c, head);
	sb_adds(md, " | — | ");
	signed_cpu(md, c, head - base);
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

static void section(struct strbuf *md, const struct ctx *c, enum sc_role role, const char *title)
{
	const struct sc_report *r = c->r;
	size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
	size_t n = order(r, (int)role, idx);
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
static void importers(struct strbuf *md, const struct ctx *c)
{
	const struct sc_report *r = c->r;
	const struct sc_plan *p = r->plan;
	if (!p->importers_limit)
		return;
	size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
	size_t n = order(r, IMPORTERS, idx);
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
			path(md, c, f->path, 0);
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
static void resources(struct strbuf *md, const struct ctx *c)
{
	const struct sc_report *r = c->r;
	if (!r->n_files)
		return;
	sb_adds(md, "## Wall time and peak memory\n\n| file | base wall (s) | head wall (s) | "
	            "base max RSS (MiB) | head max RSS (MiB) |\n|:--|--:|--:|--:|--:|\n");
	const enum sc_role roles[] = {SC_ROLE_LIBRARY, SC_ROLE_ROADMAP};
	for (int k = 0; k < 2; k++) {
		size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
		size_t n = order(r, (int)roles[k], idx);
		for (size_t i = 0; i < n; i++) {
			const struct sc_report_file *rf = &r->files[idx[i]];
			sb_adds(md, "| ");
			path(md, c, rf->f->path, 1);
			const enum figure figs[] = {FIG_WALL, FIG_WALL, FIG_RSS, FIG_RSS};
			for (int f = 0; f < 4; f++) {
				sb_adds(md, " | ");
				slot_cell(md, c, &rf->side[f % 2], figs[f]);
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
			slot_cell(md, c, sd, FIG_CPU);
		sb_adds(md, " | ");
		slot_cell(md, c, sd, FIG_WALL);
		sb_adds(md, " | ");
		slot_cell(md, c, sd, FIG_RSS);
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
		sb_adds(md, "none (no samples)");
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

/* Each ok sample of a side, its CPU as the tables show it, "a, b, c". */
static void samples_list(struct strbuf *out, const struct ctx *c, const struct sc_report_side *sd)
{
	if (sd->state != SC_SLOT_OK) {
		sb_adds(out, "—");
		return;
	}
	for (size_t i = 0; i < sd->n_samples; i++) {
		if (i)
			sb_adds(out, ", ");
		cpu(out, c, sd->samples_ms[i]);
	}
	if (sd->n_rep_failed)
		sb_addf(out, " (%zu repeat%s failed)", sd->n_rep_failed, sd->n_rep_failed == 1 ? "" : "s");
}

/* What the repeats made of the first samples' verdict. */
static void confirmation_outcome(struct strbuf *out, const struct ctx *c,
                                 const struct sc_report_file *rf)
{
	const char *b = c->markdown ? "**" : "";
	const char *now = rf->v.flagged ? "flagged" : "not flagged";
	if (rf->first.flagged != rf->v.flagged)
		sb_addf(out, "%soverturned%s: the first samples said %s, the median says %s", b, b,
		        rf->first.flagged ? "flagged" : "not flagged", now);
	else
		sb_addf(out, "confirmed: %s", now);
}

/* profile-run --confirm: the files sampled again, every sample shown. */
static void confirmation(struct strbuf *md, const struct ctx *c)
{
	const struct sc_report *r = c->r;
	size_t n = 0;
	for (size_t i = 0; i < r->n_files; i++)
		n += r->files[i].compared && r->files[i].confirmed;
	if (!n)
		return;
	if (c->markdown)
		sb_adds(md, "## Confirmation\n\nEach file flagged, or within 10 % of a threshold, by its "
		            "first samples was sampled again, the sides taking turns; the figures above are "
		            "the median of its samples, which one slow or one fast run cannot move.\n\n"
		            "| file | base CPU samples (s) | head CPU samples (s) | verdict |\n"
		            "|:--|:--|:--|:--|\n");
	else
		sb_adds(md, "Confirmation: sampled again, the figures above their median\n");
	for (size_t i = 0; i < r->n_files; i++) {
		const struct sc_report_file *rf = &r->files[i];
		if (!rf->compared || !rf->confirmed)
			continue;
		sb_adds(md, c->markdown ? "| " : "  ");
		path(md, c, rf->f->path, 1);
		sb_adds(md, c->markdown ? " | " : ": base ");
		samples_list(md, c, &rf->side[SC_SIDE_BASE]);
		sb_adds(md, c->markdown ? " | " : "; head ");
		samples_list(md, c, &rf->side[SC_SIDE_HEAD]);
		sb_adds(md, c->markdown ? " | " : " s CPU; ");
		confirmation_outcome(md, c, rf);
		sb_adds(md, c->markdown ? " |\n" : "\n");
	}
	sb_adds(md, "\n");
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
static void attribution(struct strbuf *md, const struct ctx *c)
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
		path(md, c, rf->f->path, 0);
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

#define TEXT_COLS 7

/* Columns a terminal gives a UTF-8 string: one per code point (our cells
 * hold no wide or combining characters). */
static size_t text_width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Rows of cells, aligned as a whole: numbers to the right. */
struct text_table {
	struct strbuf (*rows)[TEXT_COLS];
	size_t n, alloc;
};

static struct strbuf *text_row(struct text_table *t)
{
	t->rows = xgrow(t->rows, t->n, &t->alloc, sizeof *t->rows);
	for (int k = 0; k < TEXT_COLS; k++)
		sb_init(&t->rows[t->n][k]);
	return t->rows[t->n++];
}

static void text_flush(struct strbuf *out, struct text_table *t)
{
	static const int right[TEXT_COLS] = {0, 0, 1, 1, 1, 1, 0};
	size_t w[TEXT_COLS] = {0};
	for (size_t i = 0; i < t->n; i++)
		for (int k = 0; k < TEXT_COLS; k++)
			if (text_width(t->rows[i][k].buf) > w[k])
				w[k] = text_width(t->rows[i][k].buf);
	for (size_t i = 0; i < t->n; i++) {
		struct strbuf line = STRBUF_INIT;
		for (int k = 0; k < TEXT_COLS; k++) {
			size_t pad = w[k] - text_width(t->rows[i][k].buf);
			if (k)
				sb_adds(&line, "  ");
			for (size_t j = 0; right[k] && j < pad; j++)
				sb_addc(&line, ' ');
			sb_adds(&line, t->rows[i][k].buf);
			for (size_t j = 0; !right[k] && k + 1 < TEXT_COLS && j < pad; j++)
				sb_addc(&line, ' ');
			sb_release(&t->rows[i][k]);
		}
		/* paths and details are the plan's and ours, quoted all the same */
		char quoted[4 * 4096 + 8];
		sc_quote_line(line.buf, line.len, quoted, sizeof quoted);
		sb_addf(out, "%s\n", quoted);
		sb_release(&line);
	}
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

static void text_section(struct strbuf *out, const struct ctx *c, int role, const char *title)
{
	const struct sc_report *r = c->r;
	size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
	size_t n = order(r, role, idx);
	if (!n) {
		free(idx);
		return;
	}
	struct text_table t = {0};
	struct strbuf *h = text_row(&t);
	const char *head[TEXT_COLS] = {title, "change", "base CPU (s)", "head CPU (s)", "ratio",
	                               "Δ CPU (s)", "verdict"};
	for (int k = 0; k < TEXT_COLS; k++)
		sb_adds(&h[k], head[k]);
	long long base_ms = 0, head_ms = 0;
	size_t compared = 0, flagged = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sc_report_file *rf = &r->files[idx[i]];
		struct strbuf *row = text_row(&t);
		path(&row[0], c, rf->f->path, 0);
		sb_adds(&row[1], sc_change_name(rf->f->change));
		slot_cell(&row[2], c, &rf->side[SC_SIDE_BASE], FIG_CPU);
		slot_cell(&row[3], c, &rf->side[SC_SIDE_HEAD], FIG_CPU);
		ratio(&row[4], c, rf);
		if (rf->compared)
			signed_cpu(&row[5], c, effective_delta(rf));
		else
			sb_adds(&row[5], "—");
		verdict_cell(&row[6], c, rf);
		if (rf->compared) {
			compared++;
			flagged += (size_t)rf->v.flagged;
			base_ms += rf->side[SC_SIDE_BASE].state == SC_SLOT_OK ? rf->side[SC_SIDE_BASE].cpu_ms : 0;
			head_ms += rf->side[SC_SIDE_HEAD].state == SC_SLOT_OK ? rf->side[SC_SIDE_HEAD].cpu_ms : 0;
		}
	}
	struct strbuf *tot = text_row(&t);
	sb_adds(&tot[0], "total");
	sb_addf(&tot[1], "%zu compared", compared);
	cpu(&tot[2], c, base_ms);
	cpu(&tot[3], c, head_ms);
	sb_adds(&tot[4], "—");
	signed_cpu(&tot[5], c, head_ms - base_ms);
	sb_addf(&tot[6], "%zu flagged", flagged);
	if (compared < n)
		sb_addf(&tot[6], ", %zu not compared", n - compared);
	text_flush(out, &t);
	sb_adds(out, "\n");
	free(idx);
}

void sc_report_to_text(const struct sc_report *r, struct strbuf *out)
{
	struct ctx c = {r, {0, 0}, 0};
	sc_display_init(&r->th, &c.d);
	headline(out, &c);
	sb_adds(out, "\n\n");
	rebuild_line(out, &c);
	text_section(out, &c, SC_ROLE_LIBRARY, "library file");
	text_section(out, &c, SC_ROLE_ROADMAP, "roadmap file");
	text_section(out, &c, IMPORTERS, "importer");
	confirmation(out, &c);
	sb_adds(out, "Thresholds, revisions, wall time, memory, the prebuilds, problems and the "
	             "environment: report.md.\n");
}

void sc_report_to_md(const struct sc_report *r, struct strbuf *md)
{
	struct ctx c = {r, {0, 0}, 1};
	sc_display_init(&r->th, &c.d);
	title(md, r);
	headline(md, &c);
	sb_adds(md, "\n\n");
	rebuild_line(md, &c);
	rule(md, &r->th);
	revisions(md, r);
	section(md, &c, SC_ROLE_LIBRARY, "Library files");
	section(md, &c, SC_ROLE_ROADMAP, "Roadmap files");
	importers(md, &c);
	confirmation(md, &c);
	attribution(md, &c);
	resources(md, &c);
	problems(md, r);
	environment(md, r);
	sb_addf(md, "## Limits\n\n%s\n", sc_report_limits_text(r));
}
