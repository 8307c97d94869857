#include "contract/status.h"
#include "util/json.h"

#include <string.h>

void sc_status_to_json(const struct sc_status *st, struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(0);
	sc_json_map_open(g);
	sc_json_kv_str(g, "schema", SC_STATUS_SCHEMA);
	sc_json_kv_int(g, "exit_code", st->exit_code);
	sc_json_kv_int(g, "signal", st->signal);
	sc_json_kv_bool(g, "timed_out", st->timed_out);
	sc_json_kv_fixed(g, "wall_s", st->wall_s, 3);
	if (st->has_task_clock)
		sc_json_kv_fixed(g, "task_clock_s", st->task_clock_s, 3);
	else
		sc_json_kv_null(g, "task_clock_s");
	sc_json_map_close(g);
	sc_json_finish(g, out);
}

int sc_status_from_json(const char *buf, size_t len, struct sc_status *st, struct strbuf *err)
{
	static const char *const keys[] = {"schema", "exit_code", "signal", "timed_out", "wall_s",
	                                   "task_clock_s", NULL};
	memset(st, 0, sizeof *st);
	yajl_val v = sc_json_parse(buf, len, err);
	if (!v)
		return -1;
	int rc = -1;
	const char *schema;
	long long code, sig;
	if (sc_json_only_keys(v, keys, "the status line", err) < 0 ||
	    sc_json_get_str(v, "schema", &schema, err) < 0)
		goto out;
	if (strcmp(schema, SC_STATUS_SCHEMA) != 0) {
		sb_addf(err, "unsupported status schema \"%s\"", schema);
		goto out;
	}
	if (sc_json_get_int(v, "exit_code", &code, err) < 0 ||
	    sc_json_get_int(v, "signal", &sig, err) < 0 ||
	    sc_json_get_bool(v, "timed_out", &st->timed_out, err) < 0 ||
	    sc_json_get_num(v, "wall_s", &st->wall_s, err) < 0)
		goto out;
	yajl_val clock = sc_json_member(v, "task_clock_s");
	if (clock && !YAJL_IS_NULL(clock)) {
		if (sc_json_get_num(v, "task_clock_s", &st->task_clock_s, err) < 0)
			goto out;
		st->has_task_clock = 1;
	}
	if (code < -1 || code > 255 || sig < 0 || sig > 64 || st->wall_s < 0 ||
	    (st->has_task_clock && !(st->task_clock_s >= 0 && st->task_clock_s <= 1e9))) {
		sb_adds(err, "status line has an out-of-range value");
		goto out;
	}
	st->exit_code = (int)code;
	st->signal = (int)sig;
	rc = 0;
out:
	yajl_tree_free(v);
	return rc;
}
