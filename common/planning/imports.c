#include "planning/imports.h"

#include <string.h>

struct reader {
	const char *p, *end;
	int unterminated; /* a block comment ran to the end: nothing after it is read */
};

/* Whitespace and comments.  An unterminated block comment consumes the
 * rest and is remembered. */
static void skip(struct reader *r)
{
	for (;;) {
		while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
			r->p++;
		if (r->end - r->p >= 2 && r->p[0] == '-' && r->p[1] == '-') {
			while (r->p < r->end && *r->p != '\n')
				r->p++;
		} else if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '-') {
			int depth = 0; /* Lean's block comments nest */
			do {
				if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '-') {
					depth++;
					r->p += 2;
				} else if (r->end - r->p >= 2 && r->p[0] == '-' && r->p[1] == '/') {
					depth--;
					r->p += 2;
				} else if (r->p < r->end) {
					r->p++;
				} else {
					r->unterminated = 1;
					return;
				}
			} while (depth > 0);
		} else {
			return;
		}
	}
}

/* Past the K bytes of a keyword, then whitespace and comments. */
static void advance(struct reader *r, size_t k)
{
	r->p += k;
	skip(r);
}

/* Lean's identifier characters, as bytes: ASCII letters, digits, _ ' ! ?
 * and every byte of a multi-byte UTF-8 character (Greek, subscripts, ...;
 * Lean's isLetterLike and isSubScriptAlnum are subsets). */
static int ident_start(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c >= 0x80;
}
static int ident_rest(unsigned char c)
{
	return ident_start(c) || (c >= '0' && c <= '9') || c == '\'' || c == '!' || c == '?';
}

/* One dotted name at r->p into OUT (unescaped).  Returns 1 read, 0 none
 * there, -1 unreadable (an unterminated «). */
static int name(struct reader *r, struct strbuf *out)
{
	static const char open[] = "\xc2\xab", close[] = "\xc2\xbb"; /* « » */
	const char *p = r->p;
	for (;;) {
		if (r->end - p >= 2 && memcmp(p, open, 2) == 0) {
			const char *q = p + 2;
			while (r->end - q >= 2 && memcmp(q, close, 2) != 0 && *q != '\n')
				q++;
			if (r->end - q < 2 || memcmp(q, close, 2) != 0 || q == p + 2)
				return -1; /* unterminated, or «» with nothing in it */
			sb_add(out, p + 2, (size_t)(q - p - 2));
			p = q + 2;
		} else if (p < r->end && ident_start((unsigned char)*p)) {
			const char *q = p;
			while (q < r->end && ident_rest((unsigned char)*q))
				q++;
			sb_add(out, p, (size_t)(q - p));
			p = q;
		} else {
			if (p == r->p)
				return 0;
			return -1; /* a dot with no part after it */
		}
		if (p < r->end && *p == '.') {
			if (p + 1 < r->end &&
			    (ident_start((unsigned char)p[1]) || (r->end - p >= 3 && memcmp(p + 1, open, 2) == 0))) {
				sb_addc(out, '.');
				p++;
				continue;
			}
			return -1; /* a dot with no part after it */
		}
		r->p = p;
		return 1;
	}
}

/* The next word, if it is a plain keyword: its length, else 0. */
static size_t keyword(const struct reader *r, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
		return 0;
	if (r->p + n < r->end && ident_rest((unsigned char)r->p[n]))
		return 0;
	return n;
}

static int refuse(struct strbuf *why, const struct reader *r, const char *buf, const char *what)
{
	size_t line = 1;
	for (const char *q = buf; q < r->p; q++)
		line += *q == '\n';
	sb_addf(why, "%s (line %zu)", what, line);
	return -1;
}

int sc_lean_imports(const char *buf, size_t len, struct sc_argv *mods, struct strbuf *why)
{
	struct reader r = {buf, buf + len, 0};
	/* A NUL ends the header for us but not for Lean: nothing after it
	 * could be read. */
	const char *nul = memchr(buf, '\0', len);
	if (nul)
		r.end = nul;
	size_t k;
	skip(&r);
	if ((k = keyword(&r, "module")) != 0)
		advance(&r, k);
	if ((k = keyword(&r, "prelude")) != 0)
		advance(&r, k);
	for (;;) {
		struct reader at = r;
		while ((k = keyword(&r, "public")) || (k = keyword(&r, "meta")) || (k = keyword(&r, "private")))
			advance(&r, k);
		if (!(k = keyword(&r, "import"))) {
			r = at;
			break;
		}
		advance(&r, k);
		if ((k = keyword(&r, "all")) != 0)
			advance(&r, k);
		struct strbuf m = STRBUF_INIT;
		int got = r.unterminated ? 0 : name(&r, &m);
		if (got <= 0) {
			sb_release(&m);
			if (r.unterminated)
				break;
			return refuse(why, &r, buf, got < 0 ? "an unreadable module name after import"
			                                    : "import with no module name");
		}
		sc_argv_push_owned(mods, sb_detach(&m, NULL));
		skip(&r);
	}
	if (r.unterminated)
		return refuse(why, &r, buf, "an unterminated comment in the header");
	if (nul && r.p == nul)
		return refuse(why, &r, buf, "a NUL byte in the header");
	return 0;
}
