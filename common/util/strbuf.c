#include "util/strbuf.h"
#include "util/die.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		sc_die_sys("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		sc_die_sys("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		sc_die_sys("out of memory (%zu bytes)", n);
	return q;
}

void *xgrow(void *p, size_t n, size_t *alloc, size_t size)
{
	if (n < *alloc)
		return p;
	size_t want = *alloc ? *alloc : 8;
	while (want <= n)
		want *= 2;
	if (want > SIZE_MAX / size)
		sc_die_sys("out of memory (%zu x %zu bytes)", want, size);
	p = xrealloc(p, want * size);
	*alloc = want;
	return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		sc_die_sys("formatting failed (xasprintf)");
	sb_grow(&sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb.buf, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb.len = (size_t)n;
	return sb_detach(&sb, NULL);
}

/* Never written: sb_grow allocates before the first byte lands. */
char sc_strbuf_slopbuf[1];

void sb_init(struct strbuf *sb) { *sb = (struct strbuf)STRBUF_INIT; }

void sb_grow(struct strbuf *sb, size_t extra)
{
	if (extra > ((size_t)-1) / 2 - sb->len)
		sc_die_sys("buffer too large (strbuf)");
	size_t need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	size_t alloc = sb->alloc ? sb->alloc : 64;
	while (alloc < need)
		alloc *= 2;
	sb->buf = xrealloc(sb->alloc ? sb->buf : NULL, alloc);
	sb->alloc = alloc;
	sb->buf[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const void *data, size_t len)
{
	sb_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s) { sb_add(sb, s, strlen(s)); }
void sb_addc(struct strbuf *sb, char c) { sb_add(sb, &c, 1); }

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		sc_die_sys("formatting failed (strbuf)");
	sb_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void sb_chomp(struct strbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == '\n' || sb->buf[sb->len - 1] == '\r'))
		sb->buf[--sb->len] = '\0';
}

void sb_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb_init(sb);
}

char *sb_detach(struct strbuf *sb, size_t *len)
{
	sb_grow(sb, 0);
	char *p = sb->buf;
	if (len)
		*len = sb->len;
	sb_init(sb);
	return p;
}
