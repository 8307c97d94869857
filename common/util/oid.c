#include "util/oid.h"

#include <string.h>

int sc_oid_normalize(const char *in, int hexsz, char *out)
{
	if (strlen(in) != (size_t)hexsz)
		return -1;
	for (int i = 0; i < hexsz; i++) {
		char c = in[i];
		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return -1;
		out[i] = c;
	}
	out[hexsz] = '\0';
	return 0;
}

int sc_is_lower_hex(const char *s, size_t n)
{
	if (strlen(s) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

int sc_hexsz_of_format(const char *format)
{
	if (strcmp(format, "sha1") == 0)
		return 40;
	if (strcmp(format, "sha256") == 0)
		return 64;
	return 0;
}
