#ifndef SC_REPORT_TEXT_H
#define SC_REPORT_TEXT_H
/* report.txt: the headline and the tables of report.md's first sections,
 * the same figures, plain text aligned for a terminal. */
#include "report/report.h"
#include "util/strbuf.h"

void sc_report_to_text(const struct sc_report *r, struct strbuf *out);

#endif
