#include "manifest.h"
#include "json.h"
#include "oid.h"

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

int sc_manifest_parse(const char *buf, size_t len, struct sc_manifest *m, struct strbuf *err)
{
	memset(m, 0, sizeof *m);
	yajl_val root = sc_json_parse(buf, len, err);
	if (!root)
		return -1;
	int rc = -1;
	const char *dir;
	if (!YAJL_IS_OBJECT(root)) {
		sb_adds(err, "lake-manifest.json is not a JSON object");
		goto out;
	}
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
	for (size_t i = 0; i < pkgs->u.array.len; i++) {
		yajl_val p = pkgs->u.array.values[i];
		const char *type, *name, *rev;
		if (sc_json_get_str(p, "type", &type, err) < 0 ||
		    sc_json_get_str(p, "name", &name, err) < 0 ||
		    sc_json_get_str(p, "rev", &rev, err) < 0)
			goto out;
		if (strcmp(type, "git") != 0) {
			sb_addf(err, "lake-manifest.json package \"%s\" is of type \"%s\", not \"git\"",
			        name, type);
			goto out;
		}
		if (!plain_name(name)) {
			sb_adds(err, "lake-manifest.json has a package name outside [A-Za-z0-9_-]");
			goto out;
		}
		if (!sc_is_lower_hex(rev, 40) && !sc_is_lower_hex(rev, 64)) {
			sb_addf(err, "lake-manifest.json package \"%s\" rev is not a full commit ID", name);
			goto out;
		}
		for (size_t j = 0; j < m->n; j++)
			if (strcmp(m->pkgs[j].name, name) == 0) {
				sb_addf(err, "lake-manifest.json lists package \"%s\" twice", name);
				goto out;
			}
		m->pkgs[m->n].name = xstrdup(name);
		m->pkgs[m->n].rev = xstrdup(rev);
		m->n++;
	}
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
	}
	free(m->pkgs);
	memset(m, 0, sizeof *m);
}
