#ifndef SC_REPORT_ATTR_H
#define SC_REPORT_ATTR_H
/* Lean's profiles of the attribution runs joined to the report
 * (Documentation/measurement.txt "Attribution"): read bounded, summed,
 * and compared per file. */
#include "contract/attrlist.h"
#include "report/report.h"
#include "util/strbuf.h"

/* A row of a file's attribution: a declaration's (or a category's) time
 * on each side; absent on a side: 0 ms and on_* 0. */
struct sc_report_attr_row {
	const char *name;
	double base_ms, head_ms;
	int on_base, on_head;
};

/* The attribution runs of L (its folder DIR) joined to their files: each
 * profile read (bounded in bytes, and all of them in SECONDS) and summed,
 * or its note says why not.  -1 with
 * WHY when L names a file or side the plan has not, twice the same, or a
 * run ID other than the report's. */
int sc_report_attach_attribution(struct sc_report *r, const struct sc_attr_list *l,
                                 const char *dir, double seconds, struct strbuf *why);
/* A file's attribution compared: into *ROWS (allocated) the declarations
 * whose time grew most, largest increase first (new ones among them), at
 * most SC_REPORT_ATTR_TOP, then those gone from the head, most expensive
 * first, at most as many; *N_GROWN of them the former.  CATS: the
 * categories instead, every one, by head time. */
#define SC_REPORT_ATTR_TOP 5
void sc_report_attr_rows(const struct sc_report_file *rf, int cats, struct sc_report_attr_row **rows,
                         size_t *n, size_t *n_grown);

#endif
