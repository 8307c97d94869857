#include "contract/plan.h"
#include "util/decimal.h"
#include "util/die.h"
#include "util/json.h"
#include "contract/leanpath.h"
#include "util/oid.h"
#include "util/safefile.h"
#include "util/sha256.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const sc_lake_files[SC_LAKE_NFILES] = {
	"lakefile.toml", "lakefile.lean", "lake-manifest.json", "lean-toolchain",
};

static const char *const change_names[] = {"modified", "added", "removed", "importer"};
static const char *const role_names[] = {"library", "roadmap"};
static const char *const side_names[] = {"base", "head"};

const char *sc_change_name(enum sc_change c) { return change_names[c]; }
const char *sc_role_name(enum sc_role r) { return role_names[r]; }
const char *sc_side_name(enum sc_side s) { return side_names[s]; }

int sc_change_on_side(enum sc_change c, enum sc_side s)
{
	if (c == SC_CHANGE_MODIFIED || c == SC_CHANGE_IMPORTER)
		return 1;
	return s == SC_SIDE_BASE ? c == SC_CHANGE_REMOVED : c == SC_CHANGE_ADDED;
}

const char *sc_plan_side_rev(const struct sc_plan *p, enum sc_side s)
{
	return s == SC_SIDE_BASE ? p->merge_base : p->head;
}

static void gen_roots(yajl_gen g, const char *key, char **roots, size_t n)
{
	sc_json_kv_array_open(g, key);
	for (size_t i = 0; i < n; i++)
		sc_json_str(g, roots[i]);
	sc_json_array_close(g);
}

void sc_plan_revisions_to_json(yajl_gen g, const struct sc_plan *p)
{
	sc_json_kv_map_open(g, "revisions");
	sc_json_kv_str(g, "tooling", p->tooling);
	sc_json_kv_str(g, "base_tip", p->base_tip);
	sc_json_kv_str(g, "merge_base", p->merge_base);
	sc_json_kv_str(g, "head", p->head);
	if (p->merge_of)
		sc_json_kv_str(g, "merge_of", p->merge_of);
	if (p->profiler_commit)
		sc_json_kv_str(g, "profiler", p->profiler_commit);
	sc_json_map_close(g);
}

void sc_plan_file_ident_to_json(yajl_gen g, const struct sc_plan_file *f)
{
	sc_json_kv_str(g, "id", f->id);
	sc_json_kv_str(g, "path", f->path);
	sc_json_kv_str(g, "module", f->module);
	sc_json_kv_str(g, "role", sc_role_name(f->role));
	sc_json_kv_str(g, "change", sc_change_name(f->change));
}

void sc_plan_rebuild_to_json(yajl_gen g, const struct sc_plan *p)
{
	if (!p->has_rebuild) {
		sc_json_kv_null(g, "rebuild");
		return;
	}
	sc_json_kv_map_open(g, "rebuild");
	sc_json_kv_int(g, "modules", (long long)p->rebuild_modules);
	sc_json_kv_int(g, "of", (long long)p->rebuild_of);
	sc_json_kv_int(g, "unreadable", (long long)p->rebuild_unreadable);
	sc_json_map_close(g);
}

static void gen_config(yajl_gen g, const struct sc_plan *p)
{
	sc_json_kv_map_open(g, "config");
	gen_roots(g, "library", p->library, p->n_library);
	gen_roots(g, "roadmap", p->roadmap, p->n_roadmap);
	sc_json_kv_str_or_null(g, "github", p->github);
	sc_json_kv_str_or_null(g, "tooling_path", p->tooling_path);
	if (p->source_dir) /* only when set: plans without it stay byte-identical */
		sc_json_kv_str(g, "source_dir", p->source_dir);
	sc_json_kv_array_open(g, "bwrap_pins");
	for (size_t i = 0; i < p->n_bwrap_pins; i++) {
		sc_json_map_open(g);
		sc_json_kv_str(g, "version", p->bwrap_pins[i].version);
		sc_json_kv_str(g, "sha256", p->bwrap_pins[i].sha256);
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	/* each only when set: plans without them stay byte-identical */
	if (p->max_files)
		sc_json_kv_int(g, "max_files", p->max_files);
	if (p->files_per_shard)
		sc_json_kv_int(g, "files_per_shard", p->files_per_shard);
	if (p->max_shards)
		sc_json_kv_int(g, "max_shards", p->max_shards);
	sc_json_map_close(g);
}

static void gen_files(yajl_gen g, const struct sc_plan *p)
{
	sc_json_kv_array_open(g, "files");
	for (size_t i = 0; i < p->n_files; i++) {
		const struct sc_plan_file *f = &p->files[i];
		sc_json_map_open(g);
		sc_plan_file_ident_to_json(g, f);
		sc_json_kv_str_or_null(g, "base_blob", f->base_blob);
		sc_json_kv_str_or_null(g, "head_blob", f->head_blob);
		if (f->change == SC_CHANGE_IMPORTER)
			gen_roots(g, "imports", f->imports, f->n_imports);
		if (p->n_shards)
			sc_json_kv_int(g, "shard", f->shard);
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	if (p->importers_limit) { /* plans without --importers stay byte-identical */
		sc_json_kv_map_open(g, "importers");
		sc_json_kv_int(g, "limit", p->importers_limit);
		sc_json_kv_int(g, "qualified", (long long)p->importers_qualified);
		gen_roots(g, "unreadable", p->importers_unreadable, p->n_importers_unreadable);
		sc_json_map_close(g);
	}
	if (p->n_shards) { /* and without --shards too */
		sc_json_kv_map_open(g, "shards");
		sc_json_kv_int(g, "count", p->n_shards);
		sc_json_kv_str(g, "balanced_by", p->shards_by_costs ? "costs" : "blob_bytes");
		sc_json_map_close(g);
	}
}

static void free_file(struct sc_plan_file *f);

int sc_plan_keep_shard(struct sc_plan *p, unsigned k, unsigned n, struct strbuf *err)
{
	unsigned has = p->n_shards ? p->n_shards : 1;
	if (n != has) {
		sb_addf(err, "the plan has %u shard%s, not %u", has, has == 1 ? "" : "s", n);
		return -1;
	}
	if (!p->n_shards)
		return 0;
	size_t kept = 0;
	for (size_t i = 0; i < p->n_files; i++) {
		if (p->files[i].shard == k)
			p->files[kept++] = p->files[i];
		else
			free_file(&p->files[i]);
	}
	p->n_files = kept;
	return 0;
}

int sc_shard_parse(const char *s, unsigned *k, unsigned *n)
{
	const char *slash = strchr(s, '/');
	if (!slash || slash == s || slash - s > 3)
		return -1;
	char kbuf[4];
	memcpy(kbuf, s, (size_t)(slash - s));
	kbuf[slash - s] = '\0';
	return sc_decimal_uint(kbuf, 1, SC_MAX_SHARDS, k) < 0 ||
	               sc_decimal_uint(slash + 1, 1, SC_MAX_SHARDS, n) < 0 || *k > *n
	           ? -1
	           : 0;
}

unsigned sc_plan_max_files(const struct sc_plan *p)
{
	return p->max_files ? p->max_files : SC_DEFAULT_MAX_FILES;
}

unsigned sc_plan_files_per_shard(const struct sc_plan *p)
{
	return p->files_per_shard ? p->files_per_shard : SC_DEFAULT_FILES_PER_SHARD;
}

unsigned sc_plan_max_shards(const struct sc_plan *p)
{
	return p->max_shards ? p->max_shards : SC_DEFAULT_MAX_SHARDS;
}

void sc_plan_to_json(const struct sc_plan *p, struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(1);
	sc_json_map_open(g);
	sc_json_kv_str(g, "schema", SC_PLAN_SCHEMA);
	sc_json_kv_str(g, "profiler_version", p->profiler_version);
	sc_json_kv_str(g, "object_format", p->object_format);
	sc_plan_revisions_to_json(g, p);
	gen_config(g, p);
	sc_json_kv_map_open(g, "lake");
	for (int i = 0; i < SC_LAKE_NFILES; i++)
		sc_json_kv_str_or_null(g, sc_lake_files[i], p->lake_blobs[i]);
	sc_json_map_close(g);
	sc_json_kv_str_or_null(g, "lean_toolchain", p->lean_toolchain);
	sc_json_kv_str(g, "status", p->no_changes ? "no_changes" : "changes");
	sc_plan_rebuild_to_json(g, p);
	gen_files(g, p);
	sc_json_map_close(g);
	sc_json_finish(g, out);
}

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

static int get_oid(yajl_val obj, const char *key, int hexsz, int nullable, char **out,
                   struct strbuf *err)
{
	const char *s;
	if ((nullable ? sc_json_get_str_or_null(obj, key, &s, err)
	              : sc_json_get_str(obj, key, &s, err)) < 0)
		return -1;
	if (s && !sc_is_lower_hex(s, (size_t)hexsz)) {
		sb_addf(err, "field \"%s\" is not a full object ID", key);
		return -1;
	}
	*out = dup_or_null(s);
	return 0;
}

/* A list of strings under KEY (no check but that each is a nonempty
 * printable line). */
static int get_strings(yajl_val obj, const char *key, char ***out, size_t *n, struct strbuf *err)
{
	yajl_val a = sc_json_member(obj, key);
	if (!a || !YAJL_IS_ARRAY(a)) {
		sb_addf(err, "field \"%s\" missing or not an array", key);
		return -1;
	}
	*n = a->u.array.len;
	*out = xcalloc(*n ? *n : 1, sizeof **out);
	for (size_t i = 0; i < *n; i++) {
		yajl_val v = a->u.array.values[i];
		if (!YAJL_IS_STRING(v) || !*v->u.string || strchr(v->u.string, '\n')) {
			*n = i;
			sb_addf(err, "field \"%s\" holds something other than a line of text", key);
			return -1;
		}
		(*out)[i] = xstrdup(v->u.string);
	}
	return 0;
}

static int get_roots(yajl_val cfg, const char *key, char ***out, size_t *n, struct strbuf *err)
{
	if (get_strings(cfg, key, out, n, err) < 0)
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (!sc_is_valid_root((*out)[i])) {
			sb_addf(err, "field \"%s\" has an invalid root", key);
			return -1;
		}
	return 0;
}

static int pick(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

/* The path's module and role by the rules sc-plan selected it with:
 * relative to profile.sourceDir, under a root of that role. */
static int file_agrees(const struct sc_plan *p, const char *path, const char *module,
                       const char *id, int role)
{
	struct strbuf mod = STRBUF_INIT;
	const char *rel = sc_plan_source_rel(p, path);
	enum sc_role r;
	int ok = rel && sc_lean_module_of(rel, &mod) == 0 && strcmp(mod.buf, module) == 0 &&
	         strcmp(id, module) == 0 && sc_plan_classify(p, path, &r) && (int)r == role;
	sb_release(&mod);
	return ok;
}

/* A file's "shard", when present: 1 to SC_MAX_SHARDS (the plan's count
 * is checked once every file is read). */
static int get_shard(yajl_val v, const char *path, struct sc_plan_file *f, struct strbuf *err)
{
	long long k;
	if (!sc_json_member(v, "shard"))
		return 0;
	if (sc_json_get_int(v, "shard", &k, err) < 0)
		return -1;
	if (k < 1 || k > SC_MAX_SHARDS) {
		sb_addf(err, "file entry \"%s\": shard %lld is not 1 to %d", path, k, SC_MAX_SHARDS);
		return -1;
	}
	f->shard = (unsigned)k;
	return 0;
}

static int parse_file(const struct sc_plan *p, yajl_val v, int hexsz, struct sc_plan_file *f,
                      struct strbuf *err)
{
	static const char *const keys[] = {"id", "path", "module", "role", "change",
	                                   "base_blob", "head_blob", "imports", "shard", NULL};
	const char *id, *path, *module, *role, *change;
	if (sc_json_only_keys(v, keys, "a file entry", err) < 0 ||
	    sc_json_get_str(v, "id", &id, err) < 0 || sc_json_get_str(v, "path", &path, err) < 0 ||
	    sc_json_get_str(v, "module", &module, err) < 0 ||
	    sc_json_get_str(v, "role", &role, err) < 0 ||
	    sc_json_get_str(v, "change", &change, err) < 0)
		return -1;
	int r = pick(role, role_names, 2), c = pick(change, change_names, 4);
	if (r < 0 || c < 0) {
		sb_addf(err, "unknown role or change in file entry \"%s\"", path);
		return -1;
	}
	if (!file_agrees(p, path, module, id, r)) {
		sb_addf(err, "file entry \"%s\" has an unsupported path, module, id or role", path);
		return -1;
	}
	f->id = xstrdup(id);
	f->path = xstrdup(path);
	f->module = xstrdup(module);
	f->role = (enum sc_role)r;
	f->change = (enum sc_change)c;
	if (get_oid(v, "base_blob", hexsz, 1, &f->base_blob, err) < 0 ||
	    get_oid(v, "head_blob", hexsz, 1, &f->head_blob, err) < 0)
		return -1;
	if (!f->base_blob != (f->change == SC_CHANGE_ADDED) ||
	    !f->head_blob != (f->change == SC_CHANGE_REMOVED) ||
	    (f->change == SC_CHANGE_IMPORTER && strcmp(f->base_blob, f->head_blob) != 0)) {
		sb_addf(err, "file entry \"%s\": blobs do not match change \"%s\"", path, change);
		return -1;
	}
	int has_imports = sc_json_member(v, "imports") != NULL;
	if (has_imports != (f->change == SC_CHANGE_IMPORTER)) {
		sb_addf(err, "file entry \"%s\": \"imports\" belongs to importers only", path);
		return -1;
	}
	if (has_imports && (get_strings(v, "imports", &f->imports, &f->n_imports, err) < 0 ||
	                    f->n_imports == 0)) {
		if (!err->len)
			sb_addf(err, "file entry \"%s\": an importer imports nothing changed", path);
		return -1;
	}
	return get_shard(v, path, f, err);
}

/* schema, profiler_version and object_format; *hexsz from the last. */
static int parse_header(yajl_val root, struct sc_plan *p, int *hexsz, struct strbuf *err)
{
	const char *schema, *ver, *fmt;
	if (sc_json_get_str(root, "schema", &schema, err) < 0)
		return -1;
	if (strcmp(schema, SC_PLAN_SCHEMA) != 0) {
		sb_addf(err, "unsupported plan schema \"%s\"", schema);
		return -1;
	}
	if (sc_json_get_str(root, "profiler_version", &ver, err) < 0 ||
	    sc_json_get_str(root, "object_format", &fmt, err) < 0)
		return -1;
	*hexsz = sc_hexsz_of_format(fmt);
	if (!*hexsz) {
		sb_addf(err, "unsupported object format \"%s\"", fmt);
		return -1;
	}
	p->profiler_version = xstrdup(ver);
	p->object_format = xstrdup(fmt);
	return 0;
}

/* revisions.profiler: a commit of sphereceti's own repository, whose
 * object format need not be the project's. */
static int get_profiler(yajl_val rev, struct sc_plan *p, struct strbuf *err)
{
	const char *s;
	if (!sc_json_member(rev, "profiler"))
		return 0;
	if (sc_json_get_str(rev, "profiler", &s, err) < 0)
		return -1;
	if (!sc_is_lower_hex(s, 40) && !sc_is_lower_hex(s, 64)) {
		sb_adds(err, "\"revisions\": profiler is not a full commit ID");
		return -1;
	}
	p->profiler_commit = xstrdup(s);
	return 0;
}

static int parse_revisions(yajl_val root, int hexsz, struct sc_plan *p, struct strbuf *err)
{
	static const char *const keys[] = {"tooling", "base_tip", "merge_base", "head",
	                                   "merge_of", "profiler", NULL};
	yajl_val rev = sc_json_member(root, "revisions");
	if (sc_json_only_keys(rev, keys, "\"revisions\"", err) < 0 ||
	    get_oid(rev, "tooling", hexsz, 0, &p->tooling, err) < 0 ||
	    get_oid(rev, "base_tip", hexsz, 0, &p->base_tip, err) < 0 ||
	    get_oid(rev, "merge_base", hexsz, 0, &p->merge_base, err) < 0 ||
	    get_oid(rev, "head", hexsz, 0, &p->head, err) < 0 ||
	    get_profiler(rev, p, err) < 0)
		return -1;
	if (!sc_json_member(rev, "merge_of"))
		return 0;
	if (get_oid(rev, "merge_of", hexsz, 0, &p->merge_of, err) < 0)
		return -1;
	/* A merge of P into B has B for its merge base with B. */
	if (strcmp(p->merge_base, p->base_tip) != 0) {
		sb_adds(err, "\"revisions\": merge_of is set but merge_base is not base_tip");
		return -1;
	}
	return 0;
}

/* A string or null member of cfg, copied into *out. */
static int get_str_or_null(yajl_val cfg, const char *key, char **out, struct strbuf *err)
{
	const char *s;
	if (sc_json_get_str_or_null(cfg, key, &s, err) < 0)
		return -1;
	*out = dup_or_null(s);
	return 0;
}

/* source_dir, present only when set to something other than ".". */
static int get_source_dir(yajl_val cfg, struct sc_plan *p, struct strbuf *err)
{
	const char *s;
	if (!sc_json_member(cfg, "source_dir"))
		return 0;
	if (sc_json_get_str(cfg, "source_dir", &s, err) < 0)
		return -1;
	if (!sc_is_tree_path(s) || strcmp(s, ".") == 0) {
		sb_adds(err, "field \"source_dir\" is not a relative path other than \".\"");
		return -1;
	}
	p->source_dir = xstrdup(s);
	return 0;
}

/* A bound of .sphereceti, present only when set: 1 to MAX. */
static int get_bound(yajl_val cfg, const char *key, unsigned max, unsigned *out, struct strbuf *err)
{
	long long n;
	if (!sc_json_member(cfg, key))
		return 0;
	if (sc_json_get_int(cfg, key, &n, err) < 0)
		return -1;
	if (n < 1 || n > max) {
		sb_addf(err, "field \"%s\" is not 1 to %u", key, max);
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

static int get_pins(yajl_val cfg, struct sc_plan *p, struct strbuf *err)
{
	static const char *const keys[] = {"version", "sha256", NULL};
	yajl_val a = sc_json_member(cfg, "bwrap_pins");
	if (!a || !YAJL_IS_ARRAY(a)) {
		sb_adds(err, "field \"bwrap_pins\" missing or not an array");
		return -1;
	}
	p->bwrap_pins = xcalloc(a->u.array.len + 1, sizeof *p->bwrap_pins);
	for (size_t i = 0; i < a->u.array.len; i++) {
		yajl_val v = a->u.array.values[i];
		const char *ver, *sha;
		if (sc_json_only_keys(v, keys, "a bwrap pin", err) < 0 ||
		    sc_json_get_str(v, "version", &ver, err) < 0 ||
		    sc_json_get_str(v, "sha256", &sha, err) < 0)
			return -1;
		if (!*ver || !sc_is_lower_hex(sha, 64)) {
			sb_adds(err, "a bwrap pin has no version or no SHA-256 hex digest");
			return -1;
		}
		p->bwrap_pins[p->n_bwrap_pins].version = xstrdup(ver);
		p->bwrap_pins[p->n_bwrap_pins++].sha256 = xstrdup(sha);
	}
	return 0;
}

static int parse_config(yajl_val root, struct sc_plan *p, struct strbuf *err)
{
	static const char *const keys[] = {"library", "roadmap", "github", "tooling_path",
	                                   "source_dir", "bwrap_pins", "max_files",
	                                   "files_per_shard", "max_shards", NULL};
	yajl_val cfg = sc_json_member(root, "config");
	if (sc_json_only_keys(cfg, keys, "\"config\"", err) < 0 ||
	    get_roots(cfg, "library", &p->library, &p->n_library, err) < 0 ||
	    get_roots(cfg, "roadmap", &p->roadmap, &p->n_roadmap, err) < 0)
		return -1;
	if (!p->n_library) {
		sb_adds(err, "plan has no library root");
		return -1;
	}
	if (get_str_or_null(cfg, "github", &p->github, err) < 0 ||
	    get_str_or_null(cfg, "tooling_path", &p->tooling_path, err) < 0 ||
	    get_source_dir(cfg, p, err) < 0 ||
	    get_bound(cfg, "max_files", SC_MAX_FILES_CEILING, &p->max_files, err) < 0 ||
	    get_bound(cfg, "files_per_shard", SC_MAX_FILES_CEILING, &p->files_per_shard, err) < 0 ||
	    get_bound(cfg, "max_shards", SC_MAX_SHARDS, &p->max_shards, err) < 0)
		return -1;
	return get_pins(cfg, p, err);
}

static int parse_lake(yajl_val root, int hexsz, struct sc_plan *p, struct strbuf *err)
{
	/* sc_lake_files has no NULL terminator; sc_json_only_keys needs one. */
	static const char *const keys[] = {"lakefile.toml", "lakefile.lean", "lake-manifest.json",
	                                   "lean-toolchain", NULL};
	_Static_assert(sizeof keys / sizeof *keys == SC_LAKE_NFILES + 1,
	               "keys lists every sc_lake_files entry");
	yajl_val lake = sc_json_member(root, "lake");
	if (sc_json_only_keys(lake, keys, "\"lake\"", err) < 0)
		return -1;
	for (int i = 0; i < SC_LAKE_NFILES; i++)
		if (get_oid(lake, sc_lake_files[i], hexsz, 1, &p->lake_blobs[i], err) < 0)
			return -1;
	return get_str_or_null(root, "lean_toolchain", &p->lean_toolchain, err);
}

/* The changed files first, at most the plan's max_files; then the
 * importers, at most the plan's limit, each importing only modified or
 * added modules of the plan; "importers" present exactly when asked. */
static int check_importers(yajl_val root, struct sc_plan *p, struct strbuf *err)
{
	size_t changed = 0, importers = 0;
	for (size_t i = 0; i < p->n_files; i++) {
		const struct sc_plan_file *f = &p->files[i];
		if (f->change != SC_CHANGE_IMPORTER) {
			if (importers) {
				sb_addf(err, "file \"%s\" is listed after the importers", f->path);
				return -1;
			}
			changed++;
			continue;
		}
		importers++;
		for (size_t k = 0; k < f->n_imports; k++) {
			const struct sc_plan_file *g = sc_plan_find(p, f->imports[k]);
			if (!g || (g->change != SC_CHANGE_MODIFIED && g->change != SC_CHANGE_ADDED)) {
				sb_addf(err, "importer \"%s\" imports %s, no modified or added module of the plan",
				        f->path, f->imports[k]);
				return -1;
			}
		}
	}
	if (changed > sc_plan_max_files(p)) {
		sb_addf(err, "plan lists more than %u changed files", sc_plan_max_files(p));
		return -1;
	}
	yajl_val imp = sc_json_member(root, "importers");
	if (!imp) {
		if (importers) {
			sb_adds(err, "plan lists importers but no \"importers\" member");
			return -1;
		}
		return 0;
	}
	static const char *const keys[] = {"limit", "qualified", "unreadable", NULL};
	long long limit, qualified;
	if (sc_json_only_keys(imp, keys, "\"importers\"", err) < 0 ||
	    sc_json_get_int(imp, "limit", &limit, err) < 0 ||
	    sc_json_get_int(imp, "qualified", &qualified, err) < 0 ||
	    get_strings(imp, "unreadable", &p->importers_unreadable, &p->n_importers_unreadable, err) < 0)
		return -1;
	if (limit < 1 || limit > SC_MAX_IMPORTERS || qualified < (long long)importers ||
	    (long long)importers > limit || (long long)importers != (qualified < limit ? qualified : limit)) {
		sb_adds(err, "\"importers\": limit, qualified and the importers listed disagree");
		return -1;
	}
	p->importers_limit = (unsigned)limit;
	p->importers_qualified = (size_t)qualified;
	return 0;
}

/* "shards" present exactly when every file names its shard, each of the
 * N shards (2 or more) holding one file at least. */
static int check_shards(yajl_val root, struct sc_plan *p, struct strbuf *err)
{
	static const char *const keys[] = {"count", "balanced_by", NULL};
	yajl_val sh = sc_json_member(root, "shards");
	size_t named = 0;
	for (size_t i = 0; i < p->n_files; i++)
		named += p->files[i].shard != 0;
	if (!sh) {
		if (named)
			sb_adds(err, "files name shards but the plan has no \"shards\" member");
		return named ? -1 : 0;
	}
	long long count;
	const char *by;
	if (sc_json_only_keys(sh, keys, "\"shards\"", err) < 0 ||
	    sc_json_get_int(sh, "count", &count, err) < 0 ||
	    sc_json_get_str(sh, "balanced_by", &by, err) < 0)
		return -1;
	if (count < 2 || count > SC_MAX_SHARDS || count > (long long)p->n_files ||
	    named != p->n_files || (strcmp(by, "blob_bytes") != 0 && strcmp(by, "costs") != 0)) {
		sb_adds(err, "\"shards\": count, balanced_by and the files' shards disagree");
		return -1;
	}
	p->n_shards = (unsigned)count;
	p->shards_by_costs = strcmp(by, "costs") == 0;
	unsigned char *seen = xcalloc((size_t)count + 1, 1);
	for (size_t i = 0; i < p->n_files; i++)
		if (p->files[i].shard <= count)
			seen[p->files[i].shard] = 1;
	int rc = 0;
	for (size_t i = 0; i < p->n_files && rc == 0; i++)
		if (p->files[i].shard > count) {
			sb_addf(err, "file \"%s\" names shard %u of %lld", p->files[i].path,
			        p->files[i].shard, count);
			rc = -1;
		}
	for (long long k = 1; k <= count && rc == 0; k++)
		if (!seen[k]) {
			sb_addf(err, "\"shards\": shard %lld of %lld holds no file", k, count);
			rc = -1;
		}
	free(seen);
	return rc;
}

static int parse_files(yajl_val root, int hexsz, struct sc_plan *p, struct strbuf *err)
{
	const char *status;
	if (sc_json_get_str(root, "status", &status, err) < 0)
		return -1;
	if (strcmp(status, "changes") != 0 && strcmp(status, "no_changes") != 0) {
		sb_addf(err, "unknown plan status \"%s\"", status);
		return -1;
	}
	p->no_changes = strcmp(status, "no_changes") == 0;
	yajl_val files = sc_json_member(root, "files");
	if (!files || !YAJL_IS_ARRAY(files)) {
		sb_adds(err, "field \"files\" missing or not an array");
		return -1;
	}
	if (files->u.array.len > SC_MAX_FILES_CEILING + SC_MAX_IMPORTERS) {
		sb_addf(err, "plan lists more than %d files", SC_MAX_FILES_CEILING + SC_MAX_IMPORTERS);
		return -1;
	}
	if (p->no_changes != (files->u.array.len == 0)) {
		sb_adds(err, "plan status does not match its file list");
		return -1;
	}
	p->files = xcalloc(files->u.array.len, sizeof *p->files);
	for (size_t i = 0; i < files->u.array.len; i++) {
		p->n_files = i + 1;
		if (parse_file(p, files->u.array.values[i], hexsz, &p->files[i], err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(p->files[j].id, p->files[i].id) == 0) {
				sb_addf(err, "file \"%s\" listed twice", p->files[i].path);
				return -1;
			}
	}
	return check_importers(root, p, err) < 0 ? -1 : check_shards(root, p, err);
}

/* "rebuild": absent or null (not counted), or its three counts, the
 * modules no more than all of them. */
static int parse_rebuild(yajl_val root, struct sc_plan *p, struct strbuf *err)
{
	yajl_val r = sc_json_member(root, "rebuild");
	if (!r || YAJL_IS_NULL(r))
		return 0;
	static const char *const keys[] = {"modules", "of", "unreadable", NULL};
	long long modules, of, unreadable;
	if (sc_json_only_keys(r, keys, "\"rebuild\"", err) < 0 ||
	    sc_json_get_int(r, "modules", &modules, err) < 0 || sc_json_get_int(r, "of", &of, err) < 0 ||
	    sc_json_get_int(r, "unreadable", &unreadable, err) < 0)
		return -1;
	if (modules < 0 || unreadable < 0 || modules > of || unreadable > of) {
		sb_adds(err, "\"rebuild\": modules and unreadable must lie between 0 and of");
		return -1;
	}
	p->has_rebuild = 1;
	p->rebuild_modules = (size_t)modules;
	p->rebuild_of = (size_t)of;
	p->rebuild_unreadable = (size_t)unreadable;
	return 0;
}

int sc_plan_from_json(const char *buf, size_t len, struct sc_plan *p, struct strbuf *err)
{
	static const char *const keys[] = {"schema", "profiler_version", "object_format",
	                                   "revisions", "config", "lake", "lean_toolchain",
	                                   "status", "rebuild", "files", "importers", "shards",
	                                   NULL};
	memset(p, 0, sizeof *p);
	yajl_val root = sc_json_parse(buf, len, err);
	if (!root)
		return -1;
	int hexsz = 0;
	int rc = sc_json_only_keys(root, keys, "the plan", err) < 0 ||
	                 parse_header(root, p, &hexsz, err) < 0 ||
	                 parse_revisions(root, hexsz, p, err) < 0 ||
	                 parse_config(root, p, err) < 0 || parse_lake(root, hexsz, p, err) < 0 ||
	                 parse_rebuild(root, p, err) < 0 || parse_files(root, hexsz, p, err) < 0
	             ? -1
	             : 0;
	yajl_tree_free(root);
	if (rc < 0)
		sc_plan_free(p);
	return rc;
}

int sc_plan_write(const struct sc_plan *p, struct strbuf *out, struct strbuf *err)
{
	struct sc_plan again;
	sc_plan_to_json(p, out);
	if (sc_plan_from_json(out->buf, out->len, &again, err) < 0)
		return -1;
	sc_plan_free(&again);
	return 0;
}

void sc_plan_load_or_die(const char *path, struct sc_plan *p, struct strbuf *raw)
{
	struct strbuf err = STRBUF_INIT;
	if (sc_read_file(path, raw, 16u << 20) < 0)
		sc_die_path_errno("cannot read plan (%s)", path);
	if (sc_plan_from_json(raw->buf, raw->len, p, &err) < 0)
		sc_die("invalid plan: %s (%s)", err.buf, path);
	sb_release(&err);
}

static void free_roots(char **r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(r[i]);
	free(r);
}

static void free_file(struct sc_plan_file *f)
{
	free(f->id);
	free(f->path);
	free(f->module);
	free(f->base_blob);
	free(f->head_blob);
	free_roots(f->imports, f->n_imports);
}

void sc_plan_free(struct sc_plan *p)
{
	free(p->profiler_version);
	free(p->object_format);
	free(p->tooling);
	free(p->base_tip);
	free(p->merge_base);
	free(p->head);
	free(p->merge_of);
	free(p->profiler_commit);
	free_roots(p->library, p->n_library);
	free_roots(p->roadmap, p->n_roadmap);
	free(p->github);
	free(p->tooling_path);
	free(p->source_dir);
	for (size_t i = 0; i < p->n_bwrap_pins; i++) {
		free(p->bwrap_pins[i].version);
		free(p->bwrap_pins[i].sha256);
	}
	free(p->bwrap_pins);
	for (int i = 0; i < SC_LAKE_NFILES; i++)
		free(p->lake_blobs[i]);
	free(p->lean_toolchain);
	for (size_t i = 0; i < p->n_files; i++)
		free_file(&p->files[i]);
	free(p->files);
	free_roots(p->importers_unreadable, p->n_importers_unreadable);
	memset(p, 0, sizeof *p);
}

const struct sc_plan_file *sc_plan_find(const struct sc_plan *p, const char *id)
{
	for (size_t i = 0; i < p->n_files; i++)
		if (strcmp(p->files[i].id, id) == 0)
			return &p->files[i];
	return NULL;
}

const char *sc_plan_source_rel(const struct sc_plan *p, const char *path)
{
	if (!p->source_dir)
		return path;
	size_t n = strlen(p->source_dir);
	return strncmp(path, p->source_dir, n) == 0 && path[n] == '/' ? path + n + 1 : NULL;
}

int sc_plan_classify(const struct sc_plan *p, const char *path, enum sc_role *role)
{
	path = sc_plan_source_rel(p, path);
	if (!path)
		return 0;
	/* The most specific root wins, so a roadmap inside a library root works. */
	size_t best = 0;
	int found = 0;
	for (int pass = 0; pass < 2; pass++) {
		char **roots = pass == 0 ? p->library : p->roadmap;
		size_t n = pass == 0 ? p->n_library : p->n_roadmap;
		for (size_t i = 0; i < n; i++) {
			size_t len = strlen(roots[i]);
			if (sc_root_covers(roots[i], path) && len >= best) {
				best = len;
				found = 1;
				*role = pass == 0 ? SC_ROLE_LIBRARY : SC_ROLE_ROADMAP;
			}
		}
	}
	return found;
}

void sc_plan_digest(const char *raw, size_t len, char hex[65])
{
	sc_sha256_hex(raw, len, hex);
}

static int slug_part(const char *s, size_t n, const char *extra)
{
	if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		         strchr(extra, c) != NULL;
		if (!ok || c == '\0')
			return 0;
	}
	return 1;
}

int sc_is_github_slug(const char *s)
{
	const char *slash = strchr(s, '/');
	return slash && slug_part(s, (size_t)(slash - s), "-") && slug_part(slash + 1, strlen(slash + 1), "-_.");
}
