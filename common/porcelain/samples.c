#include "porcelain/samples.h"
#include "contract/rawsample.h"
#include "util/die.h"

#include <stdlib.h>
#include <string.h>

void sc_samples_init(struct sc_samples *sm, const struct sc_plan *plan, const char *run_id,
                     const char *digest)
{
	sm->plan = plan;
	sm->run_id = run_id;
	sm->digest = digest;
	sm->shard = 0;
	sb_init(&sm->lines);
	sm->cpu = xcalloc(plan->n_files + 1, sizeof *sm->cpu);
	sm->failed = 0;
}

void sc_samples_release(struct sc_samples *sm)
{
	sb_release(&sm->lines);
	free(sm->cpu);
}

/* An ok sample of a plan file: its compared CPU kept, the first apart. */
static void add_cpu(struct sc_samples *sm, const struct sc_sample *s)
{
	int side;
	const char *id;
	long long ms;
	if (sc_sample_id_split(s->sample, &side, &id) < 0 || sc_sample_compared_ms(s, &ms) < 0)
		return;
	for (size_t i = 0; i < sm->plan->n_files; i++) {
		if (strcmp(sm->plan->files[i].id, id) != 0)
			continue;
		struct sc_file_cpu *c = &sm->cpu[i];
		if (!s->repeat) {
			c->ms[side] = ms;
			c->ok[side] = 1;
		}
		if (c->n[side] <= SC_MAX_REPEATS)
			c->all[side][c->n[side]++] = ms;
		return;
	}
}

const struct sc_file_cpu *sc_samples_cpu(const struct sc_samples *sm, const struct sc_plan_file *f)
{
	return &sm->cpu[f - sm->plan->files];
}

void sc_samples_bind(const struct sc_samples *sm, int side, const char *id, unsigned repeat,
                     struct sc_sample *s)
{
	memset(s, 0, sizeof *s);
	s->run_id = xstrdup(sm->run_id);
	s->plan_digest = xstrdup(sm->digest);
	s->revision = xstrdup(sc_plan_side_rev(sm->plan, side));
	s->sample = xasprintf("%s:%s", sc_side_name(side), id);
	s->repeat = repeat;
	s->shard = sm->shard;
}

int sc_samples_record(struct sc_samples *sm, struct sc_sample *s)
{
	sc_sample_bound(s);
	sc_sample_to_json(s, &sm->lines);
	if (!s->ok && !s->repeat) /* a repeat is more evidence, never a failed measurement */
		sm->failed = 1;
	if (s->ok)
		add_cpu(sm, s);
	return s->ok;
}
