#include "util/toml.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_ITEMS 4096
#define MAX_STRING 65536

int sc_toml_fail(struct sc_toml *t, const char *what)
{
	if (!t->err->len)
		sb_addf(t->err, "%s line %d: %s", t->name, t->line, what);
	return -1;
}

int sc_toml_at(const struct sc_toml *t, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(t->end - t->p) >= n && memcmp(t->p, s, n) == 0;
}

/* Blanks and comments; newlines too when NL. */
void sc_toml_skip_ws(struct sc_toml *t, int nl)
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

static int add_byte(struct sc_toml *t, struct strbuf *out, char c)
{
	if (out->len >= MAX_STRING)
		return sc_toml_fail(t, "string too long");
	sb_add(out, &c, 1);
	return 0;
}

/* A backslash escape of a basic string (TOML: \b \t \n \f \r \" \\ and
 * \uXXXX / \UXXXXXXXX, kept as UTF-8). */
static int escape(struct sc_toml *t, struct strbuf *out)
{
	static const char from[] = "btnfr\"\\", to[] = "\b\t\n\f\r\"\\";
	if (t->p >= t->end)
		return sc_toml_fail(t, "unterminated string");
	char c = *t->p++;
	const char *e = strchr(from, c);
	if (c && e)
		return add_byte(t, out, to[e - from]);
	int digits = c == 'u' ? 4 : c == 'U' ? 8 : 0;
	if (!digits || t->end - t->p < digits)
		return sc_toml_fail(t, "bad escape in a string");
	unsigned long cp = 0;
	for (int i = 0; i < digits; i++) {
		char h = *t->p++;
		int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
		                                       : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
		if (v < 0)
			return sc_toml_fail(t, "bad escape in a string");
		cp = cp * 16 + (unsigned long)v;
	}
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return sc_toml_fail(t, "bad escape in a string");
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
static int string(struct sc_toml *t, struct strbuf *out)
{
	char q = *t->p;
	int multi = sc_toml_at(t, q == '"' ? "\"\"\"" : "'''");
	t->p += multi ? 3 : 1;
	if (multi && t->p < t->end && *t->p == '\n') /* a newline right after the quotes is dropped */
		t->p++, t->line++;
	for (;;) {
		if (t->p >= t->end)
			return sc_toml_fail(t, "unterminated string");
		char c = *t->p;
		if (c == q && (!multi || sc_toml_at(t, q == '"' ? "\"\"\"" : "'''"))) {
			t->p += multi ? 3 : 1;
			return 0;
		}
		t->p++;
		if (c == '\n') {
			if (!multi)
				return sc_toml_fail(t, "newline in a string");
			t->line++;
		}
		if (c == '\\' && q == '"') {
			if (multi && t->p < t->end && (*t->p == '\n' || *t->p == ' ' || *t->p == '\r')) {
				sc_toml_skip_ws(t, 1); /* a line-ending backslash trims what follows */
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
int sc_toml_key(struct sc_toml *t, struct strbuf *out)
{
	for (;;) {
		sc_toml_skip_ws(t, 0);
		if (t->p < t->end && (*t->p == '"' || *t->p == '\'')) {
			if (string(t, out) < 0)
				return -1;
		} else {
			const char *s = t->p;
			while (t->p < t->end && (*t->p == '_' || *t->p == '-' || (*t->p >= '0' && *t->p <= '9') ||
			                         ((*t->p | 0x20) >= 'a' && (*t->p | 0x20) <= 'z')))
				t->p++;
			if (t->p == s)
				return sc_toml_fail(t, "expected a key");
			sb_add(out, s, (size_t)(t->p - s));
		}
		sc_toml_skip_ws(t, 0);
		if (t->p >= t->end || *t->p != '.')
			return 0;
		t->p++;
		sb_adds(out, ".");
	}
}

void sc_toml_value_release(struct sc_toml_value *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->items[i]);
	free(c->items);
	sb_release(&c->s);
}

static void capture_item(struct sc_toml_value *c, struct sc_toml_value *item)
{
	if (!item->is_string) {
		c->all_strings = 0;
		return;
	}
	c->items = xrealloc(c->items, (c->n + 1) * sizeof *c->items);
	c->items[c->n++] = sb_detach(&item->s, NULL);
}

/* [ v, v, ... ] with newlines and comments anywhere, a trailing comma. */
static int array(struct sc_toml *t, struct sc_toml_value *c)
{
	t->p++;
	c->all_strings = 1;
	for (size_t n = 0;; n++) {
		sc_toml_skip_ws(t, 1);
		if (t->p < t->end && *t->p == ']') {
			t->p++;
			return 0;
		}
		if (n >= MAX_ITEMS)
			return sc_toml_fail(t, "array too long");
		struct sc_toml_value item = {.s = STRBUF_INIT};
		int rc = sc_toml_value(t, &item);
		if (rc == 0)
			capture_item(c, &item);
		sc_toml_value_release(&item);
		if (rc < 0)
			return -1;
		sc_toml_skip_ws(t, 1);
		if (t->p < t->end && *t->p == ',')
			t->p++;
		else if (t->p >= t->end || *t->p != ']')
			return sc_toml_fail(t, "expected ',' or ']' in an array");
	}
}

/* { k = v, ... }: read through, never kept. */
static int inline_table(struct sc_toml *t)
{
	t->p++;
	for (size_t n = 0;; n++) {
		sc_toml_skip_ws(t, 1);
		if (t->p < t->end && *t->p == '}') {
			t->p++;
			return 0;
		}
		if (n >= MAX_ITEMS)
			return sc_toml_fail(t, "inline table too long");
		struct strbuf k = STRBUF_INIT;
		int rc = sc_toml_key(t, &k);
		sb_release(&k);
		if (rc < 0)
			return -1;
		if (t->p >= t->end || *t->p != '=')
			return sc_toml_fail(t, "expected '=' in an inline table");
		t->p++;
		struct sc_toml_value skip = {.s = STRBUF_INIT};
		rc = sc_toml_value(t, &skip);
		sc_toml_value_release(&skip);
		if (rc < 0)
			return -1;
		sc_toml_skip_ws(t, 1);
		if (t->p < t->end && *t->p == ',')
			t->p++;
		else if (t->p >= t->end || *t->p != '}')
			return sc_toml_fail(t, "expected ',' or '}' in an inline table");
	}
}

/* Numbers, booleans, dates and times: one token, not kept. */
static int bare(struct sc_toml *t)
{
	const char *s = t->p;
	while (t->p < t->end && !strchr(" \t\r\n,]}#", *t->p))
		t->p++;
	if (t->p == s)
		return sc_toml_fail(t, "expected a value");
	for (const char *q = s; q < t->p; q++)
		if (!strchr("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+-_.:", *q))
			return sc_toml_fail(t, "unsupported value");
	return 0;
}

int sc_toml_value(struct sc_toml *t, struct sc_toml_value *c)
{
	sc_toml_skip_ws(t, 0);
	if (t->p >= t->end)
		return sc_toml_fail(t, "expected a value");
	if (++t->depth > MAX_DEPTH)
		return sc_toml_fail(t, "nested too deeply");
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
int sc_toml_line_end(struct sc_toml *t)
{
	sc_toml_skip_ws(t, 0);
	if (t->p < t->end && *t->p != '\n' && *t->p != '\r')
		return sc_toml_fail(t, "expected the end of the line");
	return 0;
}

void sc_toml_init(struct sc_toml *t, const char *text, size_t len, const char *name,
                  struct strbuf *err)
{
	t->p = text;
	t->end = text + len;
	t->depth = 0;
	t->err = err;
	t->line = 1;
	t->name = name;
}
