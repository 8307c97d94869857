#include "util/json.h"
#include "util/die.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <yajl/yajl_parse.h>

static void check(yajl_gen_status st)
{
	if (st != yajl_gen_status_ok)
		sc_die_sys("internal: JSON generation failed (yajl status %d)", (int)st);
}

yajl_gen sc_json_gen_new(int pretty)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	if (!g)
		sc_die_sys("out of memory (yajl)");
	yajl_gen_config(g, yajl_gen_validate_utf8, 1);
	if (pretty) {
		yajl_gen_config(g, yajl_gen_beautify, 1);
		yajl_gen_config(g, yajl_gen_indent_string, "  ");
	}
	return g;
}

void sc_json_strn(yajl_gen g, const char *s, size_t n)
{
	check(yajl_gen_string(g, (const unsigned char *)s, n));
}
void sc_json_str(yajl_gen g, const char *s) { sc_json_strn(g, s, strlen(s)); }
void sc_json_str_or_null(yajl_gen g, const char *s)
{
	if (s)
		sc_json_str(g, s);
	else
		sc_json_null(g);
}
void sc_json_int(yajl_gen g, long long v) { check(yajl_gen_integer(g, v)); }
void sc_json_fixed(yajl_gen g, double v, int decimals)
{
	char buf[64];
	if (!isfinite(v))
		sc_die_sys("internal: non-finite number in JSON output");
	int n = snprintf(buf, sizeof buf, "%.*f", decimals, v);
	if (n <= 0 || (size_t)n >= sizeof buf)
		sc_die_sys("internal: number too large for JSON output");
	if (strcmp(buf, "-0") == 0 || strspn(buf, "-0.") == (size_t)n)
		snprintf(buf, sizeof buf, "%.*f", decimals, 0.0);
	check(yajl_gen_number(g, buf, strlen(buf)));
}
void sc_json_bool(yajl_gen g, int v) { check(yajl_gen_bool(g, v)); }
void sc_json_null(yajl_gen g) { check(yajl_gen_null(g)); }
void sc_json_map_open(yajl_gen g) { check(yajl_gen_map_open(g)); }
void sc_json_map_close(yajl_gen g) { check(yajl_gen_map_close(g)); }
void sc_json_array_open(yajl_gen g) { check(yajl_gen_array_open(g)); }
void sc_json_array_close(yajl_gen g) { check(yajl_gen_array_close(g)); }

void sc_json_finish(yajl_gen g, struct strbuf *out)
{
	const unsigned char *buf;
	size_t len;
	check(yajl_gen_get_buf(g, &buf, &len));
	sb_add(out, buf, len);
	if (!len || buf[len - 1] != '\n')
		sb_addc(out, '\n');
	yajl_gen_free(g);
}

/* Strict validation pass: yajl_tree_parse allows comments and has no depth
 * limit (its free is recursive), so a callback parse checks those first. */
struct depth_ctx {
	int depth;
	int too_deep;
};
static int on_open(void *ctx)
{
	struct depth_ctx *d = ctx;
	if (++d->depth > SC_JSON_MAX_DEPTH) {
		d->too_deep = 1;
		return 0;
	}
	return 1;
}
static int on_close(void *ctx)
{
	((struct depth_ctx *)ctx)->depth--;
	return 1;
}
static int on_map_key(void *ctx, const unsigned char *k, size_t n)
{
	(void)ctx;
	return memchr(k, '\0', n) == NULL;
}
static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	(void)ctx;
	return memchr(s, '\0', n) == NULL;
}
static const yajl_callbacks validate_cb = {
	NULL, NULL, NULL, NULL, NULL, on_string, on_open, on_map_key, on_close, on_open, on_close,
};

static int has_duplicate_keys(yajl_val v)
{
	if (YAJL_IS_OBJECT(v)) {
		for (size_t i = 0; i < v->u.object.len; i++) {
			for (size_t j = i + 1; j < v->u.object.len; j++)
				if (strcmp(v->u.object.keys[i], v->u.object.keys[j]) == 0)
					return 1;
			if (has_duplicate_keys(v->u.object.values[i]))
				return 1;
		}
	} else if (YAJL_IS_ARRAY(v)) {
		for (size_t i = 0; i < v->u.array.len; i++)
			if (has_duplicate_keys(v->u.array.values[i]))
				return 1;
	}
	return 0;
}

yajl_val sc_json_parse(const char *buf, size_t len, struct strbuf *err)
{
	if (memchr(buf, '\0', len)) {
		sb_adds(err, "NUL byte in JSON text");
		return NULL;
	}
	struct depth_ctx d = {0, 0};
	yajl_handle h = yajl_alloc(&validate_cb, NULL, &d);
	if (!h)
		sc_die_sys("out of memory (yajl)");
	yajl_status st = yajl_parse(h, (const unsigned char *)buf, len);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(h);
	if (st != yajl_status_ok) {
		if (d.too_deep) {
			sb_addf(err, "JSON nested deeper than %d levels", SC_JSON_MAX_DEPTH);
		} else {
			unsigned char *msg = yajl_get_error(h, 0, (const unsigned char *)buf, len);
			sb_addf(err, "invalid JSON: %s", msg ? (const char *)msg : "parse error");
			if (msg)
				yajl_free_error(h, msg);
			for (size_t i = 0; i < err->len; i++)
				if (err->buf[i] == '\n')
					err->buf[i] = ' ';
			while (err->len && err->buf[err->len - 1] == ' ')
				err->buf[--err->len] = '\0';
		}
		yajl_free(h);
		return NULL;
	}
	yajl_free(h);

	char *copy = xstrndup(buf, len);
	char msg[256] = "";
	yajl_val v = yajl_tree_parse(copy, msg, sizeof msg);
	free(copy);
	if (!v) {
		sb_addf(err, "invalid JSON: %s", msg[0] ? msg : "parse error");
		return NULL;
	}
	if (has_duplicate_keys(v)) {
		yajl_tree_free(v);
		sb_adds(err, "duplicate key in JSON object");
		return NULL;
	}
	return v;
}

yajl_val sc_json_member(yajl_val obj, const char *key)
{
	if (!obj || !YAJL_IS_OBJECT(obj))
		return NULL;
	for (size_t i = 0; i < obj->u.object.len; i++)
		if (strcmp(obj->u.object.keys[i], key) == 0)
			return obj->u.object.values[i];
	return NULL;
}

static int missing(const char *key, const char *want, struct strbuf *err)
{
	sb_addf(err, "field \"%s\" missing or not %s", key, want);
	return -1;
}

int sc_json_get_str(yajl_val obj, const char *key, const char **out, struct strbuf *err)
{
	yajl_val v = sc_json_member(obj, key);
	if (!v || !YAJL_IS_STRING(v))
		return missing(key, "a string", err);
	*out = v->u.string;
	return 0;
}

int sc_json_get_str_or_null(yajl_val obj, const char *key, const char **out, struct strbuf *err)
{
	yajl_val v = sc_json_member(obj, key);
	if (v && YAJL_IS_NULL(v)) {
		*out = NULL;
		return 0;
	}
	if (!v || !YAJL_IS_STRING(v))
		return missing(key, "a string or null", err);
	*out = v->u.string;
	return 0;
}

int sc_json_get_num(yajl_val obj, const char *key, double *out, struct strbuf *err)
{
	yajl_val v = sc_json_member(obj, key);
	if (!v || !YAJL_IS_NUMBER(v))
		return missing(key, "a number", err);
	double d = YAJL_IS_INTEGER(v) ? (double)YAJL_GET_INTEGER(v) : YAJL_GET_DOUBLE(v);
	if (!isfinite(d)) {
		sb_addf(err, "field \"%s\" is not a finite number", key);
		return -1;
	}
	*out = d;
	return 0;
}

int sc_json_get_int(yajl_val obj, const char *key, long long *out, struct strbuf *err)
{
	yajl_val v = sc_json_member(obj, key);
	if (!v || !YAJL_IS_INTEGER(v))
		return missing(key, "an integer", err);
	*out = YAJL_GET_INTEGER(v);
	return 0;
}

int sc_json_get_bool(yajl_val obj, const char *key, int *out, struct strbuf *err)
{
	yajl_val v = sc_json_member(obj, key);
	if (!v || !(YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v)))
		return missing(key, "a boolean", err);
	*out = YAJL_IS_TRUE(v);
	return 0;
}

int sc_json_only_keys(yajl_val obj, const char *const *allowed, const char *where,
                      struct strbuf *err)
{
	if (!obj || !YAJL_IS_OBJECT(obj)) {
		sb_addf(err, "%s is not a JSON object", where);
		return -1;
	}
	for (size_t i = 0; i < obj->u.object.len; i++) {
		const char *k = obj->u.object.keys[i];
		const char *const *a = allowed;
		while (*a && strcmp(*a, k) != 0)
			a++;
		if (!*a) {
			sb_addf(err, "unexpected field \"%s\" in %s", k, where);
			return -1;
		}
	}
	return 0;
}

void sc_json_kv_str(yajl_gen g, const char *key, const char *s)
{
	sc_json_str(g, key);
	sc_json_str(g, s);
}

void sc_json_kv_str_or_null(yajl_gen g, const char *key, const char *s)
{
	sc_json_str(g, key);
	sc_json_str_or_null(g, s);
}

void sc_json_kv_int(yajl_gen g, const char *key, long long v)
{
	sc_json_str(g, key);
	sc_json_int(g, v);
}

void sc_json_kv_fixed(yajl_gen g, const char *key, double v, int decimals)
{
	sc_json_str(g, key);
	sc_json_fixed(g, v, decimals);
}

void sc_json_kv_bool(yajl_gen g, const char *key, int v)
{
	sc_json_str(g, key);
	sc_json_bool(g, v);
}

void sc_json_kv_null(yajl_gen g, const char *key)
{
	sc_json_str(g, key);
	sc_json_null(g);
}

void sc_json_kv_map_open(yajl_gen g, const char *key)
{
	sc_json_str(g, key);
	sc_json_map_open(g);
}

void sc_json_kv_array_open(yajl_gen g, const char *key)
{
	sc_json_str(g, key);
	sc_json_array_open(g);
}
