#include "sandbox/bwrap_pin.h"
#include "util/die.h"
#include "util/run.h"
#include "util/sha256.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#define PIN_REMEDY                                                                       \
	"if bubblewrap was updated, review the new one and commit its pin to .sphereceti in " \
	"the tooling branch (bwrapSha256 = the output of 'sha256sum %s', bwrapVersion = "    \
	"what 'bwrap --version' prints)"

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

int sc_bwrap_pin_check(const char *bwrap, const char *want_sha, const char *want_version)
{
	if (!want_sha || !*want_sha || !want_version || !*want_version)
		sc_die("no bubblewrap pin: sandbox.bwrapSha256 and sandbox.bwrapVersion are required (%s)", bwrap);
	char lower[65];
	if (sc_bwrap_pin_sha(want_sha, lower) < 0)
		sc_die("the pinned bubblewrap SHA-256 is not 64 hex digits (%s)", want_sha);
	char have[65];
	if (sc_sha256_file_hex(bwrap, have) < 0)
		sc_die_path_errno("cannot hash bubblewrap (%s)", bwrap);
	if (strcmp(have, lower) != 0)
		sc_die("bubblewrap's SHA-256 is %s, the pin says %s; " PIN_REMEDY " (%s)", have, lower,
		       bwrap, bwrap);
	const char *argv[] = {bwrap, "--version", NULL};
	static const char *const env[] = {NULL};
	struct strbuf out = STRBUF_INIT;
	int st = sc_run_capture(argv, env, NULL, 0, &out);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		sc_die("bubblewrap --version failed: %s (%s)", sc_describe_status(st), bwrap);
	size_t n = strcspn(out.buf, "\n");
	if (n < out.len)
		out.buf[n] = '\0';
	const char *line = out.buf;
	const char *ver = strncmp(line, "bubblewrap ", 11) == 0 ? line + 11 : line;
	if (strcmp(want_version, line) != 0 && strcmp(want_version, ver) != 0)
		sc_die("bubblewrap's version is \"%s\", the pin says \"%s\"; " PIN_REMEDY " (%s)", ver,
		       want_version, bwrap, bwrap);
	struct strbuf ok = STRBUF_INIT;
	sb_addf(&ok, "bubblewrap %s matches the pin (sha256 %s, %s)\n", ver, have, bwrap);
	if (sc_write_all(1, ok.buf, ok.len) < 0)
		sc_die_sys_errno("cannot write the pin check's result (stdout)");
	sb_release(&ok);
	sb_release(&out);
	return SC_EXIT_OK;
}
