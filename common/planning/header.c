#include "planning/header.h"
#include "util/safepath.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The bytes both readers look at.  A code point past the end is -1: at
 * the end of a prefix that means "more is needed" (short), at the end of
 * the file it matches nothing, as Lean's String.get past the end does. */
struct src {
	const unsigned char *b;
	size_t len;
	int whole;
	int short_read; /* a reader looked past the end of a prefix */
	int bad;        /* not UTF-8 */
	int carriage;   /* a lone CR where a reader looked (a CRLF is a newline to both) */
};

#define END (-1L)

/* The code point at I and its length, END past the end or on bad UTF-8. */
static long at_slow(struct src *s, size_t i, size_t *n)
{
	*n = 1;
	if (i >= s->len) {
		if (!s->whole)
			s->short_read = 1;
		return END;
	}
	unsigned c = s->b[i];
	if (c < 0x80) {
		if (c == '\r' && i + 1 == s->len && !s->whole)
			s->short_read = 1; /* a CRLF or a lone CR: the next byte says */
		else if (c == '\r' && (i + 1 == s->len || s->b[i + 1] != '\n'))
			s->carriage = 1;
		return (long)c;
	}
	size_t k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
	if (!k || c > 0xf4) {
		s->bad = 1;
		return END;
	}
	if (i + k > s->len) {
		if (!s->whole)
			s->short_read = 1;
		else
			s->bad = 1;
		return END;
	}
	unsigned long cp = c & (0x7fu >> k);
	for (size_t j = 1; j < k; j++) {
		unsigned d = s->b[i + j];
		if ((d & 0xc0) != 0x80) {
			s->bad = 1;
			return END;
		}
		cp = cp << 6 | (d & 0x3f);
	}
	/* overlong forms and surrogates are not UTF-8 */
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
		s->bad = 1;
		return END;
	}
	*n = k;
	return (long)cp;
}

/* Headers are ASCII but for a few names: that case first, inline. */
static inline long at(struct src *s, size_t i, size_t *n)
{
	if (i < s->len && s->b[i] < 0x80 && s->b[i] != '\r') {
		*n = 1;
		return s->b[i];
	}
	return at_slow(s, i, n);
}

static long peek(struct src *s, size_t i)
{
	size_t n;
	return at(s, i, &n);
}

/* The Latin-1 and Latin Extended-A letters isLetterLike took in 2025: a
 * name using them is read otherwise by older toolchains. */
static int latin_letter(long c)
{
	return (c >= 0xc0 && c <= 0xff && c != 0xd7 && c != 0xf7) || (c >= 0x100 && c <= 0x17f);
}

/* Init/Meta/Defs.lean isLetterLike and isSubScriptAlnum, as Lean has them now. */
static int letter_like(long c)
{
	return (c >= 0x3b1 && c <= 0x3c9 && c != 0x3bb) || (c >= 0x391 && c <= 0x3a9 && c != 0x3a0 && c != 0x3a3) ||
	       (c >= 0x3ca && c <= 0x3fb) || (c >= 0x1f00 && c <= 0x1ffe) || (c >= 0x2100 && c <= 0x214f) ||
	       (c >= 0x1d49c && c <= 0x1d59f) || latin_letter(c);
}

static int subscript_alnum(long c)
{
	return (c >= 0x2080 && c <= 0x2089) || (c >= 0x2090 && c <= 0x209c) || (c >= 0x1d62 && c <= 0x1d6a) ||
	       c == 0x2c7c;
}

static int ascii_alpha(long c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* isIdFirst, isIdRest (Char.isAlpha and isAlphanum are ASCII in Lean). */
static int id_first(long c) { return ascii_alpha(c) || c == '_' || letter_like(c); }
static int id_rest(long c)
{
	return ascii_alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '\'' || c == '!' || c == '?' ||
	       letter_like(c) || subscript_alnum(c);
}

#define OPEN 0xab  /* « isIdBeginEscape */
#define CLOSE 0xbb /* » isIdEndEscape */

/* What one reader made of the header. */
struct reading {
	int scan;          /* only where names end, whether escaped: no parts kept */
	int escaped;       /* scan: a part was written in «» */
	const char *error; /* the reader's own error, or NULL */
	struct strbuf names; /* each import: its parts joined by '\x1f', then '\0' */
	size_t n;
	const char *bad_part; /* why a part of a name is refused, or NULL */
	size_t pos;           /* where it stopped: the header's end, or its error */
};

/* A part of a name: one path component of its module's file. */
static void take_part(struct reading *r, struct src *s, size_t from, size_t to, int first)
{
	if (r->scan)
		return;
	const char *p = (const char *)s->b + from;
	size_t n = to - from;
	if (!sc_safe_component(p, n) || memchr(p, '.', n))
		r->bad_part = "a module name part that is no file name";
	int ascii = 1;
	for (size_t i = 0; !r->bad_part && i < n; i++) {
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			r->bad_part = "a control character in a module name";
		ascii &= (unsigned char)p[i] < 0x80;
	}
	for (size_t i = from, k; !ascii && !r->bad_part && i < to; i += k)
		if (latin_letter(at(s, i, &k)))
			r->bad_part = "a Latin-1 letter in a module name (older Lean reads it otherwise)";
	if (!first)
		sb_addc(&r->names, '\x1f');
	sb_add(&r->names, p, n);
}

static void end_name(struct reading *r)
{
	if (r->scan)
		return;
	sb_add(&r->names, "", 1);
	r->n++;
}

/* ---- comments, both readers (Parser/Basic.lean, ParseImportsFast.lean) ---- */

/* finishCommentBlock from I (past the opening "/-" and the character
 * after it): the position past the closing "-/", or 0 with ERR.  Lake's
 * copy steps over the character after a '-' that does not close ("--/"
 * does not close there); Lean's looks at it again. */
static size_t comment_block(struct src *s, size_t i, int lake, const char **err)
{
	unsigned long nesting = 1;
	for (;;) {
		size_t n, m;
		long c = at(s, i, &n);
		if (c == END) {
			*err = "unterminated comment";
			return 0;
		}
		i += n;
		if (c != '-' && c != '/')
			continue;
		long d = at(s, i, &m);
		if (d == END) {
			*err = "unterminated comment";
			return 0;
		}
		if (c == '-' && d == '/') {
			i += m;
			if (--nesting == 0)
				return i;
		} else if (c == '/' && d == '-') {
			i += m;
			nesting++;
		} else if (c == '-' && lake) {
			i += m;
		}
	}
}

/* whitespace: spaces, newlines, `--` to the end of the line, `/- -/`
 * blocks.  A tab is an error for both; a CR is whitespace to Lake and an
 * error to Lean (CRLF was folded first): refused below either way. */
static size_t whitespace(struct src *s, size_t i, int lake, const char **err)
{
	for (;;) {
		size_t n;
		long c = at(s, i, &n);
		if (c == '\t') {
			*err = "tabs are not allowed";
			return i;
		}
		if (c == ' ' || c == '\n' || c == '\r') {
			i += n;
		} else if (c == '-' && peek(s, i + 1) == '-') {
			i += 2;
			while ((c = at(s, i, &n)) != END && c != '\n')
				i += n;
		} else if (c == '/' && peek(s, i + 1) == '-') {
			long d = peek(s, i + 2);
			if (d == '-' || d == '!')
				return i; /* "/--" and "/-!" are doc comments: tokens */
			size_t k = 1;
			if (d != END)
				at(s, i + 2, &k);
			i = comment_block(s, i + 2 + (d == END ? 0 : k), lake, err);
			if (*err)
				return i;
		} else {
			return i;
		}
	}
}

/* ---- Lake's reader (Lean/Elab/ParseImportsFast.lean) ---- */

/* keywordCore: the bytes of K at I, nothing more checked. */
static int lake_keyword(struct src *s, size_t i, const char *k)
{
	size_t n = strlen(k);
	for (size_t j = 0; j < n; j++)
		if (peek(s, i + j) != (unsigned char)k[j])
			return 0;
	return 1;
}

/* isIdCont: '.' then a part's first character. */
static int id_cont(struct src *s, size_t i)
{
	if (peek(s, i) != '.')
		return 0;
	long c = peek(s, i + 1);
	return c != END && (id_first(c) || c == OPEN);
}

/* moduleIdent (Lake's), or identFn's name (Lean's): the same parts. */
static size_t name(struct src *s, size_t i, struct reading *r)
{
	for (int first = 1;; first = 0) {
		size_t n;
		long c = at(s, i, &n);
		if (c == OPEN) {
			size_t from = i + n, j = from, m;
			long d;
			while ((d = at(s, j, &m)) != END && d != CLOSE)
				j += m;
			if (d == END) {
				r->error = "unterminated identifier escape";
				return i;
			}
			r->escaped = 1;
			take_part(r, s, from, j, first);
			i = j + m;
		} else if (c != END && id_first(c)) {
			size_t from = i;
			i += n;
			long d;
			while ((d = at(s, i, &n)) != END && id_rest(d))
				i += n;
			take_part(r, s, from, i, first);
		} else {
			r->error = "expected identifier";
			return i;
		}
		if (!id_cont(s, i))
			break;
		i++;
	}
	end_name(r);
	return i;
}

static void read_lake(struct src *s, struct reading *r)
{
	const char *err = NULL;
	size_t i = whitespace(s, 0, 1, &err);
	int module = 0;
	if (!err && lake_keyword(s, i, "module")) {
		module = 1;
		i = whitespace(s, i + 6, 1, &err);
	}
	if (!err && lake_keyword(s, i, "prelude"))
		i = whitespace(s, i + 7, 1, &err);
	while (!err && r->n <= SC_HEADER_MAX_IMPORTS) {
		/* atomic (public? meta? "import"): whatever fails in it, whitespace
		 * included, takes nothing and ends the imports (manyImports) */
		size_t j = i;
		int modifier = 0;
		const char *perr = NULL;
		if (lake_keyword(s, j, "public")) {
			modifier = 1;
			j = whitespace(s, j + 6, 1, &perr);
		}
		if (!perr && lake_keyword(s, j, "meta")) {
			modifier = 1;
			j = whitespace(s, j + 4, 1, &perr);
		}
		if (perr || !lake_keyword(s, j, "import"))
			break;
		j = whitespace(s, j + 6, 1, &perr);
		if (perr)
			break;
		i = j;
		if (lake_keyword(s, i, "all")) {
			modifier = 1;
			i = whitespace(s, i + 3, 1, &err);
			if (err)
				break;
		}
		i = name(s, i, r);
		if (r->error)
			break;
		i = whitespace(s, i, 1, &err);
		if (!err && modifier && !module)
			err = "cannot use 'public', 'meta', or 'all' without 'module'";
	}
	if (!r->error)
		r->error = err;
	r->pos = i;
}

/* ---- Lean's reader (Lean/Parser/Module.lean over Parser/Basic.lean) ---- */

enum tok { T_OTHER, T_IDENT, T_MODULE, T_PRELUDE, T_PUBLIC, T_META, T_IMPORT, T_ALL };

/* The token at I (tokenFn): its kind and where it ends (before the
 * whitespace after it).  An identifier is a keyword when its text is one
 * of the header's tokens (identFn's isToken: the token is at least as
 * long as the identifier). */
static enum tok token(struct src *s, size_t i, size_t *end)
{
	static const char *const kw[] = {"module", "prelude", "public", "meta", "import", "all"};
	static const enum tok kinds[] = {T_MODULE, T_PRELUDE, T_PUBLIC, T_META, T_IMPORT, T_ALL};
	size_t n;
	long c = at(s, i, &n);
	*end = i;
	if (c == END || c == '"' || (c >= '0' && c <= '9') || c == '`' || c == '\'')
		return T_OTHER; /* string, number, name or char literals: no header token */
	if (c == 'r') { /* isRawStrLitStart: r, '#'s, then '"' */
		size_t k = i + 1;
		while (peek(s, k) == '#')
			k++;
		if (peek(s, k) == '"')
			return T_OTHER;
	}
	if (c != OPEN && !id_first(c))
		return T_OTHER;
	struct reading scan = {.scan = 1};
	size_t j = name(s, i, &scan);
	enum tok t = scan.error ? T_OTHER : T_IDENT;
	if (t == T_IDENT && !scan.escaped)
		for (size_t k = 0; k < sizeof kw / sizeof *kw; k++)
			if (j - i == strlen(kw[k]) && memcmp(s->b + i, kw[k], j - i) == 0)
				t = kinds[k];
	*end = j;
	return t;
}

static void read_lean(struct src *s, struct reading *r)
{
	const char *err = NULL;
	size_t i = whitespace(s, 0, 0, &err), e;
	if (!err && token(s, i, &e) == T_MODULE)
		i = whitespace(s, e, 0, &err);
	if (!err && token(s, i, &e) == T_PRELUDE)
		i = whitespace(s, e, 0, &err);
	while (!err && r->n <= SC_HEADER_MAX_IMPORTS) {
		/* atomic (optional public >> optional meta >> "import ") */
		size_t j = i;
		enum tok t = token(s, j, &e);
		if (t == T_PUBLIC) {
			j = whitespace(s, e, 0, &err);
			t = err ? T_OTHER : token(s, j, &e);
		}
		if (t == T_META) {
			j = whitespace(s, e, 0, &err);
			t = err ? T_OTHER : token(s, j, &e);
		}
		if (t != T_IMPORT) {
			err = NULL;
			break;
		}
		j = whitespace(s, e, 0, &err);
		if (err) { /* the symbol's own trailing whitespace: still atomic */
			err = NULL;
			break;
		}
		t = token(s, j, &e);
		if (t == T_ALL) {
			j = whitespace(s, e, 0, &err);
			if (err)
				break;
			t = token(s, j, &e);
		}
		if (t != T_IDENT) {
			err = "expected identifier";
			i = j;
			break;
		}
		j = name(s, j, r);
		/* identWithPartialTrailingDot: a '.' right after the name is a
		 * name cut short, an error */
		if (peek(s, j) == '.') {
			err = "a name ending in '.'";
			i = j;
			break;
		}
		i = whitespace(s, j, 0, &err);
	}
	r->error = err;
	r->pos = i;
}

/* ---- both, compared ---- */

static int refuse(struct strbuf *why, const struct src *s, size_t upto, const char *what)
{
	size_t line = 1;
	for (size_t q = 0; q < upto && q < s->len; q++)
		line += s->b[q] == '\n';
	sb_addf(why, "%s (line %zu)", what, line);
	return SC_HEADER_REFUSED;
}

int sc_lean_header(const char *buf, size_t len, int whole, struct sc_argv *mods, struct strbuf *why)
{
	if (len > SC_HEADER_MAX_BYTES) {
		len = SC_HEADER_MAX_BYTES;
		whole = 0;
	}
	struct src s = {(const unsigned char *)buf, len, whole, 0, 0, 0};
	struct reading lake = {.names = STRBUF_INIT}, lean = {.names = STRBUF_INIT};
	read_lake(&s, &lake);
	read_lean(&s, &lean);
	int rc = SC_HEADER_READ;
	size_t end = lake.error ? lake.pos : lean.error ? lean.pos : lake.pos < lean.pos ? lake.pos : lean.pos;
	if (s.short_read)
		rc = len >= SC_HEADER_MAX_BYTES
		         ? refuse(why, &s, len, "a header longer than 1 MiB")
		         : SC_HEADER_MORE;
	else if (s.bad)
		rc = refuse(why, &s, end, "bytes that are not UTF-8 in the header");
	else if (lake.n > SC_HEADER_MAX_IMPORTS || lean.n > SC_HEADER_MAX_IMPORTS)
		rc = refuse(why, &s, end, "more than 16384 imports");
	else if (s.carriage)
		rc = refuse(why, &s, end, "a carriage return in the header");
	else if (lake.error || lean.error) {
		struct strbuf w = STRBUF_INIT;
		sb_addf(&w, "%s: %s", lake.error ? "Lake cannot read it" : "Lean cannot read it",
		        lake.error ? lake.error : lean.error);
		rc = refuse(why, &s, end, w.buf);
		sb_release(&w);
	} else if (lake.n != lean.n || lake.names.len != lean.names.len ||
	           memcmp(lake.names.buf, lean.names.buf, lake.names.len) != 0)
		rc = refuse(why, &s, end, "Lake and Lean read its imports differently");
	else if (lake.bad_part)
		rc = refuse(why, &s, end, lake.bad_part);
	if (rc == SC_HEADER_READ) {
		const char *p = lake.names.buf;
		for (size_t k = 0; k < lake.n; k++) {
			size_t n = strlen(p);
			char *m = xstrndup(p, n);
			for (char *q = m; *q; q++)
				if (*q == '\x1f')
					*q = '.';
			sc_argv_push_owned(mods, m);
			p += n + 1;
		}
	}
	sb_release(&lake.names);
	sb_release(&lean.names);
	return rc;
}
