#include "porcelain/state.h"
#include "porcelain/stage.h"
#include "util/die.h"

#include <stdlib.h>

void sc_run_stop_if_interrupted(const struct sc_run *r)
{
	sc_stage_stop_if_interrupted(r->ws ? r->ws : r->o.workspace);
}

/* S recorded (porcelain/samples.h), unless the run was interrupted
 * meanwhile.  Returns S->ok. */
int sc_run_record(struct sc_run *r, struct sc_sample *s)
{
	sc_run_stop_if_interrupted(r);
	return sc_samples_record(&r->samples, s);
}

void sc_run_sample_figures(const struct sc_display *d, const struct sc_sample *s,
                           struct strbuf *out)
{
	long long cpu = 0, wall = 0;
	(void)sc_sample_compared_ms(s, &cpu);
	(void)sc_seconds_to_ms(s->wall_s, &wall);
	sc_format_ms_floor(cpu, d->sec_decimals, out);
	sb_adds(out, " s CPU, ");
	sc_format_wall(wall, out);
	sb_adds(out, " s wall");
}
