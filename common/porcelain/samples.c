#include "porcelain/samples.h"
#include "contract/rawsample.h"
#include "util/die.h"

#include <string.h>

void sc_samples_init(struct sc_samples *sm, const struct sc_plan *plan, const char *run_id,
                     const char *digest)
{
	sm->plan = plan;
	sm->run_id = run_id;
	sm->digest = digest;
	sb_init(&sm->lines);
	sm->failed = 0;
}

void sc_samples_release(struct sc_samples *sm) { sb_release(&sm->lines); }

void sc_samples_bind(const struct sc_samples *sm, int side, const char *id, struct sc_sample *s)
{
	memset(s, 0, sizeof *s);
	s->run_id = xstrdup(sm->run_id);
	s->plan_digest = xstrdup(sm->digest);
	s->revision = xstrdup(sc_plan_side_rev(sm->plan, side));
	s->sample = xasprintf("%s:%s", sc_side_name(side), id);
	s->repeat = sm->repeat;
}

int sc_samples_record(struct sc_samples *sm, struct sc_sample *s)
{
	sc_sample_bound(s);
	sc_sample_to_json(s, &sm->lines);
	if (!s->ok && !s->repeat) /* a repeat is more evidence, never a failed measurement */
		sm->failed = 1;
	return s->ok;
}

void sc_samples_unmeasured(struct sc_samples *sm, int side, const char *id, const char *reason,
                           const char *detail)
{
	struct sc_sample s;
	sc_samples_bind(sm, side, id, &s);
	sc_sample_unmeasured(&s, reason, detail);
	sc_samples_record(sm, &s);
	sc_sample_free(&s);
}
