#include "contract/manifest.h"
#include "util/json.h"
#include "contract/leanpath.h"
#include "util/oid.h"

#include <stdlib.h>
#include <string.h>

static int plain_name(const char *s)
{
	if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* Lean's «» escape names the unescaped folder (Materialize.lean:
 * name.toString (escape := false)); NULL if the name is not plain. */
static char *folder_of(const char *name)
{
	size_t n = strlen(name);
	char *d = n >= 4 && strncmp(name, "\xc2\xab", 2) == 0 && strcmp(name + n - 2, "\xc2\xbb") == 0
	                  ? xstrndup(name + 2, n - 4) : xstrdup(name);
	if (!plain_name(d)) {
		free(d);
		return NULL;
	}
	return d;
}

/* Lake's Util/Version.lean SemVerCore.parse: exactly three '.'-separated
 * decimal numerals.  0, or -1 when S is not one. */
static int semver_core(const char *s, size_t n, unsigned long v[3])
{
	for (int i = 0; i < 3; i++) {
		size_t k = 0;
		v[i] = 0;
		for (; k < n && s[k] >= '0' && s[k] <= '9'; k++) {
			if (v[i] > 100000) /* far above any schema Lake has; bounds the arithmetic */
				return -1;
			v[i] = v[i] * 10 + (unsigned long)(s[k] - '0');
		}
		if (k == 0 || (i < 2 ? k >= n || s[k] != '.' : k != n))
			return -1;
		s += k + 1;
		n -= k + (i < 2);
	}
	return 0;
}

/* The schema version as Lake's Load/Manifest.lean getVersion reads it:
 * "version", else "schemaVersion"; a natural number n is 0.n.0, a string
 * is StdVer.parse ("x.y.z", optionally "-suffix", the suffix ignored);
 * readable when 0.5.0 <= version and major <= 1.  0 with *v6 set when
 * entries have the old {"git": {...}} shape (below 0.7.0), else -1 with
 * err set. */
static int read_version(yajl_val root, int *v6, struct strbuf *err)
{
	yajl_val v = sc_json_member(root, "version");
	if (!v)
		v = sc_json_member(root, "schemaVersion");
	unsigned long ver[3] = {0, 0, 0};
	if (v && YAJL_IS_INTEGER(v) && YAJL_GET_INTEGER(v) >= 0) {
		ver[1] = (unsigned long)YAJL_GET_INTEGER(v);
	} else if (v && YAJL_IS_STRING(v)) {
		const char *s = YAJL_GET_STRING(v), *dash = strchr(s, '-');
		size_t n = dash ? (size_t)(dash - s) : strlen(s);
		if (semver_core(s, n, ver) < 0 || (dash && !dash[1])) {
			sb_adds(err, "lake-manifest.json has a schema version that is not x.y.z[-suffix]");
			return -1;
		}
	} else {
		sb_adds(err, v ? "lake-manifest.json has a schema version that is neither a number nor a string"
		               : "lake-manifest.json has no \"version\" or \"schemaVersion\"");
		return -1;
	}
	if (ver[0] > 1 || (ver[0] == 0 && ver[1] < 5)) {
		sb_addf(err, "lake-manifest.json has schema version %lu.%lu.%lu; Lake reads 0.5.0 (5) to 1.x.y",
		        ver[0], ver[1], ver[2]);
		return -1;
	}
	*v6 = ver[0] == 0 && ver[1] < 7;
	return 0;
}

static int add_pkg(struct sc_manifest *m, yajl_val e, int v6, struct strbuf *err)
{
	const char *type = "git", *name, *rev, *sub = NULL;
	const char *subkey = v6 ? "subDir?" : "subDir";
	yajl_val g = v6 ? sc_json_member(e, "git") : e;
	if (v6 && (!g || !YAJL_IS_OBJECT(g))) {
		sb_adds(err, "lake-manifest.json has a package that is not a git package");
		return -1;
	}
	if ((!v6 && sc_json_get_str(g, "type", &type, err) < 0) || sc_json_get_str(g, "name", &name, err) < 0 ||
	    sc_json_get_str(g, "rev", &rev, err) < 0 ||
	    (sc_json_member(g, subkey) && sc_json_get_str_or_null(g, subkey, &sub, err) < 0))
		return -1;
	if (strcmp(type, "git") != 0) {
		sb_addf(err, "lake-manifest.json package \"%s\" is of type \"%s\", not \"git\"", name, type);
		return -1;
	}
	char *dir = folder_of(name);
	if (!dir) {
		sb_adds(err, "lake-manifest.json has a package name outside [A-Za-z0-9_-]");
		return -1;
	}
	struct sc_manifest_pkg *p = &m->pkgs[m->n];
	p->name = dir;
	if (!sc_is_lower_hex(rev, 40) && !sc_is_lower_hex(rev, 64)) {
		sb_addf(err, "lake-manifest.json package \"%s\" rev is not a full commit ID", dir);
		goto bad;
	}
	if (sub && (!sc_is_tree_path(sub) || strcmp(sub, ".") == 0)) {
		sb_addf(err, "lake-manifest.json package \"%s\" subDir is not a relative path", dir);
		goto bad;
	}
	for (size_t j = 0; j < m->n; j++)
		if (strcmp(m->pkgs[j].name, dir) == 0) {
			sb_addf(err, "lake-manifest.json lists package \"%s\" twice", dir);
			goto bad;
		}
	p->rev = xstrdup(rev);
	p->subdir = sub ? xstrdup(sub) : NULL;
	m->n++;
	return 0;
bad:
	free(dir);
	p->name = NULL;
	return -1;
}

int sc_manifest_parse(const char *buf, size_t len, struct sc_manifest *m, struct strbuf *err)
{
	memset(m, 0, sizeof *m);
	yajl_val root = sc_json_parse(buf, len, err);
	if (!root)
		return -1;
	int rc = -1;
	const char *dir;
	int v6;
	if (!YAJL_IS_OBJECT(root)) {
		sb_adds(err, "lake-manifest.json is not a JSON object");
		goto out;
	}
	if (read_version(root, &v6, err) < 0)
		goto out;
	if (sc_json_member(root, "packagesDir")) {
		if (sc_json_get_str(root, "packagesDir", &dir, err) < 0)
			goto out;
		if (strcmp(dir, ".lake/packages") != 0) {
			sb_addf(err, "lake-manifest.json packagesDir is \"%s\", not \".lake/packages\"", dir);
			goto out;
		}
	}
	yajl_val pkgs = sc_json_member(root, "packages");
	if (!pkgs) {
		rc = 0;
		goto out;
	}
	if (!YAJL_IS_ARRAY(pkgs)) {
		sb_adds(err, "lake-manifest.json \"packages\" is not an array");
		goto out;
	}
	m->pkgs = xcalloc(pkgs->u.array.len, sizeof *m->pkgs);
	for (size_t i = 0; i < pkgs->u.array.len; i++)
		if (add_pkg(m, pkgs->u.array.values[i], v6, err) < 0)
			goto out;
	rc = 0;
out:
	yajl_tree_free(root);
	if (rc < 0)
		sc_manifest_free(m);
	return rc;
}

void sc_manifest_free(struct sc_manifest *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->pkgs[i].name);
		free(m->pkgs[i].rev);
		free(m->pkgs[i].subdir);
	}
	free(m->pkgs);
	memset(m, 0, sizeof *m);
}
