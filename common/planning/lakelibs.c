#include "planning/lakelibs.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_LIBS 1024
#define MAX_ITEMS 4096
#define MAX_STRING 65536

struct toml {
	const char *p, *end;
	int depth;
	struct strbuf *err;
	int line;
};

/* What a value is, and, when asked for, its text or string items. */
struct capture {
	int is_string, all_strings;
	struct strbuf s;
	char **items;
	size_t n;
};

static int fail(struct toml *t, const char *what)
{
	if (!t->err->len)
		sb_addf(t->err, "lakefile.toml line %d: %s", t->line, what);
	return -1;
}

static int at(const struct toml *t, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(t->end - t->p) >= n && memcmp(t->p, s, n) == 0;
}

/* Blanks and comments; newlines too when NL. */
static void skip_ws(struct toml *t, int nl)
{
	while (t->p < t->end) {
		char c = *t->p;
		if (c == ' ' || c == '\t' || (nl && c == '\r')) {
			t->p++;
		} else if (nl && c == '\n') {
			t->line++;
			t->p++;
		} else if (c == '#') {
			while (t->p < t->end && *t->p != '\n')
				t->p++;
		} else {
			return;
		}
	}
}

static int add_byte(struct toml *t, struct strbuf *out, char c)
{
	if (out->len >= MAX_STRING)
		return fail(t, "string too long");
	sb_add(out, &c, 1);
	return 0;
}

/* A backslash escape of a basic string (TOML: \b \t \n \f \r \" \\ and
 * \uXXXX / \UXXXXXXXX, kept as UTF-8). */
static int escape(struct toml *t, struct strbuf *out)
{
	static const char from[] = "btnfr\"\\", to[] = "\b\t\n\f\r\"\\";
	if (t->p >= t->end)
		return fail(t, "unterminated string");
	char c = *t->p++;
	const char *e = strchr(from, c);
	if (c && e)
		return add_byte(t, out, to[e - from]);
	int digits = c == 'u' ? 4 : c == 'U' ? 8 : 0;
	if (!digits || t->end - t->p < digits)
		return fail(t, "bad escape in a string");
	unsigned long cp = 0;
	for (int i = 0; i < digits; i++) {
		char h = *t->p++;
		int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
		                                       : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
		if (v < 0)
			return fail(t, "bad escape in a string");
		cp = cp * 16 + (unsigned long)v;
	}
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return fail(t, "bad escape in a string");
	unsigned char u[4];
	int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	static const unsigned char lead[] = {0, 0, 0xc0, 0xe0, 0xf0};
	for (int i = n - 1; i > 0; i--, cp >>= 6)
		u[i] = (unsigned char)(0x80 | (cp & 0x3f));
	u[0] = (unsigned char)(lead[n] | cp);
	for (int i = 0; i < n; i++)
		if (add_byte(t, out, (char)u[i]) < 0)
			return -1;
	return 0;
}

/* A string of any of the four kinds, at t->p, into OUT. */
static int string(struct toml *t, struct strbuf *out)
{
	char q = *t->p;
	int multi = at(t, q == '"' ? "\"\"\"" : "'''");
	t->p += multi ? 3 : 1;
	if (multi && t->p < t->end && *t->p == '\n') /* a newline right after the quotes is dropped */
		t->p++, t->line++;
	for (;;) {
		if (t->p >= t->end)
			return fail(t, "unterminated string");
		char c = *t->p;
		if (c == q && (!multi || at(t, q == '"' ? "\"\"\"" : "'''"))) {
			t->p += multi ? 3 : 1;
			return 0;
		}
		t->p++;
		if (c == '\n') {
			if (!multi)
				return fail(t, "newline in a string");
			t->line++;
		}
		if (c == '\\' && q == '"') {
			if (multi && t->p < t->end && (*t->p == '\n' || *t->p == ' ' || *t->p == '\r')) {
				skip_ws(t, 1); /* a line-ending backslash trims what follows */
				continue;
			}
			if (escape(t, out) < 0)
				return -1;
		} else if (add_byte(t, out, c) < 0) {
			return -1;
		}
	}
}

/* A key, its dotted parts joined with '.'. */
static int key(struct toml *t, struct strbuf *out)
{
	for (;;) {
		skip_ws(t, 0);
		if (t->p < t->end && (*t->p == '"' || *t->p == '\'')) {
			if (string(t, out) < 0)
				return -1;
		} else {
			const char *s = t->p;
			while (t->p < t->end && (*t->p == '_' || *t->p == '-' || (*t->p >= '0' && *t->p <= '9') ||
			                         ((*t->p | 0x20) >= 'a' && (*t->p | 0x20) <= 'z')))
				t->p++;
			if (t->p == s)
				return fail(t, "expected a key");
			sb_add(out, s, (size_t)(t->p - s));
		}
		skip_ws(t, 0);
		if (t->p >= t->end || *t->p != '.')
			return 0;
		t->p++;
		sb_adds(out, ".");
	}
}

static int value(struct toml *t, struct capture *c);

static void capture_release(struct capture *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->items[i]);
	free(c->items);
	sb_release(&c->s);
}

static void capture_item(struct capture *c, struct capture *item)
{
	if (!item->is_string) {
		c->all_strings = 0;
		return;
	}
	c->items = xrealloc(c->items, (c->n + 1) * sizeof *c->items);
	c->items[c->n++] = sb_detach(&item->s, NULL);
}

/* [ v, v, ... ] with newlines and comments anywhere, a trailing comma. */
static int array(struct toml *t, struct capture *c)
{
	t->p++;
	c->all_strings = 1;
	for (size_t n = 0;; n++) {
		skip_ws(t, 1);
		if (t->p < t->end && *t->p == ']') {
			t->p++;
			return 0;
		}
		if (n >= MAX_ITEMS)
			return fail(t, "array too long");
		struct capture item = {.s = STRBUF_INIT};
		int rc = value(t, &item);
		if (rc == 0)
			capture_item(c, &item);
		capture_release(&item);
		if (rc < 0)
			return -1;
		skip_ws(t, 1);
		if (t->p < t->end && *t->p == ',')
			t->p++;
		else if (t->p >= t->end || *t->p != ']')
			return fail(t, "expected ',' or ']' in an array");
	}
}

/* { k = v, ... }: read through, never kept. */
static int inline_table(struct toml *t)
{
	t->p++;
	for (size_t n = 0;; n++) {
		skip_ws(t, 1);
		if (t->p < t->end && *t->p == '}') {
			t->p++;
			return 0;
		}
		if (n >= MAX_ITEMS)
			return fail(t, "inline table too long");
		struct strbuf k = STRBUF_INIT;
		int rc = key(t, &k);
		sb_release(&k);
		if (rc < 0)
			return -1;
		if (t->p >= t->end || *t->p != '=')
			return fail(t, "expected '=' in an inline table");
		t->p++;
		struct capture skip = {.s = STRBUF_INIT};
		rc = value(t, &skip);
		capture_release(&skip);
		if (rc < 0)
			return -1;
		skip_ws(t, 1);
		if (t->p < t->end && *t->p == ',')
			t->p++;
		else if (t->p >= t->end || *t->p != '}')
			return fail(t, "expected ',' or '}' in an inline table");
	}
}

/* Numbers, booleans, dates and times: one token, not kept. */
static int bare(struct toml *t)
{
	const char *s = t->p;
	while (t->p < t->end && !strchr(" \t\r\n,]}#", *t->p))
		t->p++;
	if (t->p == s)
		return fail(t, "expected a value");
	for (const char *q = s; q < t->p; q++)
		if (!strchr("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+-_.:", *q))
			return fail(t, "unsupported value");
	return 0;
}

static int value(struct toml *t, struct capture *c)
{
	skip_ws(t, 0);
	if (t->p >= t->end)
		return fail(t, "expected a value");
	if (++t->depth > MAX_DEPTH)
		return fail(t, "nested too deeply");
	int rc;
	if (*t->p == '"' || *t->p == '\'') {
		c->is_string = 1;
		rc = string(t, &c->s);
	} else if (*t->p == '[') {
		rc = array(t, c);
	} else if (*t->p == '{') {
		rc = inline_table(t);
	} else {
		rc = bare(t);
	}
	t->depth--;
	return rc;
}

/* After a statement: blanks, a comment, then the end of the line. */
static int line_end(struct toml *t)
{
	skip_ws(t, 0);
	if (t->p < t->end && *t->p != '\n' && *t->p != '\r')
		return fail(t, "expected the end of the line");
	return 0;
}

/* Where keys go: the package (top level), a lean_lib, or elsewhere. */
enum place { PACKAGE, LIB, OTHER };

struct reading {
	struct sc_lake_libs *l;
	char *pkg_src_dir;
	char **lib_src_dirs; /* each lib's own srcDir, joined at the end */
	enum place where;
};

static int header(struct toml *t, struct reading *r)
{
	int twice = at(t, "[[");
	t->p += twice ? 2 : 1;
	struct strbuf k = STRBUF_INIT;
	if (key(t, &k) < 0 || !at(t, twice ? "]]" : "]")) {
		sb_release(&k);
		return fail(t, "bad table header");
	}
	t->p += twice ? 2 : 1;
	r->where = twice && strcmp(k.buf, "lean_lib") == 0 ? LIB : OTHER;
	sb_release(&k);
	if (r->where == LIB) {
		struct sc_lake_libs *l = r->l;
		if (l->n >= MAX_LIBS)
			return fail(t, "too many lean_lib tables");
		l->libs = xrealloc(l->libs, (l->n + 1) * sizeof *l->libs);
		r->lib_src_dirs = xrealloc(r->lib_src_dirs, (l->n + 1) * sizeof *r->lib_src_dirs);
		memset(&l->libs[l->n], 0, sizeof *l->libs);
		r->lib_src_dirs[l->n] = NULL;
		l->n++;
	}
	return line_end(t);
}

static void take_names(struct sc_lean_lib *lib, struct capture *c, int globs)
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
static int assignment(struct toml *t, struct reading *r)
{
	struct strbuf k = STRBUF_INIT;
	struct capture c = {.s = STRBUF_INIT};
	int rc = key(t, &k);
	if (rc == 0 && (t->p >= t->end || *t->p != '='))
		rc = fail(t, "expected '=' after a key");
	if (rc == 0) {
		t->p++;
		rc = value(t, &c);
	}
	if (rc == 0)
		rc = line_end(t);
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
		rc = fail(t, "srcDir and name must be strings");
	}
	capture_release(&c);
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
	struct toml t = {text, text + len, 0, err, 1};
	struct reading r = {l, NULL, NULL, PACKAGE};
	int rc = 0;
	for (;;) {
		skip_ws(&t, 1);
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
