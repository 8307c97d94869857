/* profile-run --attribute's runs in the report (Documentation/
 * measurement.txt "Attribution"): each kept profile read, bounded, and
 * summed; base and head matched by declaration name.  Nothing here touches
 * a verdict or a CPU figure. */
#include "report/report_attr.h"
#include "report/report.h"
#include "util/die.h"
#include "util/pathcheck.h"
#include "util/safefile.h"
#include "util/spawn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct sc_report_file *file_of(struct sc_report *r, const char *id)
{
	for (size_t i = 0; i < r->n_files; i++)
		if (strcmp(r->files[i].f->id, id) == 0)
			return &r->files[i];
	return NULL;
}

/* Lean's profile at DIR/PROFILE summed into SD by DEADLINE, or why not in
 * its note. */
static void sum_profile(struct sc_report_attr_side *sd, const char *dir, const char *profile,
                        double deadline)
{
	char *path = sc_path_join(dir, profile);
	struct strbuf data = STRBUF_INIT, why = STRBUF_INIT, bad = STRBUF_INIT;
	if (sc_read_file(path, &data, SC_ATTR_MAX_BYTES) < 0)
		sb_addf(&why, "Lean's profile could not be read: %s",
		        errno == EFBIG ? "too large" : sc_errno_text(errno));
	else if (sc_attr_parse(data.buf, data.len, deadline, &sd->a, &bad) == 0)
		sd->summed = 1;
	else
		sb_addf(&why, "Lean's profile was not read: %s", bad.buf);
	sb_release(&bad);
	if (why.len) {
		char *old = sd->note;
		sd->note = old ? xasprintf("%s; %s", old, why.buf) : xstrdup(why.buf);
		free(old);
	}
	sb_release(&data);
	sb_release(&why);
	free(path);
}

int sc_report_attach_attribution(struct sc_report *r, const struct sc_attr_list *l,
                                 const char *dir, double seconds, struct strbuf *why)
{
	double deadline = sc_monotonic_now() + seconds;
	if (r->run_id && strcmp(l->run_id, r->run_id) != 0) {
		sb_addf(why, "the attribution runs are of run %s, not %s", l->run_id, r->run_id);
		return -1;
	}
	const struct sc_report_runner *rn = NULL; /* merged: the runner whose runs these are */
	for (size_t i = 0; i < r->n_runners && !rn; i++)
		if (strcmp(r->runners[i].run_id, l->run_id) == 0)
			rn = &r->runners[i];
	if (r->n_runners && !rn) {
		sb_addf(why, "the attribution runs are of run %s, no runner's", l->run_id);
		return -1;
	}
	r->attribution = 1;
	for (size_t i = 0; i < l->n; i++) {
		const struct sc_attr_run *a = &l->v[i];
		struct sc_report_file *rf = file_of(r, a->id);
		if (!rf || !sc_change_on_side(rf->f->change, a->side)) {
			sb_addf(why, "an attribution run of %s:%s, which the plan does not measure",
			        sc_side_name(a->side), a->id);
			return -1;
		}
		if (rn && rf->f->shard != rn->shard) {
			sb_addf(why, "an attribution run of %s:%s by shard %u's runner, not shard %u's",
			        sc_side_name(a->side), a->id, rn->shard, rf->f->shard);
			return -1;
		}
		struct sc_report_attr_side *sd = &rf->attr[a->side];
		if (sd->ran) {
			sb_addf(why, "two attribution runs of %s:%s", sc_side_name(a->side), a->id);
			return -1;
		}
		rf->attributed = sd->ran = 1;
		sd->has_figures = a->has_figures;
		sd->cpu_ms = a->cpu_ms;
		sd->wall_ms = a->wall_ms;
		sd->note = a->note ? xstrdup(a->note) : NULL;
		if (a->profile)
			sum_profile(sd, dir, a->profile, deadline);
	}
	return 0;
}

static int by_name(const void *x, const void *y)
{
	return strcmp((*(const struct sc_attr_sum *const *)x)->name,
	              (*(const struct sc_attr_sum *const *)y)->name);
}

static const struct sc_attr_sum **sorted(const struct sc_attr_sum *v, size_t n)
{
	const struct sc_attr_sum **p = xcalloc(n + 1, sizeof *p);
	for (size_t i = 0; i < n; i++)
		p[i] = &v[i];
	qsort(p, n, sizeof *p, by_name);
	return p;
}

/* Every name of either side, once, with both times: a merge by name. */
static size_t join(const struct sc_attr_sum *b, size_t nb, const struct sc_attr_sum *h, size_t nh,
                   struct sc_report_attr_row *out)
{
	const struct sc_attr_sum **sb = sorted(b, nb), **sh = sorted(h, nh);
	size_t i = 0, j = 0, n = 0;
	while (i < nb || j < nh) {
		int c = i == nb ? 1 : j == nh ? -1 : strcmp(sb[i]->name, sh[j]->name);
		struct sc_report_attr_row *row = &out[n++];
		memset(row, 0, sizeof *row);
		if (c <= 0) {
			row->name = sb[i]->name;
			row->base_ms = sb[i++]->ms;
			row->on_base = 1;
		}
		if (c >= 0) {
			row->name = sh[j]->name;
			row->head_ms = sh[j++]->ms;
			row->on_head = 1;
		}
	}
	free(sb);
	free(sh);
	return n;
}

static int by_growth(const void *x, const void *y)
{
	const struct sc_report_attr_row *a = x, *b = y;
	double ga = a->head_ms - a->base_ms, gb = b->head_ms - b->base_ms;
	return ga != gb ? (ga < gb ? 1 : -1) : strcmp(a->name, b->name);
}

static int by_base(const void *x, const void *y)
{
	const struct sc_report_attr_row *a = x, *b = y;
	return a->base_ms != b->base_ms ? (a->base_ms < b->base_ms ? 1 : -1) : strcmp(a->name, b->name);
}

static int by_head(const void *x, const void *y)
{
	const struct sc_report_attr_row *a = x, *b = y;
	return a->head_ms != b->head_ms ? (a->head_ms < b->head_ms ? 1 : -1) : strcmp(a->name, b->name);
}

void sc_report_attr_rows(const struct sc_report_file *rf, int cats, struct sc_report_attr_row **rows,
                         size_t *n, size_t *n_grown)
{
	static const struct sc_attr empty;
	const struct sc_attr *b = rf->attr[SC_SIDE_BASE].summed ? &rf->attr[SC_SIDE_BASE].a : &empty;
	const struct sc_attr *h = rf->attr[SC_SIDE_HEAD].summed ? &rf->attr[SC_SIDE_HEAD].a : &empty;
	const struct sc_attr_sum *bv = cats ? b->cats : b->decls, *hv = cats ? h->cats : h->decls;
	size_t nb = cats ? b->n_cats : b->n_decls, nh = cats ? h->n_cats : h->n_decls;
	struct sc_report_attr_row *all = xcalloc(nb + nh + 1, sizeof *all);
	size_t m = join(bv, nb, hv, nh, all);
	*rows = all;
	*n_grown = 0;
	if (cats) {
		qsort(all, m, sizeof *all, by_head);
		*n = m;
		return;
	}
	qsort(all, m, sizeof *all, by_growth);
	size_t grown = 0;
	while (grown < m && grown < SC_REPORT_ATTR_TOP && all[grown].head_ms > all[grown].base_ms)
		grown++;
	/* then the declarations gone from the head, most expensive first */
	size_t gone = grown;
	for (size_t i = grown; i < m; i++)
		if (!all[i].on_head)
			all[gone++] = all[i];
	qsort(all + grown, gone - grown, sizeof *all, by_base);
	if (gone - grown > SC_REPORT_ATTR_TOP)
		gone = grown + SC_REPORT_ATTR_TOP;
	*n = gone;
	*n_grown = grown;
}
