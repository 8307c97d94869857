#ifndef SC_PORCELAIN_MERGE_H
#define SC_PORCELAIN_MERGE_H
/* sphereceti merge (Documentation/measurement.txt "Shards"): the
 * workspaces of one plan's shards, each profile-run --shard K/N's, read and
 * checked to be every shard once, of one plan, measured alike, each sample
 * on the shard its file is dealt to, before sc-report joins their samples
 * into one report. */
#include <stddef.h>
#include "contract/plan.h"
#include "util/strbuf.h"

/* What a shard's workspace says of itself (its report.json, plan.json). */
struct sc_shard_ws {
	const char *dir;
	struct strbuf plan; /* plan.json's bytes */
	char digest[65];    /* their SHA-256 */
	unsigned index, count; /* 1 of 1: an unsharded run */
	char *run_id;
	/* the environment; NULL where the report has none */
	char *lean_version, *lean_sha256, *lake_sha256, *bwrap_sha256, *profiler;
	char *sandbox_user, *server_url, *ci_repository, *ci_run_id;
	int lake_cache;
	char *thresholds[3]; /* ratio, delta_s, added_s as report.json prints them */
	int has_attribution; /* attribution.json beside its report */
};

/* DIR's report.json and plan.json, DIR a complete workspace (no
 * INCOMPLETE marker).  Returns 0, or -1 with why (what, naming the file). */
int sc_shard_ws_read(const char *dir, struct sc_shard_ws *w, struct strbuf *why);

/* The N workspaces (each read) are one plan's shards, every one once,
 * measured by one toolchain, bubblewrap and profiler commit with one set
 * of thresholds, and their samples (samples.jsonl) each of its run, on
 * the shard its file is dealt to, no file on two shards.  Returns 0, or
 * -1 with why: one line naming the shard and its workspace. */
int sc_shard_ws_check(const struct sc_shard_ws *w, size_t n, struct strbuf *why);

void sc_shard_ws_free(struct sc_shard_ws *w);

#endif
