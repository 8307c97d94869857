#include "util/safepath.h"

#include <string.h>
#include <strings.h>

int sc_safe_component(const char *name, size_t len)
{
	if (len == 0 || memchr(name, '/', len) || memchr(name, '\0', len))
		return 0;
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	if (len == 4 && strncasecmp(name, ".git", 4) == 0)
		return 0;
	return 1;
}

void sc_quote_path(struct strbuf *sb, const char *s, size_t len)
{
	static const char hexdig[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || c == '\\') {
			char esc[4] = {'\\', 'x', hexdig[c >> 4], hexdig[c & 15]};
			sb_add(sb, esc, 4);
		} else {
			sb_addc(sb, (char)c);
		}
	}
}

int sc_is_utf8(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		unsigned c = *p++;
		if (c < 0x80)
			continue;
		int more;
		unsigned min, cp;
		if (c >= 0xc2 && c <= 0xdf) {
			more = 1, min = 0x80, cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			more = 2, min = 0x800, cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			more = 3, min = 0x10000, cp = c & 0x07;
		} else {
			return 0;
		}
		if (end - p < more)
			return 0;
		for (int i = 0; i < more; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		p += more;
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
	}
	return 1;
}
