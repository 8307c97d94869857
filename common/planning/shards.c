/* Documentation/measurement.txt "Shards". */
#include "planning/shards.h"
#include "util/die.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

unsigned sc_shards_auto(const struct sc_plan *p)
{
	size_t changed = 0;
	for (size_t i = 0; i < p->n_files; i++)
		changed += p->files[i].change != SC_CHANGE_IMPORTER;
	size_t per = sc_plan_files_per_shard(p), n = (changed + per - 1) / per;
	if (n > sc_plan_max_shards(p))
		n = sc_plan_max_shards(p);
	return n ? (unsigned)n : 1;
}

/* V's text, "" when V is no string. */
static const char *text_of(yajl_val v)
{
	const char *t = v && YAJL_IS_STRING(v) ? YAJL_GET_STRING(v) : NULL;
	return t ? t : "";
}

/* A side's CPU in a report's file entry, in ms, or -1. */
static long long side_ms(yajl_val f, const char *side)
{
	yajl_val sd = sc_json_member(f, side), st = sc_json_member(sd, "status"),
	         cpu = sc_json_member(sd, "cpu_s");
	if (strcmp(text_of(st), "ok") != 0 || !cpu ||
	    !YAJL_IS_NUMBER(cpu) || YAJL_GET_DOUBLE(cpu) < 0 || YAJL_GET_DOUBLE(cpu) > 1e9)
		return -1;
	return (long long)(YAJL_GET_DOUBLE(cpu) * 1000);
}

int sc_shards_costs_read(const char *buf, size_t len, const struct sc_plan *p, long long *ms,
                         struct strbuf *why)
{
	for (size_t i = 0; i < p->n_files; i++)
		ms[i] = -1;
	yajl_val root = sc_json_parse(buf, len, why);
	if (!root)
		return -1;
	yajl_val schema = sc_json_member(root, "schema"), files = sc_json_member(root, "files");
	int rc = 0;
	if (strcmp(text_of(schema), "sphereceti.report/1") != 0 || !files || !YAJL_IS_ARRAY(files)) {
		sb_adds(why, "not a sphereceti.report/1 with its files");
		rc = -1;
	}
	for (size_t k = 0; rc == 0 && k < files->u.array.len; k++) {
		yajl_val f = files->u.array.values[k], id = sc_json_member(f, "id");
		const struct sc_plan_file *pf = sc_plan_find(p, text_of(id));
		if (!pf)
			continue; /* a file this plan does not measure */
		long long b = side_ms(f, "base"), h = side_ms(f, "head");
		if (b >= 0 || h >= 0)
			ms[pf - p->files] = (b >= 0 ? b : h) + (h >= 0 ? h : b);
	}
	yajl_tree_free(root);
	return rc;
}

void sc_shards_costs_mix(size_t n, const unsigned long long *bytes, const long long *ms,
                         unsigned long long *cost)
{
	unsigned long long known_ms = 0, known_bytes = 0;
	for (size_t i = 0; ms && i < n; i++)
		if (ms[i] >= 0)
			known_ms += (unsigned long long)ms[i], known_bytes += bytes[i];
	for (size_t i = 0; i < n; i++) {
		if (ms && ms[i] >= 0)
			cost[i] = (unsigned long long)ms[i];
		else if (ms && known_bytes)
			cost[i] = (unsigned long long)((double)bytes[i] * (double)known_ms / (double)known_bytes);
		else
			cost[i] = bytes[i];
	}
}

static size_t root_of(size_t *up, size_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

/* The smaller index leads, so that a group is named by its first file. */
static void join(size_t *up, size_t a, size_t b)
{
	a = root_of(up, a), b = root_of(up, b);
	if (a != b)
		up[a > b ? a : b] = a < b ? a : b;
}

/* The plan's file at each node of MG (its index + 1), 0 for the others. */
static size_t *files_at_nodes(const struct sc_plan *p, const struct sc_modgraph *mg)
{
	size_t *at = xcalloc(mg->n ? mg->n : 1, sizeof *at);
	for (size_t i = 0; i < p->n_files; i++) {
		long v = p->files[i].change == SC_CHANGE_REMOVED ? -1
		                                                  : sc_modgraph_find(mg, p->files[i].module);
		if (v >= 0)
			at[v] = i + 1;
	}
	return at;
}

/* Joins file F (at node FROM) with every file its import cone holds: a
 * walk of the edges, each node once (STAMP[v] == F + 1 once seen). */
static void join_cone(const struct sc_modgraph *mg, const size_t *at, size_t f, size_t from,
                      size_t *stamp, size_t *stack, size_t *up)
{
	size_t top = 0;
	stack[top++] = from;
	stamp[from] = f + 1;
	while (top) {
		const struct sc_modnode *m = &mg->m[stack[--top]];
		for (size_t k = 0; k < m->n; k++) {
			size_t v = mg->edges[m->first + k];
			if (stamp[v] == f + 1)
				continue;
			stamp[v] = f + 1;
			if (at[v])
				join(up, f, at[v] - 1);
			stack[top++] = v;
		}
	}
}

void sc_shards_group(const struct sc_plan *p, const struct sc_modgraph *mg, size_t *group)
{
	for (size_t i = 0; i < p->n_files; i++)
		group[i] = mg->unreadable ? 0 : i;
	if (mg->unreadable || !mg->n)
		return;
	size_t *at = files_at_nodes(p, mg);
	size_t *stamp = xcalloc(mg->n, sizeof *stamp), *stack = xcalloc(mg->n, sizeof *stack);
	for (size_t v = 0; v < mg->n; v++)
		if (at[v])
			join_cone(mg, at, at[v] - 1, v, stamp, stack, group);
	for (size_t i = 0; i < p->n_files; i++)
		group[i] = root_of(group, i);
	free(at);
	free(stamp);
	free(stack);
}

struct lot {
	size_t first; /* its first file: the group's name */
	unsigned long long cost;
};

static int costliest_first(const void *a, const void *b)
{
	const struct lot *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

unsigned sc_shards_deal(struct sc_plan *p, const size_t *group, const unsigned long long *cost,
                        unsigned n)
{
	size_t nf = p->n_files, nl = 0;
	struct lot *lots = xcalloc(nf ? nf : 1, sizeof *lots);
	size_t *lot_of = xcalloc(nf ? nf : 1, sizeof *lot_of); /* a group's lot, + 1 */
	for (size_t i = 0; i < nf; i++) {
		size_t g = group[i];
		if (!lot_of[g])
			lots[nl].first = g, lot_of[g] = ++nl;
		lots[lot_of[g] - 1].cost += cost[i];
	}
	unsigned count = n < nl ? n : (unsigned)nl;
	p->n_shards = count > 1 ? count : 0;
	for (size_t i = 0; i < nf; i++)
		p->files[i].shard = 0;
	if (p->n_shards) {
		qsort(lots, nl, sizeof *lots, costliest_first);
		unsigned long long *load = xcalloc(count, sizeof *load);
		unsigned *shard_of = xcalloc(nf, sizeof *shard_of); /* by the group's first file */
		for (size_t l = 0; l < nl; l++) {
			/* the costliest COUNT groups a shard each, even at cost 0:
			 * no shard is empty */
			unsigned best = l < count ? (unsigned)l : 0;
			for (unsigned k = 1; l >= count && k < count; k++)
				if (load[k] < load[best])
					best = k;
			load[best] += lots[l].cost;
			shard_of[lots[l].first] = best + 1;
		}
		for (size_t i = 0; i < nf; i++)
			p->files[i].shard = shard_of[group[i]];
		free(load);
		free(shard_of);
	}
	free(lots);
	free(lot_of);
	return count ? count : 1;
}
