#ifndef SC_UTIL_TOML_H
#define SC_UTIL_TOML_H
/* A TOML reader for a caller that walks the document itself: keys (their
 * dotted parts joined with '.'), values (strings of the four kinds, with
 * escapes kept as UTF-8; arrays, whose string items are kept; inline
 * tables, numbers, booleans, dates and times read through), blanks,
 * comments and line ends.  Bounded: at most 32 levels, 4096 items per
 * array or inline table, 65536 bytes per string.  Errors are one line,
 * "NAME line N: what", the first one kept.  What a document's keys mean
 * is the caller's (planning/lakelibs: Lake's lakefile.toml). */
#include <stddef.h>
#include "util/strbuf.h"

struct sc_toml {
	const char *p, *end; /* what is left to read */
	int depth;
	struct strbuf *err;
	int line;
	const char *name; /* of the document, in error lines */
};

/* What a value is, and, when asked for, its text or string items. */
struct sc_toml_value {
	int is_string, all_strings; /* a string; an array of strings only */
	struct strbuf s;            /* a string's text */
	char **items;               /* an array's string items */
	size_t n;
};

void sc_toml_init(struct sc_toml *t, const char *text, size_t len, const char *name,
                  struct strbuf *err);
/* The error WHAT at the current line (unless one is kept already); -1. */
int sc_toml_fail(struct sc_toml *t, const char *what);
/* 1 when the text left starts with S. */
int sc_toml_at(const struct sc_toml *t, const char *s);
/* Blanks and comments; newlines too when NL. */
void sc_toml_skip_ws(struct sc_toml *t, int nl);
/* A key into OUT.  0 or -1. */
int sc_toml_key(struct sc_toml *t, struct strbuf *out);
/* A value into V (initialised with .s = STRBUF_INIT).  0 or -1. */
int sc_toml_value(struct sc_toml *t, struct sc_toml_value *v);
void sc_toml_value_release(struct sc_toml_value *v);
/* After a statement: blanks, a comment, then the end of the line. */
int sc_toml_line_end(struct sc_toml *t);

#endif
