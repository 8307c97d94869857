#ifndef SC_REPORT_MD_H
#define SC_REPORT_MD_H
/* The report for people: report.md, report.txt and the headline they
 * and report.json share. */
#include "report/report.h"
#include "util/strbuf.h"

/* What got slower, in one line: problems first when there are any, then
 * each flagged file with base -> head CPU, ratio and delta (or that nothing
 * got slower beyond the thresholds).  markdown 0: plain text for a
 * terminal (report.json "headline"); 1: report.md's first line. */
void sc_report_headline(const struct sc_report *r, int markdown, struct strbuf *out);

void sc_report_to_md(const struct sc_report *r, struct strbuf *out);
/* report.txt: the headline and the tables of report.md's first sections,
 * the same figures, plain text aligned for a terminal. */
void sc_report_to_text(const struct sc_report *r, struct strbuf *out);

#endif
