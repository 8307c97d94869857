/* What a sandbox may take of the host: its /tmp, its processes, its open
 * files (Documentation/threat-model.txt "Kernel-wide pools"). */
#include "sandbox/bounds.h"
#include "util/decimal.h"

#include <string.h>

/* A size or count of --tmp-size and --max-procs: below 2^32 - 1. */
static int parse_count(const char *s, size_t n, unsigned *v)
{
	unsigned long long x;
	if (sc_decimal(s, n, 0, 0xfffffffeull, &x) < 0)
		return -1;
	*v = (unsigned)x;
	return 0;
}

int sc_sandbox_tmp_size(const char *s, unsigned long long *bytes, struct strbuf *why)
{
	size_t n = strlen(s);
	unsigned long long mult = 1;
	if (n > 0 && strchr("KMG", s[n - 1])) {
		mult = s[n - 1] == 'K' ? 1ull << 10 : s[n - 1] == 'M' ? 1ull << 20 : 1ull << 30;
		n--;
	}
	unsigned v;
	if (parse_count(s, n, &v) < 0 || (unsigned long long)v * mult < (1ull << 20)) {
		sb_adds(why, "wants bytes (K, M, G suffixes allowed), at least 1M");
		return -1;
	}
	*bytes = (unsigned long long)v * mult;
	return 0;
}

unsigned sc_sandbox_max_files(unsigned long long file_max, unsigned max_procs)
{
	unsigned long long n = max_procs ? file_max / 2 / max_procs : SC_SANDBOX_MAX_FILES_CEIL;
	if (n > SC_SANDBOX_MAX_FILES_CEIL)
		n = SC_SANDBOX_MAX_FILES_CEIL;
	if (n < SC_SANDBOX_MAX_FILES_FLOOR)
		n = SC_SANDBOX_MAX_FILES_FLOOR;
	return (unsigned)n;
}

unsigned sc_sandbox_tmp_inodes(unsigned long long bytes)
{
	unsigned long long n = bytes >> 14;
	return n < 1024 ? 1024 : n > 0xfffffffeull ? 0xfffffffeu : (unsigned)n;
}

int sc_sandbox_max_procs(const char *s, unsigned *n, struct strbuf *why)
{
	unsigned v;
	if (parse_count(s, strlen(s), &v) < 0 || v < SC_SANDBOX_MAX_PROCS_MIN || v > (1u << 22)) {
		sb_addf(why, "wants a count from %u to %u", SC_SANDBOX_MAX_PROCS_MIN, 1u << 22);
		return -1;
	}
	*n = v;
	return 0;
}
