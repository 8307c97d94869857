#ifndef SC_REPORT_MAKE_H
#define SC_REPORT_MAKE_H
/* sc-report's work (sc-report(1)): every argument checked, then the plan
 * and the samples read, bound, judged and written as report.json and
 * report.md in the output directory. */
#include "report/report_args.h"

/* Bad arguments or unreadable or unparseable input die with 2 before
 * anything is written; reports that cannot be written die with 3.
 * Returns the exit code: 0 for a complete report, whatever it flags; 1,
 * with one error line naming the first problem, when a sample is missing,
 * rejected or an error (the report is written all the same). */
int sc_report_make(const struct sc_report_args *a);

#endif
