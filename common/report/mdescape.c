#include "report/mdescape.h"

#include <stdint.h>
#include <string.h>

/* Decode one UTF-8 sequence; returns its length, or 0 when invalid
 * (overlong, surrogate, beyond U+10FFFF or truncated). */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
	size_t n;
	uint32_t c = s[0], min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		n = 2, c &= 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3, c &= 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL terminator */
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

static int is_alnum(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int is_control(uint32_t cp) { return cp < 0x20 || (cp >= 0x7f && cp < 0xa0); }

/* prev: the last three source characters, lowered, newest in the low byte;
 * next: the following byte. */
static int passes_through(uint32_t cp, uint32_t prev, unsigned char next)
{
	if (is_alnum(cp) || (cp >= 0x20 && cp < 0x80 && strchr(" /-,;=+()'\"?", (int)cp)))
		return 1;
	/* '_' between two alphanumerics can neither open nor close emphasis
	 * (CommonMark flanking rules): Lean names stay readable. */
	if (cp == '_')
		return is_alnum(prev & 0xff) && is_alnum(next);
	/* '.' is inert except where it completes "www.", an autolink. */
	if (cp == '.')
		return (prev & 0xffffff) != (('w' << 16) | ('w' << 8) | 'w');
	return 0;
}

void sc_md_escape(const char *s, struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t prev = 0;
	while (*p) {
		uint32_t cp;
		size_t n = utf8_decode(p, &cp);
		if (!n)
			cp = 0, n = 1; /* invalid: replaced like a control character */
		p += n;
		if (passes_through(cp, prev, *p))
			sb_addc(out, (char)cp);
		else if (is_control(cp))
			sb_adds(out, "&#xFFFD;");
		else
			sb_addf(out, "&#%u;", (unsigned)cp);
		uint32_t low = cp < 0x80 && cp >= 'A' && cp <= 'Z' ? cp + 32 : cp < 0x80 ? cp : 0;
		prev = (prev << 8) | low;
	}
}

void sc_md_code(const char *s, struct strbuf *out)
{
	sb_adds(out, "<code>");
	sc_md_escape(s, out);
	sb_adds(out, "</code>");
}

void sc_md_code_path(const char *path, struct strbuf *out)
{
	struct strbuf part = STRBUF_INIT;
	sb_adds(out, "<code>");
	for (const char *p = path;;) {
		const char *slash = strchr(p, '/');
		sb_reset(&part);
		sb_add(&part, p, slash ? (size_t)(slash - p) : strlen(p));
		sc_md_escape(part.len ? part.buf : "", out);
		if (!slash)
			break;
		sb_adds(out, "/<wbr>");
		p = slash + 1;
	}
	sb_adds(out, "</code>");
	sb_release(&part);
}

int sc_is_printable_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		uint32_t cp;
		size_t n = utf8_decode(p, &cp);
		if (!n || is_control(cp))
			return 0;
		p += n;
	}
	return 1;
}
