/* report.md: GitHub-flavoured markdown for people.  Every string that did
 * not come from this program (paths, sample details, file names, uname,
 * the Lean version) goes through mdescape; object IDs and digests are
 * validated hex and sample ids validated module names: they go into code
 * spans as they are. */
#include "mdescape.h"
#include "repoconfig.h"
#include "report.h"

#include <string.h>

static void add_ms(struct strbuf *md, long long ms)
{
	sb_addf(md, "%s%lld.%03lld s", ms < 0 ? "-" : "", (ms < 0 ? -ms : ms) / 1000,
	        (ms < 0 ? -ms : ms) % 1000);
}

/* The plan reader does not check the slug (sc-plan does); a hand-made plan
 * with anything else gets plain labels rather than a crafted URL. */
static void rev_label(struct strbuf *md, const struct sc_plan *p, const char *sha)
{
	if (p->github && sc_is_github_slug(p->github))
		sb_addf(md, "[`%.7s`](https://github.com/%s/commit/%s)", sha, p->github, sha);
	else
		sb_addf(md, "`%.7s`", sha);
}

static void summary(struct strbuf *md, const struct sc_report *r)
{
	const char *status = sc_report_status(r);
	size_t n = r->n_files;
	if (strcmp(status, "no_changes") == 0) {
		sb_adds(md, "No changed Lean files between the merge base and head: nothing was "
		            "measured.\n\n");
	} else if (strcmp(status, "error") == 0) {
		sb_addf(md, "**Measurement incomplete** — %zu problem%s with the samples (listed "
		            "below); %zu of %zu file%s compared, no verdict for the rest.",
		        r->n_problems, r->n_problems == 1 ? "" : "s", r->n_compared, n,
		        n == 1 ? "" : "s");
		if (r->n_compared)
			sb_addf(md, " Of the compared files, %zu flagged.", r->n_flagged);
		sb_adds(md, "\n\n");
	} else {
		sb_addf(md, "**%zu of %zu file%s flagged** (advisory: flags do not change the exit "
		            "status).\n\n",
		        r->n_flagged, n, n == 1 ? "" : "s");
	}
}

static void rule(struct strbuf *md, const struct sc_thresholds *t)
{
	struct strbuf ratio = STRBUF_INIT, delta = STRBUF_INIT, added = STRBUF_INIT;
	sc_format_milli(t->ratio_milli, &ratio);
	sc_format_milli(t->delta_ms, &delta);
	sc_format_milli(t->added_ms, &added);
	sb_addf(md, "Rule: a modified file is flagged when its head CPU is ≥ %s× base **and** "
	            "≥ +%s s; an added file when its head CPU is ≥ %s s; removed files are "
	            "listed, never flagged.",
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
	const char *names[] = {"base (merge base)", "head", "base tip", "tooling"};
	const char *shas[] = {p->merge_base, p->head, p->base_tip, p->tooling};
	sb_adds(md, "| side | revision | full ID |\n|:--|:--|:--|\n");
	for (int i = 0; i < 4; i++) {
		sb_addf(md, "| %s | ", names[i]);
		rev_label(md, p, shas[i]);
		sb_addf(md, " | `%s` |\n", shas[i]);
	}
	sb_adds(md, "\nRun ID ");
	if (r->run_id)
		sb_addf(md, "`%s`", r->run_id);
	else
		sb_adds(md, "none (no samples)");
	sb_addf(md, ", plan digest `%s`.\n\n", r->plan_digest);
}

static void side_cell(struct strbuf *md, const struct sc_report_side *sd)
{
	switch (sd->state) {
	case SC_SLOT_UNUSED:
		sb_adds(md, "—");
		break;
	case SC_SLOT_MISSING:
		sb_adds(md, "missing");
		break;
	case SC_SLOT_REJECTED:
		sb_adds(md, "rejected (duplicate)");
		break;
	case SC_SLOT_OK:
		add_ms(md, sd->cpu_ms);
		break;
	case SC_SLOT_ERROR:
		sb_adds(md, "error: ");
		sc_md_escape(sd->in->s.ok ? "out of range" : sd->in->s.error, md);
		break;
	}
}

static void wall_cell(struct strbuf *md, const struct sc_report_side *sd)
{
	if (sd->state == SC_SLOT_OK)
		add_ms(md, sd->wall_ms);
	else
		sb_adds(md, "—");
}

static void row(struct strbuf *md, const struct sc_report *r, const struct sc_report_file *rf)
{
	const struct sc_plan_file *f = rf->f;
	const struct sc_report_side *base = &rf->side[SC_SIDE_BASE], *head = &rf->side[SC_SIDE_HEAD];
	int modified = f->change == SC_CHANGE_MODIFIED;
	sb_adds(md, "| ");
	sc_md_code(f->path, md);
	sb_addf(md, " | %s | ", sc_change_name(f->change));
	side_cell(md, base);
	sb_adds(md, " | ");
	side_cell(md, head);
	sb_adds(md, " | ");
	if (!rf->compared || !modified)
		sb_adds(md, "—");
	else if (rf->v.has_ratio)
		sb_addf(md, "%lld.%03lld×", rf->v.ratio_milli / 1000, rf->v.ratio_milli % 1000);
	else /* base 0 ms: the ratio is undefined */
		sb_adds(md, head->cpu_ms > 0 ? "∞" : "—");
	sb_adds(md, " | ");
	if (rf->compared && modified) {
		if (rf->v.delta_ms >= 0)
			sb_addc(md, '+');
		add_ms(md, rf->v.delta_ms);
	} else {
		sb_adds(md, "—");
	}
	sb_adds(md, " | ");
	wall_cell(md, base);
	sb_adds(md, " / ");
	wall_cell(md, head);
	sb_adds(md, " | ");
	if (!rf->compared) {
		sb_adds(md, "**not compared** (see Problems)");
	} else {
		struct strbuf reason = STRBUF_INIT;
		sc_verdict_reason(f->change, &rf->v, &r->th, &reason);
		sb_adds(md, rf->v.flagged                    ? "**flagged**: "
		            : f->change == SC_CHANGE_REMOVED ? "listed: "
		                                             : "not flagged: ");
		/* Our own words and numbers: [a-z0-9 .,+>=] only, inert here. */
		sb_adds(md, reason.buf);
		sb_release(&reason);
	}
	sb_adds(md, " |\n");
}

static void section(struct strbuf *md, const struct sc_report *r, enum sc_role role,
                    const char *title)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_files; i++)
		n += r->files[i].f->role == role;
	if (!n)
		return;
	sb_addf(md, "## %s\n\n", title);
	sb_adds(md, "| path | change | base CPU | head CPU | ratio | Δ CPU | wall base / head | "
	            "verdict |\n|:--|:--|--:|--:|--:|--:|--:|:--|\n");
	for (size_t i = 0; i < r->n_files; i++)
		if (r->files[i].f->role == role)
			row(md, r, &r->files[i]);
	sb_adds(md, "\n");
}

static void problems(struct strbuf *md, const struct sc_report *r)
{
	if (!r->n_problems)
		return;
	sb_adds(md, "## Problems\n\n");
	for (size_t i = 0; i < r->n_problems; i++) {
		const struct sc_problem *p = &r->problems[i];
		/* Sample ids passed sc_sample_id_split: "base|head:" + a module name. */
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

static void environment(struct strbuf *md, const struct sc_report_env *e)
{
	sb_adds(md, "## Environment\n\n- Platform: ");
	sc_md_escape(e->platform, md);
	sb_adds(md, " (");
	sc_md_escape(e->machine, md);
	sb_adds(md, ")\n- Lean: ");
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
	if (e->sandbox_user)
		sb_addf(md, "\n- Sandbox user (uid:gid): `%s`", e->sandbox_user);
	sb_adds(md, "\n- Dependencies: operator prepared\n\n");
}

void sc_report_to_md(const struct sc_report *r, struct strbuf *md)
{
	summary(md, r);
	rule(md, &r->th);
	revisions(md, r);
	section(md, r, SC_ROLE_LIBRARY, "Library files");
	section(md, r, SC_ROLE_ROADMAP, "Roadmap files");
	problems(md, r);
	environment(md, &r->env);
	sb_addf(md, "## Limits\n\n%s\n", sc_report_limits_text);
}
