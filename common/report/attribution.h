#ifndef SC_ATTRIBUTION_H
#define SC_ATTRIBUTION_H
/* Lean's own profile of one elaboration (trace.profiler.output: the
 * Firefox Profiler tables of src/Lean/Util/Profiler.lean), summed per
 * declaration and per category.  The file is written by the candidate's
 * Lean inside the sandbox: whatever it holds is read in bounded bytes,
 * entries, depth and time, strictly (no comments, valid UTF-8, no NUL,
 * no duplicate member of what is read), and refused with a reason, never
 * guessed.  Documentation/measurement.txt "Attribution",
 * threat-model.txt "Lean's profile". */
#include <stddef.h>
#include "util/strbuf.h"

#define SC_ATTR_MAX_BYTES (32u << 20)
/* numbers, strings and nulls in all; each table is bounded by this too */
#define SC_ATTR_MAX_ENTRIES 2000000u
/* the tables sit at depth 5 (threads, a thread, a table, an array) */
#define SC_ATTR_MAX_DEPTH 8
/* a declaration's name as kept: its command's first line at most */
#define SC_ATTR_NAME_MAX 120

struct sc_attr_sum {
	char *name; /* printable UTF-8, one line, at most SC_ATTR_NAME_MAX bytes */
	double ms;
};

struct sc_attr {
	/* by ms, largest first, then by name */
	struct sc_attr_sum *decls, *cats;
	size_t n_decls, n_cats;
	double total_ms;   /* every sample's weight */
	double outside_ms; /* of it, under no declaration (imports, the frontend) */
	size_t names_read; /* strings read as a frame's name: each string once, however
	                    * many functions name it (the work follows the bytes) */
};

/* Reading the profiles of one report may take this many seconds in all
 * (Documentation/measurement.txt "Attribution"): a reader of candidate
 * bytes ends in a note, never in a lost run. */
#define SC_ATTR_READ_SECONDS 60

/* Parse BUF (LEN bytes) into A; -1 with WHY (one line) when the file is
 * not a profile we can read, or when sc_monotonic_now() passes DEADLINE
 * (0: none) while it reads. */
int sc_attr_parse(const char *buf, size_t len, double deadline, struct sc_attr *a,
                  struct strbuf *why);
void sc_attr_free(struct sc_attr *a);

/* The declaration a profile frame names (Lean's "CLASS: TAG: MESSAGE"),
 * as kept in a sum; NULL when the frame is not a command's or an async
 * proof's.  Allocated. */
char *sc_attr_decl_name(const char *frame);

#endif
