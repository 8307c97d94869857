#ifndef SC_JSON_H
#define SC_JSON_H
/* JSON through yajl only.  Generation wrappers die on generator errors
 * (they are programming errors, or out of memory: exit 3); parsing is strict: no comments, valid
 * UTF-8, no duplicate keys, bounded nesting, one value. */
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>
#include "util/strbuf.h"

#define SC_JSON_MAX_DEPTH 32

yajl_gen sc_json_gen_new(int pretty);
void sc_json_str(yajl_gen g, const char *s);
void sc_json_strn(yajl_gen g, const char *s, size_t n);
void sc_json_str_or_null(yajl_gen g, const char *s);
void sc_json_int(yajl_gen g, long long v);
/* A finite number printed with a fixed number of decimals. */
void sc_json_fixed(yajl_gen g, double v, int decimals);
void sc_json_bool(yajl_gen g, int v);
void sc_json_null(yajl_gen g);
void sc_json_map_open(yajl_gen g);
void sc_json_map_close(yajl_gen g);
void sc_json_array_open(yajl_gen g);
void sc_json_array_close(yajl_gen g);
/* A member of the open map: the key, then its value, as one call (so a
 * key is never left without its value). */
void sc_json_kv_str(yajl_gen g, const char *key, const char *s);
void sc_json_kv_str_or_null(yajl_gen g, const char *key, const char *s);
void sc_json_kv_int(yajl_gen g, const char *key, long long v);
void sc_json_kv_fixed(yajl_gen g, const char *key, double v, int decimals);
void sc_json_kv_bool(yajl_gen g, const char *key, int v);
void sc_json_kv_null(yajl_gen g, const char *key);
/* The key of a member whose value is a map or an array, opened here. */
void sc_json_kv_map_open(yajl_gen g, const char *key);
void sc_json_kv_array_open(yajl_gen g, const char *key);
/* Append the generated text (plus a newline) to out and free g. */
void sc_json_finish(yajl_gen g, struct strbuf *out);

/* Parse one JSON document; NULL and a message in err on failure. */
yajl_val sc_json_parse(const char *buf, size_t len, struct strbuf *err);

/* Object member lookup; NULL when absent or obj is not an object. */
yajl_val sc_json_member(yajl_val obj, const char *key);
/* Typed member getters: return 0 on success, -1 (with err set, naming the
 * key) when absent or of the wrong type.  Strings must not contain NUL. */
int sc_json_get_str(yajl_val obj, const char *key, const char **out, struct strbuf *err);
/* Like get_str but JSON null gives *out = NULL. */
int sc_json_get_str_or_null(yajl_val obj, const char *key, const char **out, struct strbuf *err);
int sc_json_get_num(yajl_val obj, const char *key, double *out, struct strbuf *err);
int sc_json_get_int(yajl_val obj, const char *key, long long *out, struct strbuf *err);
int sc_json_get_bool(yajl_val obj, const char *key, int *out, struct strbuf *err);
/* Fails when obj has a member not in the NULL-terminated allowed list. */
int sc_json_only_keys(yajl_val obj, const char *const *allowed, const char *where,
                      struct strbuf *err);

#endif
