#ifndef SC_STATUS_H
#define SC_STATUS_H
/* The status line sc-sandbox-exec prints for one sandboxed run and
 * sc-parse-time reads beside the time file, schema "sphereceti.status/1":
 * {"schema": "sphereceti.status/1", "exit_code": int, "signal": int,
 *  "timed_out": bool, "wall_s": n, "task_clock_s": n|null}
 * (task_clock_s null, or absent, where the host has no perf counter). */
#include <stddef.h>
#include "util/strbuf.h"

#define SC_STATUS_SCHEMA "sphereceti.status/1"

struct sc_status {
	int exit_code; /* -1 when the process was signalled */
	int signal;    /* 0 unless signalled */
	int timed_out;
	double wall_s;
	int has_task_clock; /* task_clock_s counted */
	double task_clock_s;
};

void sc_status_to_json(const struct sc_status *st, struct strbuf *out);
int sc_status_from_json(const char *buf, size_t len, struct sc_status *st, struct strbuf *err);

#endif
