#include "planning/lakelibs.h"
#include "util/toml.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LIBS 1024

/* Where keys go: the package (top level), a lean_lib, or elsewhere. */
enum place { PACKAGE, LIB, OTHER };

struct reading {
	struct sc_lake_libs *l;
	char *pkg_src_dir;
	char **lib_src_dirs; /* each lib's own srcDir, joined at the end */
	enum place where;
};

static int header(struct sc_toml *t, struct reading *r)
{
	int twice = sc_toml_at(t, "[[");
	t->p += twice ? 2 : 1;
	struct strbuf k = STRBUF_INIT;
	if (sc_toml_key(t, &k) < 0 || !sc_toml_at(t, twice ? "]]" : "]")) {
		sb_release(&k);
		return sc_toml_fail(t, "bad table header");
	}
	t->p += twice ? 2 : 1;
	r->where = twice && strcmp(k.buf, "lean_lib") == 0 ? LIB : OTHER;
	sb_release(&k);
	if (r->where == LIB) {
		struct sc_lake_libs *l = r->l;
		if (l->n >= MAX_LIBS)
			return sc_toml_fail(t, "too many lean_lib tables");
		l->libs = xrealloc(l->libs, (l->n + 1) * sizeof *l->libs);
		r->lib_src_dirs = xrealloc(r->lib_src_dirs, (l->n + 1) * sizeof *r->lib_src_dirs);
		memset(&l->libs[l->n], 0, sizeof *l->libs);
		r->lib_src_dirs[l->n] = NULL;
		l->n++;
	}
	return sc_toml_line_end(t);
}

static void take_names(struct sc_lean_lib *lib, struct sc_toml_value *c, int globs)
{
	if (!c->all_strings || c->is_string) {
		lib->opaque = 1;
		return;
	}
	for (size_t i = 0; i < c->n; i++) {
		char *s = c->items[i];
		size_t n = strlen(s);
		if (!n || strstr(s, "\xc2\xab")) { /* «» names are beyond this reader */
			lib->opaque = 1;
			continue;
		}
		if (!globs) {
			lib->roots = xrealloc(lib->roots, (lib->n_roots + 1) * sizeof *lib->roots);
			lib->roots[lib->n_roots++] = xstrdup(s);
			continue;
		}
		enum sc_glob_kind kind = SC_GLOB_ONE;
		if (n > 2 && (strcmp(s + n - 2, ".*") == 0 || strcmp(s + n - 2, ".+") == 0)) {
			kind = s[n - 1] == '*' ? SC_GLOB_AND_SUBMODULES : SC_GLOB_SUBMODULES;
			s[n - 2] = '\0';
		}
		lib->globs = xrealloc(lib->globs, (lib->n_globs + 1) * sizeof *lib->globs);
		lib->globs[lib->n_globs].name = xstrdup(s);
		lib->globs[lib->n_globs++].kind = kind;
	}
}

/* key = value, kept when it is one of the keys read. */
static int assignment(struct sc_toml *t, struct reading *r)
{
	struct strbuf k = STRBUF_INIT;
	struct sc_toml_value c = {.s = STRBUF_INIT};
	int rc = sc_toml_key(t, &k);
	if (rc == 0 && (t->p >= t->end || *t->p != '='))
		rc = sc_toml_fail(t, "expected '=' after a key");
	if (rc == 0) {
		t->p++;
		rc = sc_toml_value(t, &c);
	}
	if (rc == 0)
		rc = sc_toml_line_end(t);
	struct sc_lean_lib *lib = r->where == LIB ? &r->l->libs[r->l->n - 1] : NULL;
	int is_src = strcmp(k.buf, "srcDir") == 0;
	if (rc == 0 && r->where == PACKAGE && is_src && c.is_string) {
		free(r->pkg_src_dir);
		r->pkg_src_dir = sb_detach(&c.s, NULL);
	} else if (rc == 0 && lib && is_src && c.is_string) {
		free(r->lib_src_dirs[r->l->n - 1]);
		r->lib_src_dirs[r->l->n - 1] = sb_detach(&c.s, NULL);
	} else if (rc == 0 && lib && strcmp(k.buf, "name") == 0 && c.is_string) {
		free(lib->name);
		lib->name = sb_detach(&c.s, NULL);
	} else if (rc == 0 && lib && (strcmp(k.buf, "roots") == 0 || strcmp(k.buf, "globs") == 0)) {
		take_names(lib, &c, k.buf[0] == 'g');
	} else if (rc == 0 && (is_src || (lib && strcmp(k.buf, "name") == 0))) {
		rc = sc_toml_fail(t, "srcDir and name must be strings");
	}
	sc_toml_value_release(&c);
	sb_release(&k);
	return rc;
}

/* "./a//b/" -> "a/b"; NULL when it leaves the package (.., absolute). */
static char *normalized(const char *pkg, const char *lib)
{
	struct strbuf out = STRBUF_INIT;
	const char *parts[2] = {pkg ? pkg : ".", lib ? lib : "."};
	for (int i = 0; i < 2; i++) {
		const char *s = parts[i];
		if (*s == '/') {
			sb_release(&out);
			return NULL;
		}
		while (*s) {
			size_t n = strcspn(s, "/");
			if (n == 2 && s[0] == '.' && s[1] == '.') {
				sb_release(&out);
				return NULL;
			}
			if (n && !(n == 1 && s[0] == '.')) {
				if (out.len)
					sb_adds(&out, "/");
				sb_add(&out, s, n);
			}
			s += n + (s[n] == '/');
		}
	}
	return sb_detach(&out, NULL);
}

static int finish(struct reading *r, struct strbuf *err)
{
	for (size_t i = 0; i < r->l->n; i++) {
		struct sc_lean_lib *lib = &r->l->libs[i];
		if (!lib->name) {
			sb_addf(err, "lakefile.toml: a lean_lib has no name");
			return -1;
		}
		lib->src_dir = normalized(r->pkg_src_dir, r->lib_src_dirs[i]);
		if (!lib->opaque && !lib->n_roots) { /* Config/LeanLibConfig.lean: roots := #[name] */
			lib->roots = xcalloc(1, sizeof *lib->roots);
			lib->roots[lib->n_roots++] = xstrdup(lib->name);
		}
		if (!lib->opaque && !lib->n_globs) { /* globs := roots.map Glob.one */
			lib->globs = xcalloc(lib->n_roots, sizeof *lib->globs);
			for (size_t j = 0; j < lib->n_roots; j++)
				lib->globs[lib->n_globs++].name = xstrdup(lib->roots[j]);
		}
	}
	return 0;
}

int sc_lakelibs_parse(const char *text, size_t len, struct sc_lake_libs *l, struct strbuf *err)
{
	memset(l, 0, sizeof *l);
	if (len > SC_LAKELIBS_MAX) {
		sb_addf(err, "lakefile.toml is larger than %u bytes", SC_LAKELIBS_MAX);
		return -1;
	}
	if (memchr(text, '\0', len)) {
		sb_adds(err, "lakefile.toml holds a NUL byte");
		return -1;
	}
	struct sc_toml t;
	sc_toml_init(&t, text, len, "lakefile.toml", err);
	struct reading r = {l, NULL, NULL, PACKAGE};
	int rc = 0;
	for (;;) {
		sc_toml_skip_ws(&t, 1);
		if (t.p >= t.end)
			break;
		rc = *t.p == '[' ? header(&t, &r) : assignment(&t, &r);
		if (rc < 0)
			break;
	}
	if (rc == 0)
		rc = finish(&r, err);
	for (size_t i = 0; i < l->n; i++)
		free(r.lib_src_dirs[i]);
	free(r.lib_src_dirs);
	free(r.pkg_src_dir);
	if (rc < 0)
		sc_lakelibs_free(l);
	return rc;
}

void sc_lakelibs_free(struct sc_lake_libs *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct sc_lean_lib *lib = &l->libs[i];
		free(lib->name);
		free(lib->src_dir);
		for (size_t j = 0; j < lib->n_roots; j++)
			free(lib->roots[j]);
		free(lib->roots);
		for (size_t j = 0; j < lib->n_globs; j++)
			free(lib->globs[j].name);
		free(lib->globs);
	}
	free(l->libs);
	memset(l, 0, sizeof *l);
}

/* Name.isPrefixOf, by components: A is a prefix of A and of A.B. */
static int name_prefix(const char *pre, const char *mod)
{
	size_t n = strlen(pre);
	return strncmp(pre, mod, n) == 0 && (mod[n] == '\0' || mod[n] == '.');
}

/* Config/Glob.lean Glob.matches. */
static int glob_matches(const struct sc_glob *g, const char *mod)
{
	switch (g->kind) {
	case SC_GLOB_ONE: return strcmp(g->name, mod) == 0;
	case SC_GLOB_SUBMODULES: return name_prefix(g->name, mod) && strcmp(g->name, mod) != 0;
	default: return name_prefix(g->name, mod);
	}
}

int sc_lean_lib_builds(const struct sc_lean_lib *lib, const char *mod)
{
	if (lib->opaque)
		return 1;
	for (size_t i = 0; i < lib->n_globs; i++) {
		if (glob_matches(&lib->globs[i], mod))
			return 1;
		for (size_t j = 0; j < lib->n_roots; j++)
			if (name_prefix(lib->roots[j], mod) && glob_matches(&lib->globs[i], lib->roots[j]))
				return 1;
	}
	return 0;
}

const struct sc_lean_lib *sc_lakelibs_find(const struct sc_lake_libs *l, const char *mod,
                                           const char *src_dir)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct sc_lean_lib *lib = &l->libs[i];
		int same_dir = !lib->src_dir || strcmp(lib->src_dir, src_dir ? src_dir : "") == 0;
		if (same_dir && sc_lean_lib_builds(lib, mod))
			return lib;
	}
	return NULL;
}
