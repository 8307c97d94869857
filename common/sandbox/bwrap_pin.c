#include "sandbox/bwrap_pin.h"
#include "util/die.h"
#include "util/spawn.h"
#include "util/sha256.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#define PIN_REMEDY                                                                          \
	"if bubblewrap was updated or this host is a new image, review it, then commit this " \
	"line under [sandbox] in .sphereceti on the base branch: %s"

int sc_bwrap_pin_sha(const char *want, char lower[65])
{
	if (strlen(want) != 64)
		return -1;
	for (int i = 0; i < 64; i++) {
		char c = want[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			return -1;
		lower[i] = (char)(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
	}
	lower[64] = '\0';
	return 0;
}

void sc_bwrap_pin_hash(const char *bwrap, char have[65])
{
	if (sc_sha256_file_hex(bwrap, have) < 0)
		sc_die_path_errno("cannot hash bubblewrap (%s)", bwrap);
}

/* The first line of `bwrap --version` (empty environment), without
 * "bubblewrap ". */
static void version_of(const char *bwrap, struct strbuf *ver)
{
	const char *argv[] = {bwrap, "--version", NULL};
	static const char *const env[] = {NULL};
	struct strbuf out = STRBUF_INIT;
	int st = sc_spawn_capture(argv, env, NULL, 0, &out);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		sc_die("bubblewrap --version failed: %s (%s)", sc_describe_status(st), bwrap);
	size_t n = strcspn(out.buf, "\n");
	const char *line = out.buf;
	size_t skip = strncmp(line, "bubblewrap ", 11) == 0 ? 11 : 0;
	sb_addf(ver, "%.*s", (int)(n - skip), line + skip);
	sb_release(&out);
}

static void paste_line(const char *version, const char *sha, struct strbuf *line)
{
	sb_addf(line, "bwrapPin = %s %s", version, sha);
}

void sc_bwrap_pin_line(const char *bwrap, struct strbuf *line)
{
	char have[65];
	struct strbuf ver = STRBUF_INIT;
	sc_bwrap_pin_hash(bwrap, have);
	version_of(bwrap, &ver);
	paste_line(ver.buf, have, line);
	sb_release(&ver);
}

static int version_matches(const char *want, const char *ver)
{
	return strcmp(want, ver) == 0 ||
	       (strncmp(want, "bubblewrap ", 11) == 0 && strcmp(want + 11, ver) == 0);
}

int sc_bwrap_pin_check(const char *bwrap, const char *const *pins, size_t n)
{
	char have[65], lower[65];
	struct strbuf ver = STRBUF_INIT, line = STRBUF_INIT, listed = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		if (!pins[2 * i] || !*pins[2 * i] || !pins[2 * i + 1] || !*pins[2 * i + 1])
			n = 0; /* a pin without hash or version is no pin */
	if (!n) {
		sc_bwrap_pin_line(bwrap, &line);
		sc_die("no bubblewrap pin: .sphereceti names none; " PIN_REMEDY " (%s)", line.buf, bwrap);
	}
	sc_bwrap_pin_hash(bwrap, have);
	const char *want_version = NULL;
	for (size_t i = 0; i < n; i++) {
		if (sc_bwrap_pin_sha(pins[2 * i], lower) < 0)
			sc_die("the pinned bubblewrap SHA-256 is not 64 hex digits (%s)", pins[2 * i]);
		sb_addf(&listed, "%s%s %.12s...", i ? ", " : "", pins[2 * i + 1], lower);
		if (strcmp(have, lower) == 0 && !want_version)
			want_version = pins[2 * i + 1];
	}
	version_of(bwrap, &ver);
	paste_line(ver.buf, have, &line);
	if (!want_version)
		sc_die("bubblewrap's SHA-256 is %s, no pin says it (pinned: %s); " PIN_REMEDY " (%s)",
		       have, listed.buf, line.buf, bwrap);
	if (!version_matches(want_version, ver.buf))
		sc_die("bubblewrap's version is \"%s\", the pin with its SHA-256 says \"%s\"; "
		       "correct that pin: %s (%s)", ver.buf, want_version, line.buf, bwrap);
	struct strbuf ok = STRBUF_INIT;
	sb_addf(&ok, "bubblewrap %s matches the pin (sha256 %s, %s)\n", ver.buf, have, bwrap);
	if (sc_write_all(1, ok.buf, ok.len) < 0)
		sc_die_sys_errno("cannot write the pin check's result (stdout)");
	sb_release(&ok);
	sb_release(&ver);
	sb_release(&line);
	sb_release(&listed);
	return SC_EXIT_OK;
}
