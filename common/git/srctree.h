#ifndef SC_SRCTREE_H
#define SC_SRCTREE_H
/* The profiler's own sources, as profile.tooling compares them: every
 * top-level entry of the source folder but debian/, .pc/ (what a Debian
 * packager adds), .git and build*, so packaging changes no ID, and a plain
 * vendored copy's ID is still what "git rev-parse T:PATH" prints. */
#include <stddef.h>
#include "git/gittree.h"

/* 1 if the '/'-separated path (relative to the source root) is ours. */
int sc_srctree_is_own(const char *path);

/* Hex ID of the tree object TREE (raw content, LEN bytes) keeping only our
 * top-level entries.  Returns 0, or -1 if the tree is malformed. */
int sc_srctree_own_id(const char *tree, size_t len, enum sc_hash_algo algo, char hex[65]);

#endif
