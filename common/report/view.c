/* The figures, paths, cells and the confirmation section that report.md,
 * report.txt and the headline share (report/view.h). */
#include "report/view.h"
#include "report/mdescape.h"
#include "util/die.h"
#include "util/milli.h"

#include <stdlib.h>
#include <string.h>

void sc_view_cpu(struct strbuf *md, const struct sc_report_view *c, long long ms)
{
	sc_format_ms_floor(ms, c->d.sec_decimals, md);
}

void sc_view_signed_cpu(struct strbuf *md, const struct sc_report_view *c, long long ms)
{
	if (ms >= 0)
		sb_addc(md, '+');
	sc_view_cpu(md, c, ms);
}

void sc_view_wall(struct strbuf *md, long long ms) { sc_format_wall(ms, md); }

void sc_view_rss(struct strbuf *md, long long kib) { sb_addf(md, "%lld", (kib + 512) / 1024); }

void sc_view_path(struct strbuf *md, const struct sc_report_view *c, const char *p, int wrap)
{
	if (!c->markdown)
		sb_adds(md, p); /* plan paths are Lean module paths: plain ASCII */
	else if (wrap && strlen(p) > SC_VIEW_PATH_WRAP_AT)
		sc_md_code_path(p, md);
	else
		sc_md_code(p, md);
}

/* Head minus base, a side the change does not measure counting 0. */
long long sc_view_delta(const struct sc_report_file *rf)
{
	const struct sc_report_side *b = &rf->side[SC_SIDE_BASE], *h = &rf->side[SC_SIDE_HEAD];
	return (h->state == SC_SLOT_OK ? h->cpu_ms : 0) - (b->state == SC_SLOT_OK ? b->cpu_ms : 0);
}

void sc_view_ratio(struct strbuf *md, const struct sc_report_view *c, const struct sc_report_file *rf)
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

/* Files of one role (or all, or the importers) in reading order: flagged
 * first, then the other compared files, each by CPU delta descending, then
 * the files without a comparison; plan order breaks ties.  Returns the
 * count. */
size_t sc_view_order(const struct sc_report *r, int role, size_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_files; i++) {
		const struct sc_report_file *rf = &r->files[i];
		int importer = rf->f->change == SC_CHANGE_IMPORTER;
		if (role == SC_VIEW_IMPORTERS ? !importer : role >= 0 && (importer || (int)rf->f->role != role))
			continue;
		int group = !rf->compared ? 2 : rf->v.flagged ? 0 : 1;
		long long delta = rf->compared ? sc_view_delta(rf) : 0;
		size_t j = n++;
		for (; j > 0; j--) {
			const struct sc_report_file *o = &r->files[out[j - 1]];
			int og = !o->compared ? 2 : o->v.flagged ? 0 : 1;
			long long od = o->compared ? sc_view_delta(o) : 0;
			if (og < group || (og == group && od >= delta))
				break;
			out[j] = out[j - 1];
		}
		out[j] = i;
	}
	return n;
}

/* One figure of one slot, or why there is none. */
void sc_view_slot_cell(struct strbuf *md, const struct sc_report_view *c, const struct sc_report_side *sd,
                      enum sc_view_figure fig)
{
	switch (sd->state) {
	case SC_SLOT_UNUSED:
		sb_adds(md, "—");
		break;
	case SC_SLOT_MISSING:
		sb_adds(md, fig == SC_FIG_CPU ? "missing" : "—");
		break;
	case SC_SLOT_REJECTED:
		sb_adds(md, fig == SC_FIG_CPU ? "rejected (duplicate)" : "—");
		break;
	case SC_SLOT_OK:
		if (fig == SC_FIG_CPU)
			sc_view_cpu(md, c, sd->cpu_ms);
		else if (fig == SC_FIG_WALL)
			sc_view_wall(md, sd->wall_ms);
		else
			sc_view_rss(md, sd->in->s.max_rss_kib);
		break;
	case SC_SLOT_ERROR:
		if (fig != SC_FIG_CPU) {
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

void sc_view_verdict_cell(struct strbuf *md, const struct sc_report_view *c, const struct sc_report_file *rf)
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

/* Each ok sample of a side, its CPU as the tables show it, "a, b, c". */
static void samples_list(struct strbuf *out, const struct sc_report_view *c, const struct sc_report_side *sd)
{
	if (sd->state != SC_SLOT_OK) {
		sb_adds(out, "—");
		return;
	}
	for (size_t i = 0; i < sd->n_samples; i++) {
		if (i)
			sb_adds(out, ", ");
		sc_view_cpu(out, c, sd->samples_ms[i]);
	}
	if (sd->n_rep_failed)
		sb_addf(out, " (%zu repeat%s failed)", sd->n_rep_failed, sd->n_rep_failed == 1 ? "" : "s");
}

/* What the repeats made of the first samples' verdict. */
static void confirmation_outcome(struct strbuf *out, const struct sc_report_view *c,
                                 const struct sc_report_file *rf)
{
	const char *b = c->markdown ? "**" : "";
	const char *now = rf->v.flagged ? "flagged" : "not flagged";
	if (rf->first_kept)
		sb_addf(out, "%sdisputed%s: the repeats disagree with the first samples far beyond "
		             "their own spread, so they overturn nothing: the first samples judge it, "
		             "flagged", b, b);
	else if (rf->first.flagged != rf->v.flagged)
		sb_addf(out, "%soverturned%s: the first samples said %s, the median says %s", b, b,
		        rf->first.flagged ? "flagged" : "not flagged", now);
	else
		sb_addf(out, "confirmed: %s", now);
	if (rf->disputed && !rf->first_kept)
		sb_adds(out, " (the repeats disagree with a first sample far beyond their spread)");
}

/* profile-run --confirm: the files sampled again, every sample shown. */
void sc_view_confirmation(struct strbuf *md, const struct sc_report_view *c)
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
		sc_view_path(md, c, rf->f->path, 1);
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
