#ifndef SC_REPORT_FILES_H
#define SC_REPORT_FILES_H
/* The report files in the output folder, in their order (sc-report(1)
 * FILES). */
#include "report/report.h"
#include "util/strbuf.h"

/* Writes DIR/report.md, DIR/report.txt and DIR/report.json (sc-report(1)
 * FILES): an old report.json goes away first and the new one comes last,
 * so a report.json always has its own report.md and report.txt beside it.  Dies with exit 3 when they
 * cannot be written (a full disk, an unwritable folder). */
void sc_report_write_files(const struct sc_report *r, const char *dir);

#endif
