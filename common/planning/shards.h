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

/* Deal P's files among at most N shards by COST (one figure a file; the
 * groups from sc_shards_group): the costliest group first, each to the
 * least loaded shard (the lowest number on a tie), groups tied on cost in
 * the order of their first file.  The count is N, or the number of groups
 * when there are fewer; one shard is no shard (p->n_shards 0, every
 * file's shard 0: the plan one runner measures).  Returns the count. */
unsigned sc_shards_deal(struct sc_plan *p, const size_t *group, const unsigned long long *cost,
                        unsigned n);

#endif
