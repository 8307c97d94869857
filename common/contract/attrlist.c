#include "contract/attrlist.h"
#include "contract/plan.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

void sc_attr_list_add(struct sc_attr_list *l, const struct sc_attr_run *run)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	struct sc_attr_run *d = &l->v[l->n++];
	*d = *run;
	d->id = xstrdup(run->id);
	d->profile = run->profile ? xstrdup(run->profile) : NULL;
	d->note = run->note ? xstrdup(run->note) : NULL;
}

void sc_attr_list_to_json(const struct sc_attr_list *l, struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(1);
	sc_json_map_open(g);
	sc_json_kv_str(g, "schema", SC_ATTRLIST_SCHEMA);
	sc_json_kv_str(g, "run_id", l->run_id);
	sc_json_kv_array_open(g, "runs");
	for (size_t i = 0; i < l->n; i++) {
		const struct sc_attr_run *a = &l->v[i];
		sc_json_map_open(g);
		sc_json_kv_str(g, "id", a->id);
		sc_json_kv_str(g, "side", sc_side_name(a->side));
		sc_json_kv_str_or_null(g, "profile", a->profile);
		if (a->has_figures) {
			sc_json_kv_fixed(g, "cpu_s", (double)a->cpu_ms / 1000, 3);
			sc_json_kv_fixed(g, "wall_s", (double)a->wall_ms / 1000, 3);
		} else {
			sc_json_kv_null(g, "cpu_s");
			sc_json_kv_null(g, "wall_s");
		}
		sc_json_kv_str_or_null(g, "note", a->note);
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	sc_json_map_close(g);
	sc_json_finish(g, out);
}

/* A kept profile's path: SC_ATTRLIST_DIR/NAME, NAME one plain component. */
static int kept_path(const char *p)
{
	size_t n = strlen(SC_ATTRLIST_DIR);
	return strncmp(p, SC_ATTRLIST_DIR "/", n + 1) == 0 && p[n + 1] && p[n + 1] != '.' &&
	       !strchr(p + n + 1, '/');
}

static int one_run(yajl_val v, struct sc_attr_run *a, struct strbuf *why)
{
	const char *id, *side, *profile, *note;
	yajl_val cpu = sc_json_member(v, "cpu_s"), wall = sc_json_member(v, "wall_s");
	if (sc_json_get_str(v, "id", &id, why) < 0 || sc_json_get_str(v, "side", &side, why) < 0 ||
	    sc_json_get_str_or_null(v, "profile", &profile, why) < 0 ||
	    sc_json_get_str_or_null(v, "note", &note, why) < 0)
		return -1;
	if (strcmp(side, "base") != 0 && strcmp(side, "head") != 0) {
		sb_addf(why, "side \"%s\" is neither base nor head", side);
		return -1;
	}
	if (profile && !kept_path(profile)) {
		sb_addf(why, "profile \"%s\" is not a file of %s/", profile, SC_ATTRLIST_DIR);
		return -1;
	}
	if (!cpu || !wall || YAJL_IS_NULL(cpu) != YAJL_IS_NULL(wall) ||
	    (!YAJL_IS_NULL(cpu) && (!YAJL_IS_NUMBER(cpu) || !YAJL_IS_NUMBER(wall)))) {
		sb_adds(why, "cpu_s and wall_s must be two numbers or two nulls");
		return -1;
	}
	memset(a, 0, sizeof *a);
	a->id = (char *)id;
	a->side = strcmp(side, "head") == 0 ? SC_SIDE_HEAD : SC_SIDE_BASE;
	a->profile = (char *)profile;
	a->note = (char *)note;
	a->has_figures = !YAJL_IS_NULL(cpu);
	if (a->has_figures) {
		double c = YAJL_GET_DOUBLE(cpu), w = YAJL_GET_DOUBLE(wall);
		if (!(c >= 0 && c < 1e9 && w >= 0 && w < 1e9)) {
			sb_adds(why, "cpu_s or wall_s out of range");
			return -1;
		}
		a->cpu_ms = (long long)(c * 1000 + 0.5);
		a->wall_ms = (long long)(w * 1000 + 0.5);
	}
	return 0;
}

int sc_attr_list_from_json(const char *buf, size_t len, struct sc_attr_list *l, struct strbuf *why)
{
	memset(l, 0, sizeof *l);
	yajl_val root = sc_json_parse(buf, len, why);
	if (!root)
		return -1;
	const char *schema, *run_id;
	yajl_val runs = sc_json_member(root, "runs");
	int rc = -1;
	if (sc_json_get_str(root, "schema", &schema, why) < 0 ||
	    sc_json_get_str(root, "run_id", &run_id, why) < 0)
		goto out;
	if (strcmp(schema, SC_ATTRLIST_SCHEMA) != 0) {
		sb_addf(why, "schema \"%s\" is not %s", schema, SC_ATTRLIST_SCHEMA);
		goto out;
	}
	if (!runs || !YAJL_IS_ARRAY(runs)) {
		sb_adds(why, "field \"runs\" missing or not an array");
		goto out;
	}
	l->run_id = xstrdup(run_id);
	for (size_t i = 0; i < runs->u.array.len; i++) {
		struct sc_attr_run a;
		if (one_run(runs->u.array.values[i], &a, why) < 0) {
			sb_addf(why, " (run %zu)", i + 1);
			goto out;
		}
		sc_attr_list_add(l, &a);
	}
	rc = 0;
out:
	yajl_tree_free(root);
	if (rc < 0)
		sc_attr_list_free(l);
	return rc;
}

void sc_attr_list_free(struct sc_attr_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].id);
		free(l->v[i].profile);
		free(l->v[i].note);
	}
	free(l->v);
	free(l->run_id);
	memset(l, 0, sizeof *l);
}
