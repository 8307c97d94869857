#include "porcelain/state.h"
#include "porcelain/stage.h"
#include "porcelain/workspace.h"
#include "util/die.h"

#include <stdlib.h>

void sc_run_stop_if_interrupted(const struct sc_run *r)
{
	int sig = sc_stage_interrupted();
	/* 128+N is the shell's code for death by signal N: no named die
	 * function fits it. */
	if (sig)
		sc_die_code(128 + sig, "interrupted by signal %d; the workspace is incomplete (%s)", sig,
		            r->ws ? r->ws : r->o.workspace);
}

void sc_run_push_bwrap(const struct sc_run *r, struct sc_argv *a, int sandbox)
{
	if (r->o.bwrap) {
		sc_argv_push(a, "--bwrap");
		sc_argv_push(a, r->o.bwrap);
	}
	if (!sandbox)
		return;
	sc_argv_push(a, "--sandbox-user");
	sc_argv_push(a, r->o.sandbox_user);
	if (r->o.tmp_size) {
		sc_argv_push(a, "--tmp-size");
		sc_argv_push(a, r->o.tmp_size);
	}
	if (r->o.max_procs) {
		sc_argv_push(a, "--max-procs");
		sc_argv_push(a, r->o.max_procs);
	}
}

char *sc_run_tree(const struct sc_run *r, int side)
{
	return xasprintf("%s/%s", r->ws, sc_side_name(side));
}


char *sc_run_log_path(const struct sc_run *r, int side, const char *name)
{
	char *stem = sc_workspace_stem(sc_side_name(side), name);
	char *path = xasprintf("%s/logs/%s.log", r->ws, stem);
	free(stem);
	return path;
}

char *sc_run_output_hint(const struct sc_run *r, int side, const char *name)
{
	if (!r->o.keep_logs)
		return xstrdup(r->o.keep_logs_hint);
	char *stem = sc_workspace_stem(sc_side_name(side), name);
	char *hint = xasprintf("Lake's output: logs/%s.log", stem);
	free(stem);
	return hint;
}

/* S recorded (porcelain/samples.h), unless the run was interrupted
 * meanwhile.  Returns S->ok. */
int sc_run_record(struct sc_run *r, struct sc_sample *s)
{
	sc_run_stop_if_interrupted(r);
	return sc_samples_record(&r->samples, s);
}

/* The sample "<side>:<id>" is REASON with DETAIL: nothing measured. */
void sc_run_record_unmeasured(struct sc_run *r, int side, const char *id, const char *reason,
                              const char *detail)
{
	sc_run_stop_if_interrupted(r);
	sc_samples_unmeasured(&r->samples, side, id, reason, detail);
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
