#ifndef SC_STRBUF_H
#define SC_STRBUF_H
#include <stddef.h>

/* Growable byte buffer, always NUL-terminated; allocation failure dies.
 * The buf member is never NULL: an empty strbuf points at a shared "" (as
 * git's strbuf_slopbuf), so readers need no guard.  A strbuf that is zeroed
 * instead (memset, {0}) must be set up with sb_init before it is read. */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
extern char sc_strbuf_slopbuf[];
#define STRBUF_INIT { sc_strbuf_slopbuf, 0, 0 }

void sb_init(struct strbuf *sb);

void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const void *data, size_t len);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_reset(struct strbuf *sb);
/* Drop trailing newlines (LF or CR), as a command's one-line output has. */
void sb_chomp(struct strbuf *sb);
void sb_release(struct strbuf *sb);
/* Hand the buffer to the caller (never NULL) and reset sb. */
char *sb_detach(struct strbuf *sb, size_t *len);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* P, an array of *ALLOC elements of SIZE bytes, grown to hold N + 1 of them:
 * doubling, so that adding one at a time copies each element O(1) times
 * (an array an attacker's input fills must not cost n^2). */
void *xgrow(void *p, size_t n, size_t *alloc, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
