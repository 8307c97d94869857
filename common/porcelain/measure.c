#include "porcelain/measure.h"
#include "contract/rawsample.h"
#include "porcelain/stage.h"

int sc_recorder_record(const struct sc_recorder *rec, struct sc_sample *s)
{
	sc_stage_stop_if_interrupted(rec->workspace);
	return sc_samples_record(rec->samples, s);
}

void sc_recorder_said(const struct sc_recorder *rec, int side, const char *path,
                      struct sc_sample *s, const char *line)
{
	unsigned repeat = s->repeat;
	sc_recorder_record(rec, s);
	if (repeat)
		sc_progress_say(rec->progress, "%s %s, repeat %u: %s", sc_side_name(side), path, repeat,
		                line);
	else
		sc_progress_say(rec->progress, "%s %s: %s", sc_side_name(side), path, line);
	sc_sample_free(s);
}

void sc_recorder_unmeasured(const struct sc_recorder *rec, int side, const struct sc_plan_file *f,
                            enum sc_sample_error reason, const char *detail, const char *line)
{
	struct sc_sample s;
	sc_samples_bind(rec->samples, side, f->id, 0, &s);
	sc_sample_unmeasured(&s, reason, detail);
	sc_recorder_said(rec, side, f->path, &s, line);
}

void sc_sample_figures(const struct sc_display *d, const struct sc_sample *s, struct strbuf *out)
{
	long long cpu = 0, wall = 0;
	(void)sc_sample_compared_ms(s, &cpu);
	(void)sc_seconds_to_ms(s->wall_s, &wall);
	sc_format_ms_floor(cpu, d->sec_decimals, out);
	sb_adds(out, " s CPU, ");
	sc_format_wall(wall, out);
	sb_adds(out, " s wall");
}
