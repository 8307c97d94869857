/* The headline: what got slower, in one line (report/headline.h). */
#include "report/headline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "<path> 60.00 → 90.00 s CPU (1.50×, +30.00 s)" or "<path> new, 150.00 s CPU". */
static void slower_item(struct strbuf *md, const struct sc_report_view *c, const struct sc_report_file *rf)
{
	sc_view_path(md, c, rf->f->path, 0);
	if (rf->f->change == SC_CHANGE_ADDED) {
		sb_adds(md, " new, ");
		sc_view_cpu(md, c, rf->side[SC_SIDE_HEAD].cpu_ms);
		sb_adds(md, " s CPU");
		return;
	}
	sb_adds(md, " ");
	sc_view_cpu(md, c, rf->side[SC_SIDE_BASE].cpu_ms);
	sb_adds(md, " → ");
	sc_view_cpu(md, c, rf->side[SC_SIDE_HEAD].cpu_ms);
	sb_adds(md, " s CPU (");
	sc_view_ratio(md, c, rf);
	sb_adds(md, ", ");
	sc_view_signed_cpu(md, c, rf->v.delta_ms);
	sb_adds(md, " s)");
}

/* Each flagged file; lead_in starts the sentence ("" at the very start of
 * the line, where it is bold in markdown). */
static void slower_list(struct strbuf *md, const struct sc_report_view *c, const char *lead_in)
{
	const struct sc_report *r = c->r;
	if (!r->n_flagged) {
		sb_addf(md, "%snothing got slower beyond the thresholds.", lead_in);
		return;
	}
	size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
	size_t n = sc_view_order(r, SC_VIEW_ALL_FILES, idx);
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

void sc_view_headline(struct strbuf *md, const struct sc_report_view *c)
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
void sc_view_rebuild_line(struct strbuf *out, const struct sc_report_view *c)
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
	struct sc_report_view c = {r, {0, 0}, markdown};
	sc_display_init(&r->th, &c.d);
	sc_view_headline(out, &c);
}
