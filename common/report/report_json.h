#ifndef SC_REPORT_JSON_H
#define SC_REPORT_JSON_H
/* report.json ("sphereceti.report/1", sc-report(1)), written by yajl,
 * and the one member read back from it. */
#include "report/report.h"
#include "util/strbuf.h"

void sc_report_to_json(const struct sc_report *r, struct strbuf *out);
/* A written report.json's "headline" (one printable line); 0 or -1. */
int sc_report_read_headline(const char *json_path, struct strbuf *out);

#endif
