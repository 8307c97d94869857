#ifndef SC_REPORT_VIEW_H
#define SC_REPORT_VIEW_H
/* How a report's figures, paths and verdicts are shown: one way for
 * report.md, report.txt and the headline (Documentation/measurement.txt
 * "Report").  CPU figures, ratios and deltas are truncated
 * (report/verdict.h) so that no shown figure contradicts its verdict. */
#include "report/report.h"
#include "util/strbuf.h"

struct sc_report_view {
	const struct sc_report *r;
	struct sc_display d;
	int markdown; /* 0: plain text (the headline for a terminal) */
};

/* Paths up to this many characters fit a table column whole; longer ones
 * may wrap after their '/'. */
#define SC_VIEW_PATH_WRAP_AT 40

/* Which files sc_view_order() takes: the changed files of one role, every
 * file, or the importers (plan --importers). */
#define SC_VIEW_ALL_FILES -1
#define SC_VIEW_IMPORTERS -2

enum sc_view_figure { SC_FIG_CPU, SC_FIG_WALL, SC_FIG_RSS };

void sc_view_cpu(struct strbuf *md, const struct sc_report_view *c, long long ms);
void sc_view_signed_cpu(struct strbuf *md, const struct sc_report_view *c, long long ms);
void sc_view_wall(struct strbuf *md, long long ms);
void sc_view_rss(struct strbuf *md, long long kib);
void sc_view_path(struct strbuf *md, const struct sc_report_view *c, const char *p, int wrap);
/* Head minus base, a side the change does not measure counting 0. */
long long sc_view_delta(const struct sc_report_file *rf);
void sc_view_ratio(struct strbuf *md, const struct sc_report_view *c, const struct sc_report_file *rf);
/* Files of one role (or all, or the importers) in reading order: flagged
 * first, then the other compared files, each by CPU delta descending, then
 * the files without a comparison; plan order breaks ties.  Returns the
 * count. */
size_t sc_view_order(const struct sc_report *r, int role, size_t *out);
/* One figure of one slot, or why there is none. */
void sc_view_slot_cell(struct strbuf *md, const struct sc_report_view *c, const struct sc_report_side *sd,
                      enum sc_view_figure fig);
void sc_view_verdict_cell(struct strbuf *md, const struct sc_report_view *c, const struct sc_report_file *rf);
/* profile-run --confirm: the files sampled again, every sample shown. */
void sc_view_confirmation(struct strbuf *md, const struct sc_report_view *c);

#endif
