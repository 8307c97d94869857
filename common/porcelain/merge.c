/* Documentation/measurement.txt "Shards": what merge refuses. */
#include "porcelain/merge.h"
#include "contract/sample.h"
#include "porcelain/workspace.h"
#include "report/sample_file.h"
#include "util/die.h"
#include "util/json.h"
#include "util/safefile.h"
#include "util/sha256.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPORT_MAX (64u << 20)

static char *dup_member(yajl_val obj, const char *key)
{
	yajl_val v = sc_json_member(obj, key);
	return v && YAJL_IS_STRING(v) ? xstrdup(YAJL_GET_STRING(v)) : NULL;
}

/* The shard a report says it is: absent, the one runner of its plan. */
static int take_shard(yajl_val root, struct sc_shard_ws *w, struct strbuf *why)
{
	yajl_val sh = sc_json_member(root, "shard");
	long long k = 1, n = 1;
	if (sh && (sc_json_get_int(sh, "index", &k, why) < 0 ||
	           sc_json_get_int(sh, "count", &n, why) < 0))
		return -1;
	if (k < 1 || k > n || n > SC_MAX_SHARDS) {
		sb_adds(why, "its shard is not K of N");
		return -1;
	}
	w->index = (unsigned)k, w->count = (unsigned)n;
	return 0;
}

static void take_env(yajl_val root, struct sc_shard_ws *w)
{
	yajl_val env = sc_json_member(root, "environment"), th = sc_json_member(root, "thresholds");
	char **slots[] = {&w->lean_version, &w->lean_sha256, &w->lake_sha256, &w->bwrap_sha256,
	                  &w->sandbox_user, &w->server_url, &w->ci_repository, &w->ci_run_id};
	const char *keys[] = {"lean_version", "lean_sha256", "lake_sha256", "bwrap_sha256",
	                      "sandbox_user", "server_url", "ci_repository", "ci_run_id"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		*slots[i] = dup_member(env, keys[i]);
	char *cache = dup_member(env, "lake_artifact_cache");
	w->lake_cache = cache && strcmp(cache, "none") != 0;
	free(cache);
	w->profiler = dup_member(sc_json_member(root, "revisions"), "profiler");
	const char *tk[] = {"ratio", "delta_s", "added_s"};
	for (int i = 0; i < 3; i++) {
		yajl_val v = sc_json_member(th, tk[i]);
		w->thresholds[i] = v && YAJL_IS_NUMBER(v) ? xstrdup(v->u.number.r) : NULL;
	}
}

int sc_shard_ws_read(const char *dir, struct sc_shard_ws *w, struct strbuf *why)
{
	memset(w, 0, sizeof *w);
	w->dir = dir;
	sb_init(&w->plan);
	char *marker = xasprintf("%s/" SC_WORKSPACE_INCOMPLETE, dir);
	char *json = xasprintf("%s/report.json", dir), *plan = xasprintf("%s/plan.json", dir);
	struct strbuf doc = STRBUF_INIT;
	yajl_val root = NULL;
	int rc = -1;
	const char *run_id, *digest;
	if (access(marker, F_OK) == 0)
		sb_addf(why, "an unfinished run: it holds %s", SC_WORKSPACE_INCOMPLETE);
	else if (sc_read_file(json, &doc, REPORT_MAX) < 0 || sc_read_file(plan, &w->plan, 16u << 20) < 0)
		sb_addf(why, "no report.json and plan.json to read: %s", sc_errno_text(errno));
	else if (!(root = sc_json_parse(doc.buf, doc.len, why)) ||
	         sc_json_get_str_or_null(root, "run_id", &run_id, why) < 0 ||
	         sc_json_get_str(root, "plan_digest", &digest, why) < 0 || take_shard(root, w, why) < 0)
		; /* why says it */
	else if (!run_id)
		sb_adds(why, "its report has no run ID: nothing was measured");
	else {
		sc_plan_digest(w->plan.buf, w->plan.len, w->digest);
		w->run_id = xstrdup(run_id);
		take_env(root, w);
		char *attr = xasprintf("%s/attribution.json", dir);
		w->has_attribution = access(attr, F_OK) == 0;
		free(attr);
		rc = strcmp(digest, w->digest) == 0 ? 0 : -1;
		if (rc < 0)
			sb_adds(why, "its report is not of its plan.json (plan digest)");
	}
	if (root)
		yajl_tree_free(root);
	sb_release(&doc);
	free(marker);
	free(json);
	free(plan);
	return rc;
}

static int same(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

/* Every shard once: shard K's workspace, or the first that repeats one. */
static int every_shard_once(const struct sc_shard_ws *w, size_t n, struct strbuf *why)
{
	for (size_t i = 0; i < n; i++) {
		if (w[i].count != w[0].count) {
			sb_addf(why, "shard %u of %u, not of %u as the first (%s)", w[i].index, w[i].count,
			        w[0].count, w[i].dir);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (w[j].index == w[i].index) {
				sb_addf(why, "shard %u is given twice (%s and %s)", w[i].index, w[j].dir, w[i].dir);
				return -1;
			}
	}
	for (unsigned k = 1; k <= w[0].count; k++) {
		size_t i = 0;
		while (i < n && w[i].index != k)
			i++;
		if (i == n) {
			sb_addf(why, "shard %u of %u is missing: no workspace given is its (%s)", k, w[0].count,
			        w[0].dir);
			return -1;
		}
	}
	return 0;
}

/* Measured alike: what a comparison within one runner does not cancel
 * must be the same on every runner. */
static int alike(const struct sc_shard_ws *w, size_t n, struct strbuf *why)
{
	for (size_t i = 1; i < n; i++) {
		const char *what = strcmp(w[i].digest, w[0].digest) ? "plan (digest)"
		                   : !same(w[i].lean_sha256, w[0].lean_sha256) ? "Lean (bin/lean SHA-256)"
		                   : !same(w[i].lake_sha256, w[0].lake_sha256) ? "Lake (bin/lake SHA-256)"
		                   : !same(w[i].bwrap_sha256, w[0].bwrap_sha256) ? "bubblewrap (SHA-256)"
		                   : !same(w[i].profiler, w[0].profiler) ? "profiler commit"
		                   : !same(w[i].thresholds[0], w[0].thresholds[0]) ||
		                           !same(w[i].thresholds[1], w[0].thresholds[1]) ||
		                           !same(w[i].thresholds[2], w[0].thresholds[2])
		                       ? "thresholds"
		                       : NULL;
		if (what) {
			sb_addf(why, "shard %u was measured with another %s than shard %u (%s)", w[i].index,
			        what, w[0].index, w[i].dir);
			return -1;
		}
	}
	return 0;
}

/* Which shard measured each plan file first (0: none yet). */
struct seen {
	const struct sc_plan *plan;
	unsigned *by;
};

/* One sample line of W's: its run and shard, and its file's shard. */
static int check_sample(const struct sc_shard_ws *w, const struct sc_sample *s, struct seen *seen,
                        const char *where, struct strbuf *why)
{
	unsigned want = w->count > 1 ? w->index : 0;
	int side;
	const char *id;
	if (strcmp(s->run_id, w->run_id) != 0 || s->shard != want) {
		sb_addf(why, "a sample of another run or shard than shard %u's (%s)", w->index, where);
		return -1;
	}
	if (sc_sample_id_split(s->sample, &side, &id) < 0)
		return 0; /* a prebuild's: its runner's own */
	const struct sc_plan_file *f = sc_plan_find(seen->plan, id);
	if (!f)
		return 0; /* sc-report says "unexpected" */
	unsigned *by = &seen->by[f - seen->plan->files];
	if (*by && *by != w->index) {
		sb_addf(why, "%s is measured on shards %u and %u (%s)", f->path, *by, w->index, where);
		return -1;
	}
	if (w->count > 1 && f->shard != w->index) {
		sb_addf(why, "shard %u measured %s, which is dealt to shard %u (%s)", w->index, f->path,
		        f->shard, where);
		return -1;
	}
	*by = w->index;
	return 0;
}

/* W's samples.jsonl, read as sc-report reads a samples file, each line
 * checked against W and the shards read before it. */
static int check_samples(const struct sc_shard_ws *w, struct seen *seen, struct strbuf *why)
{
	char *path = xasprintf("%s/samples.jsonl", w->dir);
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
	struct sc_sample_set set = {0};
	int rc = 0;
	if (sc_read_file(path, &doc, SC_SAMPLES_MAX_BYTES) < 0) {
		sb_addf(why, "shard %u's samples cannot be read: %s (%s)", w->index,
		        sc_errno_text(errno), path);
		rc = -1;
	} else if (sc_sample_file_parse(path, doc.buf, doc.len, &set, &err) < 0) {
		sb_addf(why, "shard %u has an %s", w->index, err.buf);
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < set.n; i++)
		rc = check_sample(w, &set.v[i].s, seen, set.v[i].source, why);
	sc_sample_set_free(&set);
	sb_release(&doc);
	sb_release(&err);
	free(path);
	return rc;
}

int sc_shard_ws_check(const struct sc_shard_ws *w, size_t n, struct strbuf *why)
{
	if (every_shard_once(w, n, why) < 0 || alike(w, n, why) < 0)
		return -1;
	struct sc_plan plan;
	if (sc_plan_from_json(w[0].plan.buf, w[0].plan.len, &plan, why) < 0) {
		sb_addf(why, " (%s/plan.json)", w[0].dir);
		return -1;
	}
	int rc = 0;
	unsigned have = plan.n_shards ? plan.n_shards : 1;
	if (have != w[0].count) {
		sb_addf(why, "the plan has %u shards, the workspaces %u (%s/plan.json)", have, w[0].count,
		        w[0].dir);
		rc = -1;
	}
	struct seen seen = {&plan, xcalloc(plan.n_files + 1, sizeof *seen.by)};
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = check_samples(&w[i], &seen, why);
	free(seen.by);
	sc_plan_free(&plan);
	return rc;
}

void sc_shard_ws_free(struct sc_shard_ws *w)
{
	sb_release(&w->plan);
	char **slots[] = {&w->run_id, &w->lean_version, &w->lean_sha256, &w->lake_sha256,
	                  &w->bwrap_sha256, &w->profiler, &w->sandbox_user, &w->server_url,
	                  &w->ci_repository, &w->ci_run_id, &w->thresholds[0], &w->thresholds[1],
	                  &w->thresholds[2]};
	for (size_t i = 0; i < sizeof slots / sizeof *slots; i++)
		free(*slots[i]);
}
