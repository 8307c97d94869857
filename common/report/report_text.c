/* report.txt (report/report_text.h): the tables aligned for a terminal,
 * every line quoted as the error lines are. */
#include "report/report_text.h"
#include "report/headline.h"
#include "report/view.h"
#include "util/die.h"

#include <stdlib.h>
#include <string.h>

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

static void text_section(struct strbuf *out, const struct sc_report_view *c, int role, const char *title)
{
	const struct sc_report *r = c->r;
	size_t *idx = xcalloc(r->n_files + 1, sizeof *idx);
	size_t n = sc_view_order(r, role, idx);
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
		sc_view_path(&row[0], c, rf->f->path, 0);
		sb_adds(&row[1], sc_change_name(rf->f->change));
		sc_view_slot_cell(&row[2], c, &rf->side[SC_SIDE_BASE], SC_FIG_CPU);
		sc_view_slot_cell(&row[3], c, &rf->side[SC_SIDE_HEAD], SC_FIG_CPU);
		sc_view_ratio(&row[4], c, rf);
		if (rf->compared)
			sc_view_signed_cpu(&row[5], c, sc_view_delta(rf));
		else
			sb_adds(&row[5], "—");
		sc_view_verdict_cell(&row[6], c, rf);
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
	sc_view_cpu(&tot[2], c, base_ms);
	sc_view_cpu(&tot[3], c, head_ms);
	sb_adds(&tot[4], "—");
	sc_view_signed_cpu(&tot[5], c, head_ms - base_ms);
	sb_addf(&tot[6], "%zu flagged", flagged);
	if (compared < n)
		sb_addf(&tot[6], ", %zu not compared", n - compared);
	text_flush(out, &t);
	sb_adds(out, "\n");
	free(idx);
}

void sc_report_to_text(const struct sc_report *r, struct strbuf *out)
{
	struct sc_report_view c = {r, {0, 0}, 0};
	sc_display_init(&r->th, &c.d);
	sc_view_headline(out, &c);
	sb_adds(out, "\n\n");
	sc_view_rebuild_line(out, &c);
	text_section(out, &c, SC_ROLE_LIBRARY, "library file");
	text_section(out, &c, SC_ROLE_ROADMAP, "roadmap file");
	text_section(out, &c, SC_VIEW_IMPORTERS, "importer");
	sc_view_confirmation(out, &c);
	sb_adds(out, "Thresholds, revisions, wall time, memory, the prebuilds, problems and the "
	             "environment: report.md.\n");
}
