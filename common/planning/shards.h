#ifndef SC_PLANNING_SHARDS_H
#define SC_PLANNING_SHARDS_H
/* Which runner measures each file of a plan (Documentation/measurement.txt
 * "Shards").  A file's two sides, its repeats and its attribution are one
 * runner's; so is every selected module in its import cone at the head,
 * so that no runner's prebuild runs a selected module's candidate code
 * that another runner samples.  Files are balanced by a cost known before
 * anything runs, and the same inputs give the same assignment. */
#include <stddef.h>
#include "contract/plan.h"
#include "planning/modgraph.h"

/* The runners .sphereceti gives a plan of P's changed files:
 * min(maxShards, ceil(files / filesPerShard)), at least 1. */
unsigned sc_shards_auto(const struct sc_plan *p);

/* GROUP[i] for each file i of P: files of one group share a shard.  Two
 * files are grouped when one's import cone in MG (the head's graph) holds
 * the other; a removed file is alone.  An unread graph groups every file
 * (no runner may take a cone it cannot see).  Time in the files times
 * their cones. */
void sc_shards_group(const struct sc_plan *p, const struct sc_modgraph *mg, size_t *group);

/* An earlier report's CPU of P's files (report.json of sphereceti.report/1,
 * e.g. a profile of the base branch): MS[i] the milliseconds of file i's
 * compared sides summed, -1 where the report has none ok.  Only balance
 * reads it, never a verdict.  Returns 0, or -1 with WHY (not a report). */
int sc_shards_costs_read(const char *buf, size_t len, const struct sc_plan *p, long long *ms,
                         struct strbuf *why);
/* The costs balance goes by: each file's blob bytes (BYTES), or with an
 * earlier report's CPU (MS, -1 unknown) that CPU, and the bytes of a file
 * it lacks scaled by the known files' CPU per byte. */
void sc_shards_costs_mix(size_t n, const unsigned long long *bytes, const long long *ms,
                         unsigned long long *cost);

/* Deal P's files among at most N shards by COST (one figure a file; the
 * groups from sc_shards_group): the costliest group first, each to the
 * least loaded shard (the lowest number on a tie), groups tied on cost in
 * the order of their first file.  The count is N, or the number of groups
 * when there are fewer; one shard is no shard (p->n_shards 0, every
 * file's shard 0: the plan one runner measures).  Returns the count. */
unsigned sc_shards_deal(struct sc_plan *p, const size_t *group, const unsigned long long *cost,
                        unsigned n);

#endif
