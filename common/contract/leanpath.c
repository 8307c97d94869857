#include "contract/leanpath.h"

#include <string.h>

int sc_is_lean_ident(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
		int digit = c >= '0' && c <= '9';
		if (!(alpha || (i > 0 && digit)))
			return 0;
	}
	return 1;
}

static int is_ident_path(const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == '/') {
			if (!sc_is_lean_ident(s + start, i - start))
				return 0;
			start = i + 1;
		}
	}
	return 1;
}

int sc_lean_module_of(const char *path, struct strbuf *module)
{
	size_t n = strlen(path);
	if (n <= 5 || strcmp(path + n - 5, ".lean") != 0)
		return -1;
	n -= 5;
	if (!is_ident_path(path, n))
		return -1;
	sb_reset(module);
	for (size_t i = 0; i < n; i++)
		sb_addc(module, path[i] == '/' ? '.' : path[i]);
	return 0;
}

int sc_is_valid_root(const char *root)
{
	return is_ident_path(root, strlen(root));
}

int sc_root_covers(const char *root, const char *path)
{
	size_t r = strlen(root), n = strlen(path);
	if (n < r || strncmp(root, path, r) != 0)
		return 0;
	if (strcmp(path + r, ".lean") == 0)
		return 1;
	return path[r] == '/' && n > r + 1 + 5 && strcmp(path + n - 5, ".lean") == 0;
}

int sc_is_tree_path(const char *s)
{
	if (strcmp(s, ".") == 0)
		return 1;
	size_t start = 0, n = strlen(s);
	for (size_t i = 0; i <= n; i++) {
		if (i < n && ((unsigned char)s[i] < 0x20 || s[i] == 0x7f))
			return 0;
		if (i == n || s[i] == '/') {
			size_t k = i - start;
			if (k == 0 || (k == 1 && s[start] == '.') ||
			    (k == 2 && s[start] == '.' && s[start + 1] == '.'))
				return 0;
			start = i + 1;
		}
	}
	return 1;
}
