#ifndef SC_REPORT_HEADLINE_H
#define SC_REPORT_HEADLINE_H
/* The report's first line and the rebuild line after it, for report.md,
 * report.txt and report.json's "headline" alike. */
#include "report/report.h"
#include "report/view.h"
#include "util/strbuf.h"

/* What got slower, in one line: problems first when there are any, then
 * each flagged file with base -> head CPU, ratio and delta (or that nothing
 * got slower beyond the thresholds).  markdown 0: plain text for a
 * terminal (report.json "headline"); 1: report.md's first line. */
void sc_report_headline(const struct sc_report *r, int markdown, struct strbuf *out);
void sc_view_headline(struct strbuf *md, const struct sc_report_view *c);
/* The rebuild the change causes (plan "rebuild"), one sentence, or nothing
 * when it was not counted. */
void sc_view_rebuild_line(struct strbuf *out, const struct sc_report_view *c);

#endif
