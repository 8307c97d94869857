#ifndef SC_ATTRLIST_H
#define SC_ATTRLIST_H
/* What profile-run --attribute hands sc-report: the attribution runs made
 * (one a side of each flagged file), each with where Lean's profile was
 * kept and the run's own CPU, which is no sample.  JSON schema
 * "sphereceti.attribution/1", one document:
 * {"schema": "sphereceti.attribution/1", "run_id": hex32,
 *  "runs": [{"id": "A.B", "side": "base"|"head",
 *            "profile": "attribution/<side>-<id>.json" | null,
 *            "cpu_s": n|null, "wall_s": n|null, "note": null | "why"}]}
 * profile, relative to the document's folder, is null when the run made
 * none that could be kept; note then says why (or why the run did not
 * run at all).  Documentation/measurement.txt "Attribution". */
#include <stddef.h>
#include "util/strbuf.h"

#define SC_ATTRLIST_SCHEMA "sphereceti.attribution/1"
/* The folder the profiles are kept in, inside the workspace. */
#define SC_ATTRLIST_DIR "attribution"

struct sc_attr_run {
	char *id;
	int side;         /* enum sc_side */
	char *profile;    /* NULL: none kept */
	int has_figures;  /* the run ran: cpu_ms and wall_ms hold */
	long long cpu_ms, wall_ms;
	char *note;       /* NULL, or why there is no profile */
};

struct sc_attr_list {
	char *run_id;
	struct sc_attr_run *v;
	size_t n;
};

void sc_attr_list_add(struct sc_attr_list *l, const struct sc_attr_run *run);
void sc_attr_list_to_json(const struct sc_attr_list *l, struct strbuf *out);
/* -1 with WHY when BUF is not such a document (a profile path outside
 * SC_ATTRLIST_DIR/ included). */
int sc_attr_list_from_json(const char *buf, size_t len, struct sc_attr_list *l, struct strbuf *why);
void sc_attr_list_free(struct sc_attr_list *l);

#endif
