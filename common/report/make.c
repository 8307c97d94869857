#include "report/make.h"
#include "contract/plan.h"
#include "report/report.h"
#include "report/sample_file.h"
#include "util/die.h"
#include "util/strbuf.h"

#include <stdlib.h>

/* The exit status: 1 and one line naming the first problem when the
 * measurement is incomplete. */
static int outcome(const struct sc_report *r, const char *out_dir)
{
	if (!r->n_problems)
		return SC_EXIT_OK;
	const struct sc_problem *p = &r->problems[0];
	char *json_path = sc_report_out_path(out_dir, "report.json");
	sc_error("measurement incomplete: %zu problem%s, first: %s %s (%s)", r->n_problems,
	         r->n_problems == 1 ? "" : "s", p->sample, p->kind, json_path);
	free(json_path);
	return SC_EXIT_FAIL;
}

int sc_report_make(const struct sc_report_args *a)
{
	struct sc_thresholds th;
	struct strbuf err = STRBUF_INIT;
	if (sc_report_args_check(a, &th, &err) < 0)
		sc_die("%s", err.buf);

	struct sc_plan plan;
	struct strbuf raw = STRBUF_INIT;
	sc_plan_load_or_die(a->plan, &plan, &raw);
	char digest[65];
	sc_plan_digest(raw.buf, raw.len, digest);
	sb_release(&raw);

	struct sc_sample_set in = {0};
	sc_sample_set_load_or_die(&in, a->samples.v, a->samples.n, a->out_dir);
	struct sc_report_env env;
	if (sc_report_env_init(&env, a, &err) < 0)
		sc_die_sys("%s", err.buf);

	struct sc_report r;
	sc_report_init(&r, &plan, digest, a->run_id, &th, &env);
	sc_report_bind(&r, in.v, in.n);
	sc_report_write_files(&r, a->out_dir);
	int rc = outcome(&r, a->out_dir);

	sc_report_free(&r);
	sc_report_env_release(&env);
	sc_sample_set_free(&in);
	sc_plan_free(&plan);
	sb_release(&err);
	return rc;
}
