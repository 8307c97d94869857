#ifndef SC_REPORT_MD_H
#define SC_REPORT_MD_H
/* report.md: the report for people, GitHub-flavoured Markdown read
 * top-down (sc-report(1)). */
#include "report/report.h"
#include "util/strbuf.h"

void sc_report_to_md(const struct sc_report *r, struct strbuf *out);

#endif
