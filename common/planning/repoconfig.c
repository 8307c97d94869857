#include "planning/repoconfig.h"
#include "contract/leanpath.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/decimal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_version_text(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] <= 0x20 || s[i] >= 0x7f)
			return 0;
	return 1;
}

static int root_listed(const struct sc_plan *p, const char *root)
{
	for (size_t i = 0; i < p->n_library; i++)
		if (strcmp(p->library[i], root) == 0)
			return 1;
	for (size_t i = 0; i < p->n_roadmap; i++)
		if (strcmp(p->roadmap[i], root) == 0)
			return 1;
	return 0;
}

static int add_root(struct sc_plan *p, int roadmap, const char *key, const char *val,
                    struct strbuf *err)
{
	if (!sc_is_valid_root(val)) {
		sb_addf(err, "%s '%s' is not a Lean module path like A/B", key, val);
		return -1;
	}
	if (root_listed(p, val)) {
		sb_addf(err, "root '%s' is listed twice", val);
		return -1;
	}
	char ***v = roadmap ? &p->roadmap : &p->library;
	size_t *n = roadmap ? &p->n_roadmap : &p->n_library;
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrdup(val);
	return 0;
}

static int set_once(char **slot, const char *key, const char *val, struct strbuf *err)
{
	if (*slot) {
		sb_addf(err, "%s is set more than once", key);
		return -1;
	}
	*slot = xstrdup(val);
	return 0;
}

/* A bound of Documentation/measurement.txt "Shards": 1 to MAX, set once. */
static int set_bound(unsigned *slot, const char *key, const char *val, unsigned max,
                     struct strbuf *err)
{
	if (*slot) {
		sb_addf(err, "%s is set more than once", key);
		return -1;
	}
	if (sc_decimal_uint(val, 1, max, slot) < 0) {
		sb_addf(err, "%s '%s' is not a count from 1 to %u", key, val, max);
		return -1;
	}
	return 0;
}

/* The older one-pin form, bwrapSha256 and bwrapVersion, until both are read. */
struct pair {
	char *sha256, *version;
};

static int add_pin(struct sc_plan *p, const char *version, const char *sha, struct strbuf *err)
{
	for (size_t i = 0; i < p->n_bwrap_pins; i++)
		if (strcmp(p->bwrap_pins[i].sha256, sha) == 0) {
			sb_addf(err, "bubblewrap SHA-256 %s is pinned twice", sha);
			return -1;
		}
	p->bwrap_pins = xrealloc(p->bwrap_pins, (p->n_bwrap_pins + 1) * sizeof *p->bwrap_pins);
	p->bwrap_pins[p->n_bwrap_pins].version = xstrdup(version);
	p->bwrap_pins[p->n_bwrap_pins++].sha256 = xstrdup(sha);
	return 0;
}

/* "bwrapPin = VERSION SHA256": two words, whatever blanks between. */
static int apply_pin(struct sc_plan *p, const char *val, struct strbuf *err)
{
	char version[65], sha[65], hex[65], extra;
	if (sscanf(val, "%64s %64s %c", version, sha, &extra) != 2 || !is_version_text(version) ||
	    sc_oid_normalize(sha, 64, hex) < 0) {
		sb_addf(err, "sandbox.bwrapPin '%s' is not VERSION SHA256 (e.g. 0.8.0 and 64 hex digits)",
		        val);
		return -1;
	}
	return add_pin(p, version, hex, err);
}

static int apply(struct sc_plan *p, struct pair *pair, const char *key, const char *val,
                 struct strbuf *err)
{
	int ours = strncmp(key, "profile.", 8) == 0 || strncmp(key, "sandbox.", 8) == 0;
	if (!ours)
		return 0;
	if (!val) {
		sb_addf(err, "%s has no value", key);
		return -1;
	}
	if (strcmp(key, "profile.library") == 0)
		return add_root(p, 0, key, val, err);
	if (strcmp(key, "profile.roadmap") == 0)
		return add_root(p, 1, key, val, err);
	if (strcmp(key, "profile.github") == 0) {
		if (!sc_is_github_slug(val)) {
			sb_addf(err, "profile.github '%s' is not owner/name", val);
			return -1;
		}
		return set_once(&p->github, key, val, err);
	}
	if (strcmp(key, "profile.tooling") == 0) {
		if (!sc_is_tree_path(val)) {
			sb_addf(err, "profile.tooling '%s' is not a relative path", val);
			return -1;
		}
		return set_once(&p->tooling_path, key, val, err);
	}
	if (strcmp(key, "profile.sourcedir") == 0) {
		if (!sc_is_tree_path(val)) {
			sb_addf(err, "profile.sourceDir '%s' is not a relative path", val);
			return -1;
		}
		if (strcmp(val, ".") == 0)
			return p->source_dir ? (sb_adds(err, "profile.sourceDir is set more than once"), -1) : 0;
		return set_once(&p->source_dir, "profile.sourceDir", val, err);
	}
	if (strcmp(key, "profile.maxfiles") == 0)
		return set_bound(&p->max_files, "profile.maxFiles", val, SC_MAX_FILES_CEILING, err);
	if (strcmp(key, "profile.filespershard") == 0)
		return set_bound(&p->files_per_shard, "profile.filesPerShard", val, SC_MAX_FILES_CEILING,
		                 err);
	if (strcmp(key, "profile.maxshards") == 0)
		return set_bound(&p->max_shards, "profile.maxShards", val, SC_MAX_SHARDS, err);
	if (strcmp(key, "sandbox.bwrapsha256") == 0) {
		char hex[65];
		if (sc_oid_normalize(val, 64, hex) < 0) {
			sb_adds(err, "sandbox.bwrapSha256 is not 64 hex digits");
			return -1;
		}
		return set_once(&pair->sha256, "sandbox.bwrapSha256", hex, err);
	}
	if (strcmp(key, "sandbox.bwrapversion") == 0) {
		if (!is_version_text(val)) {
			sb_adds(err, "sandbox.bwrapVersion is not a plain version string");
			return -1;
		}
		return set_once(&pair->version, "sandbox.bwrapVersion", val, err);
	}
	if (strcmp(key, "sandbox.bwrappin") == 0)
		return apply_pin(p, val, err);
	sb_addf(err, "unknown key %s", key);
	return -1;
}

int sc_repoconfig_parse(const char *list, size_t len, struct sc_plan *p, struct strbuf *err)
{
	/* Each entry is "key\nvalue\0", or "key\0" for a key without '='. */
	size_t pos = 0;
	struct pair pair = {NULL, NULL};
	int rc = 0;
	while (rc == 0 && pos < len) {
		const char *ent = list + pos;
		const char *end = memchr(ent, '\0', len - pos);
		if (!end) {
			sb_adds(err, "unterminated entry in git config output");
			rc = -1;
			break;
		}
		size_t n = (size_t)(end - ent);
		const char *nl = memchr(ent, '\n', n);
		char *key = xstrndup(ent, nl ? (size_t)(nl - ent) : n);
		char *val = nl ? xstrndup(nl + 1, (size_t)(end - nl - 1)) : NULL;
		rc = apply(p, &pair, key, val, err);
		free(key);
		free(val);
		pos += n + 1;
	}
	/* The pair is the first pin, where .sphereceti lists it or not. */
	if (rc == 0 && (!pair.sha256 != !pair.version)) {
		sb_adds(err, "sandbox.bwrapSha256 and sandbox.bwrapVersion go together (or use bwrapPin)");
		rc = -1;
	} else if (rc == 0 && pair.sha256) {
		struct sc_bwrap_pin *later = p->bwrap_pins;
		size_t n = p->n_bwrap_pins;
		p->bwrap_pins = NULL, p->n_bwrap_pins = 0;
		rc = add_pin(p, pair.version, pair.sha256, err);
		for (size_t i = 0; i < n; i++) {
			if (rc == 0)
				rc = add_pin(p, later[i].version, later[i].sha256, err);
			free(later[i].version);
			free(later[i].sha256);
		}
		free(later);
	}
	free(pair.sha256);
	free(pair.version);
	return rc;
}

enum sc_exit sc_repoconfig_verdict(int found, unsigned mode, const char *tooling_where, const char *spec,
                          int git_rc, int parsed, const char *parse_err,
                          const struct sc_plan *p, struct strbuf *why)
{
	if (!found)
		sb_addf(why, "missing configuration: the tooling commit has no %s (%s)", SC_CONFIG_FILE,
		        tooling_where);
	else if (!sc_is_regular_mode(mode))
		sb_addf(why, "missing configuration: %s is not a regular file (%s)", SC_CONFIG_FILE,
		        tooling_where);
	else if (git_rc != 0)
		sb_addf(why, "invalid configuration: git config cannot parse it (%s)", spec);
	else if (parsed < 0)
		sb_addf(why, "invalid configuration: %s (%s)", parse_err, spec);
	else if (!p->n_library)
		sb_addf(why, "missing configuration: no profile.library root (%s)", spec);
	else
		return SC_EXIT_OK;
	return SC_EXIT_USAGE;
}
