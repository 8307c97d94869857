#ifndef SC_PLAN_H
#define SC_PLAN_H
/* The plan: what sc-plan decides and every later stage obeys.
 * JSON schema "sphereceti.plan/1" (documented in sc-plan(1)):
 * {
 *   "schema": "sphereceti.plan/1",
 *   "profiler_version": "0.1.0",
 *   "object_format": "sha1" | "sha256",
 *   "revisions": {"tooling": T, "base_tip": B, "merge_base": M, "head": H
 *                 [, "merge_of": P] [, "profiler": C]},
 *   "config": {"library": [root...], "roadmap": [root...],
 *              "github": "owner/name" | null, "tooling_path": str | null,
 *              "bwrap_pins": [{"version": str, "sha256": hex}, ...]
 *              [, "max_files": N] [, "files_per_shard": N] [, "max_shards": N]},
 *   "lake": {"lakefile.toml": blob|null, "lakefile.lean": blob|null,
 *            "lake-manifest.json": blob|null, "lean-toolchain": blob|null},
 *   "lean_toolchain": "leanprover/lean4:v4.34.0-rc1" | null,
 *   "status": "changes" | "no_changes",
 *   "files": [{"id": "A.B", "path": "A/B.lean", "module": "A.B",
 *              "role": "library"|"roadmap",
 *              "change": "modified"|"added"|"removed"|"importer",
 *              "base_blob": blob|null, "head_blob": blob|null
 *              [, "imports": ["C.D", ...]]}, ...]
 *   [, "importers": {"limit": N, "qualified": K, "unreadable": [str...]}]
 *   [, "shards": {"count": N, "balanced_by": "blob_bytes" | "costs"}]
 * }
 * max_files, files_per_shard and max_shards, each present only when
 * .sphereceti sets it (profile.maxFiles...): the plan lists at most
 * max_files changed files (SC_DEFAULT_MAX_FILES when absent).
 * shards, present only when sc-plan split the files among N > 1 runners
 * (--shards): every file then has "shard": K (1 to N), every shard at
 * least one file, and a file and every selected module of its import cone
 * at the head share a shard (Documentation/measurement.txt "Shards").
 * With sc-plan --importers N (N > 0) only: after the changed files come up
 * to N unchanged modules that import a modified or added one at the head
 * (change "importer", the same blob on both sides, "imports" naming the
 * changed modules they import), and "importers" says how many qualified
 * and which headers could not be read ("PATH: why").  Without it neither
 * member appears: the plan is byte for byte what it always was.
 * A file's id is its module name: unique, stable, and safe in file names.
 * The base side is measured at merge_base, the head side at head.
 * merge_of, present only when sc-plan was given --merge-of: the head is a
 * merge whose parents are exactly base_tip and P (a pull request's head
 * merged into the base tip), so merge_base is base_tip; reports link P,
 * never the merge, which may exist only where it was made.
 * profiler, present only when sc-plan was given --profiler-commit: the
 * commit of sphereceti's own repository the profiler was built from (its
 * build embeds it when the sources are exactly that commit's tree), as a
 * CI recipe pins it; an ID of another repository, never looked up here. */
#include <stddef.h>
#include <yajl/yajl_gen.h>
#include "contract/limits.h"
#include "util/strbuf.h"

#define SC_PLAN_SCHEMA "sphereceti.plan/1"

enum sc_change { SC_CHANGE_MODIFIED, SC_CHANGE_ADDED, SC_CHANGE_REMOVED, SC_CHANGE_IMPORTER };
enum sc_role { SC_ROLE_LIBRARY, SC_ROLE_ROADMAP };
enum sc_side { SC_SIDE_BASE, SC_SIDE_HEAD };

enum { SC_LAKE_TOML, SC_LAKE_LEAN, SC_LAKE_MANIFEST, SC_LAKE_TOOLCHAIN, SC_LAKE_NFILES };
extern const char *const sc_lake_files[SC_LAKE_NFILES];

struct sc_plan_file {
	char *id;
	char *path;
	char *module;
	enum sc_role role;
	enum sc_change change;
	char *base_blob; /* NULL when added */
	char *head_blob; /* NULL when removed */
	char **imports;  /* importer only: the changed modules it imports */
	size_t n_imports;
	unsigned shard;  /* 1 to the plan's n_shards; 0 when not sharded */
};

/* A bubblewrap pin of .sphereceti: one per host image. */
struct sc_bwrap_pin {
	char *version;
	char *sha256; /* lowercase */
};

struct sc_plan {
	char *profiler_version;
	char *object_format;
	char *tooling, *base_tip, *merge_base, *head;
	char *merge_of; /* NULL unless the head is the merge of merge_of into base_tip */
	char *profiler_commit; /* NULL unless pinned (revisions.profiler) */
	char **library;
	size_t n_library;
	char **roadmap;
	size_t n_roadmap;
	char *github;        /* NULL when not configured */
	char *tooling_path;  /* NULL when not configured */
	char *source_dir;    /* profile.sourceDir; NULL when "." (module names are relative to it) */
	struct sc_bwrap_pin *bwrap_pins; /* in .sphereceti's order; none: not configured */
	size_t n_bwrap_pins;
	char *lake_blobs[SC_LAKE_NFILES]; /* NULL when absent */
	char *lean_toolchain; /* trimmed content of lean-toolchain, or NULL */
	int no_changes;
	struct sc_plan_file *files;
	size_t n_files;
	/* --importers: 0 when not asked (no "importers" member) */
	unsigned importers_limit;
	size_t importers_qualified;
	char **importers_unreadable; /* "PATH: why" */
	size_t n_importers_unreadable;
	/* the rebuild the change causes at the head (planning.txt "The
	 * rebuild"): counted, or not (no change, or the modules unreadable) */
	int has_rebuild;
	size_t rebuild_modules, rebuild_of, rebuild_unreadable;
	/* profile.maxFiles, filesPerShard, maxShards: 0 where .sphereceti
	 * leaves the default */
	unsigned max_files, files_per_shard, max_shards;
	/* --shards: 0 when one runner measures every file, else the count */
	unsigned n_shards;
	int shards_by_costs; /* balanced by an earlier report's CPU, not blob bytes */
};

#define SC_DEFAULT_FILES_PER_SHARD 8
#define SC_DEFAULT_MAX_SHARDS 8

/* Keep only the files of shard K of N (Documentation/measurement.txt
 * "Shards"): N must be the plan's count (1 for an unsharded plan, which
 * then keeps every file), K from 1 to N.  Returns 0, or -1 with err set
 * (what is wrong, for the caller to place). */
int sc_plan_keep_shard(struct sc_plan *p, unsigned k, unsigned n, struct strbuf *err);
/* "K/N" (1 <= K <= N <= SC_MAX_SHARDS) into *K and *N; returns 0 or -1. */
int sc_shard_parse(const char *s, unsigned *k, unsigned *n);

/* The bounds in force: .sphereceti's, else the defaults. */
unsigned sc_plan_max_files(const struct sc_plan *p);
unsigned sc_plan_files_per_shard(const struct sc_plan *p);
unsigned sc_plan_max_shards(const struct sc_plan *p);

/* A plan whose merge base is its head measures nothing: the head is already
 * in the base.  sc-plan warns, and the report says so. */
#define SC_HEAD_IN_BASE \
	"the head is already in the base (merged, or base and head swapped): nothing to measure"

const char *sc_change_name(enum sc_change c);
const char *sc_role_name(enum sc_role r);
const char *sc_side_name(enum sc_side s);
/* Does this change get a sample on this side? */
int sc_change_on_side(enum sc_change c, enum sc_side s);
/* The exact commit measured for a side. */
const char *sc_plan_side_rev(const struct sc_plan *p, enum sc_side s);

/* Members report.json shares with the plan, written into an open map: the
 * "revisions" member, and a file's id, path, module, role and change. */
void sc_plan_revisions_to_json(yajl_gen g, const struct sc_plan *p);
void sc_plan_file_ident_to_json(yajl_gen g, const struct sc_plan_file *f);
/* "rebuild": {"modules", "of", "unreadable"}, or null when not counted. */
void sc_plan_rebuild_to_json(yajl_gen g, const struct sc_plan *p);
/* Serialize (pretty, trailing newline). */
void sc_plan_to_json(const struct sc_plan *p, struct strbuf *out);
/* The plan as sc-plan writes it: serialized, then read back by the one
 * validator every reader uses, so no stage writes a plan another refuses.
 * Returns 0, or -1 with err set (a bug of the writer, not of the input). */
int sc_plan_write(const struct sc_plan *p, struct strbuf *out, struct strbuf *err);
/* Parse and validate every field, by the rules sc-plan selects files with
 * (module relative to profile.sourceDir, role of the covering root);
 * returns 0, or -1 with err set. */
int sc_plan_from_json(const char *buf, size_t len, struct sc_plan *p, struct strbuf *err);
/* Read a plan file: raw receives the exact bytes (for the digest).
 * Dies with "cannot read plan ..." / "invalid plan: ... (<path>)". */
void sc_plan_load_or_die(const char *path, struct sc_plan *p, struct strbuf *raw);
/* The plan digest that binds every sample and the report: SHA-256 of the
 * plan document's exact bytes (lowercase hex). */
void sc_plan_digest(const char *raw, size_t len, char hex[65]);
void sc_plan_free(struct sc_plan *p);
const struct sc_plan_file *sc_plan_find(const struct sc_plan *p, const char *id);
/* Is path under a configured library or roadmap root? sets *role. */
int sc_plan_classify(const struct sc_plan *p, const char *path, enum sc_role *role);
/* PATH (repository-relative) relative to profile.sourceDir, where roots and
 * module names live; NULL when PATH is not below it. */
const char *sc_plan_source_rel(const struct sc_plan *p, const char *path);

/* 1 if s is a GitHub "owner/name" slug, as the plan's "github" holds. */
int sc_is_github_slug(const char *s);

#endif
