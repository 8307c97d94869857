#include "porcelain/doctor.h"
#include "git/git.h"
#include "planning/repoconfig.h"
#include "porcelain/precheck.h"
#include "porcelain/stage.h"
#include "sandbox/bwrap_pin.h"
#include "sandbox/hostcheck.h"
#include "sandbox/inputs.h"
#include "util/die.h"
#include "util/safefile.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

void sc_doctor_line(struct sc_doctor *t, const char *status, const char *name, const char *what)
{
	char prefix[64];
	snprintf(prefix, sizeof prefix, "%-4s  %s: ", status, name);
	sc_say(stdout, prefix, "%s", what);
	t->checks += strcmp(status, "skip") != 0;
	t->failed += strcmp(status, "FAIL") == 0;
}

/* Is NAME in REPO's checkout (a link counts)? */
static int in_checkout(const char *repo, const char *name)
{
	struct stat st;
	char *written = xasprintf("%s/%s", repo, name);
	int in_tree = lstat(written, &st) == 0;
	free(written);
	return in_tree;
}

void sc_doctor_tooling(struct sc_doctor *t, const char *repo, const char *rev, struct sc_tooling_facts *tt)
{
	struct sc_git g;
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	if (sc_git_open(&g, repo, &why) < 0) {
		sb_addf(&why, " (%s)", repo);
		sc_doctor_line(t, "FAIL", "repository", why.buf);
		sb_release(&why);
		return;
	}
	sc_git_close(&g);
	char *spec = xasprintf("%s^{commit}", rev);
	if (sc_git_run_at(repo, (const char *const[]){"rev-parse", "--verify", "--quiet", spec, NULL},
	                  &out) != 0) {
		sb_addf(&why, "no commit %s in the repository: fetch it, or name the base branch's "
		              "tip (%s)", rev, rev);
		sc_doctor_line(t, "FAIL", "repository", why.buf);
	} else {
		sb_chomp(&out);
		char *cfg = xasprintf("%s:.sphereceti", out.buf), *tc = xasprintf("%s:lean-toolchain", out.buf),
		     *man = xasprintf("%s:lake-manifest.json", out.buf);
		sb_addf(&why, "%s at T %.12s", repo, out.buf);
		sc_doctor_line(t, "ok", "repository", why.buf);
		sb_reset(&why);
		if (sc_git_run_at(repo, (const char *const[]){"config", "--no-includes", "--blob", cfg,
		                                              "--list", "-z", NULL}, &out) != 0)
			/* right after init the file is there, but no commit holds it */
			sc_doctor_line(t, "FAIL", "configuration",
			               in_checkout(repo, ".sphereceti") ? "T has no .sphereceti, the checkout has one: commit "
			                         ".sphereceti (and the workflows init wrote) to the base "
			                         "branch, then name that commit"
			                       : "T has no .sphereceti: write it with `sphereceti init` in "
			                         "a checkout, and commit it to the base branch");
		else if (sc_repoconfig_parse(out.buf, out.len, &tt->cfg, &err) < 0) {
			sb_addf(&why, "T's .sphereceti: %s", err.buf);
			sc_doctor_line(t, "FAIL", "configuration", why.buf);
		} else {
			tt->have_cfg = 1;
			sc_doctor_line(t, "ok", "configuration", "T's .sphereceti reads as sc-plan reads it");
		}
		if (sc_git_run_at(repo, (const char *const[]){"cat-file", "blob", tc, NULL}, &out) == 0) {
			tt->lean_toolchain = xstrndup(out.buf, strcspn(out.buf, "\r\n"));
			tt->have_toolchain = 1;
		}
		sb_reset(&err);
		if (sc_git_run_at(repo, (const char *const[]){"cat-file", "blob", man, NULL}, &out) == 0 &&
		    sc_manifest_parse(out.buf, out.len, &tt->manifest, &err) == 0)
			tt->have_manifest = 1;
		free(cfg), free(tc), free(man);
	}
	free(spec);
	sb_release(&why), sb_release(&out), sb_release(&err);
}

/* One sc-sandbox-exec check (the pin, the self-test): its own first line. */
static int sandbox_check(const struct sc_doctor *t, const struct sc_run_opts *o,
                         const char *const *args, int sandbox, struct strbuf *first)
{
	struct sc_stage s;
	struct strbuf out = STRBUF_INIT;
	sc_check_sandbox_start(&o->sandbox, t->dir, args, sandbox, &s);
	int rc = sc_stage_finish(&s, &out);
	sb_add(first, out.buf, strcspn(out.buf, "\n"));
	sb_release(&out);
	return rc;
}

void sc_doctor_bwrap(struct sc_doctor *t, const struct sc_run_opts *o, const struct sc_tooling_facts *tt)
{
	struct strbuf l = STRBUF_INIT;
	char *bwrap = sc_check_bwrap_path(o);
	if (!tt->have_cfg) {
		struct strbuf pin = STRBUF_INIT;
		sc_bwrap_pin_line(bwrap, &pin);
		sb_addf(&l, "%s; its pin is checked against T's .sphereceti, not read: %s", bwrap,
		        pin.buf);
		sc_doctor_line(t, "skip", "bubblewrap", l.buf);
		sb_release(&pin);
	} else {
		struct sc_argv pins = SC_ARGV_INIT;
		sc_check_pin_args(&tt->cfg, &pins);
		if (!tt->cfg.n_bwrap_pins) {
			struct strbuf pin = STRBUF_INIT;
			sc_bwrap_pin_line(bwrap, &pin);
			sb_addf(&l, "T's .sphereceti pins no bubblewrap: after reviewing this host's, "
			            "commit this line under [sandbox] on the base branch: %s (%s)", pin.buf, bwrap);
			sc_doctor_line(t, "FAIL", "bubblewrap", l.buf);
			sb_release(&pin);
		} else {
			int rc = sandbox_check(t, o, (const char *const *)pins.v, 0, &l);
			sc_doctor_line(t, rc == 0 ? "ok" : "FAIL", "bubblewrap", l.buf);
		}
		sc_argv_release(&pins);
	}
	free(bwrap);
	sb_release(&l);
}

/* Ubuntu's switch that keeps unprivileged programs from user namespaces. */
static int apparmor_restricts(void)
{
	struct strbuf v = STRBUF_INIT;
	int on = sc_read_file("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", &v, 64) == 0 &&
	         v.len && v.buf[0] == '1';
	sb_release(&v);
	return on;
}

void sc_doctor_sandbox(struct sc_doctor *t, const struct sc_run_opts *o)
{
	struct strbuf l = STRBUF_INIT;
	if (sc_check_programs_reachable(o, &l) < 0) /* the self-test would say bwrap's words */
		sc_doctor_line(t, "FAIL", "programs", l.buf);
	sb_reset(&l);
	const char *args[] = {"--self-test", NULL};
	int rc = sandbox_check(t, o, args, 1, &l);
	if (rc != 0 && apparmor_restricts())
		sb_adds(&l, "; Ubuntu restricts user namespaces here "
		            "(kernel.apparmor_restrict_unprivileged_userns=1): load the AppArmor profile "
		            "it ships for bwrap alone (README \"Running it for real\", step 1)");
	sc_doctor_line(t, rc != 0 ? "FAIL" : strstr(l.buf, "no task clock") ? "warn" : "ok", "sandbox", l.buf);
	sb_release(&l);
}

void sc_doctor_toolchain(struct sc_doctor *t, const struct sc_run_opts *o, const struct sc_tooling_facts *tt)
{
	struct strbuf why = STRBUF_INIT;
	if (sc_check_toolchain_folder(o, &why) < 0) {
		sc_doctor_line(t, "FAIL", "toolchain", why.buf);
	} else if (!tt->have_toolchain) {
		sc_doctor_line(t, "skip", "toolchain", "its version is checked against T's lean-toolchain, "
		                                        "not read");
	} else {
		struct sc_toolchain_info info;
		if (sc_check_toolchain(o->sandbox.toolchain, tt->lean_toolchain, &info, &why) < 0) {
			sc_doctor_line(t, "FAIL", "toolchain", why.buf);
		} else {
			sb_addf(&why, "%s (%s)", info.version_line, o->sandbox.toolchain);
			sc_doctor_line(t, "ok", "toolchain", why.buf);
		}
		sc_toolchain_info_free(&info);
	}
	sb_release(&why);
}

void sc_doctor_dependencies(struct sc_doctor *t, const struct sc_run_opts *o, const struct sc_tooling_facts *tt)
{
	struct strbuf why = STRBUF_INIT;
	if (sc_check_deps_folder(o, &why) < 0) {
		sc_doctor_line(t, "FAIL", "dependencies", why.buf);
	} else if (!tt->have_manifest) {
		sc_doctor_line(t, "skip", "dependencies", "they are checked against T's lake-manifest.json, "
		                                          "not read");
	} else if (sc_check_dependencies(o->sandbox.deps, &tt->manifest, &why) < 0) {
		sc_doctor_line(t, "FAIL", "dependencies", why.buf);
	} else {
		sb_addf(&why, "%zu package%s at T's manifest, clean, built (%s)", tt->manifest.n,
		        tt->manifest.n == 1 ? "" : "s", o->sandbox.deps);
		sc_doctor_line(t, "ok", "dependencies", why.buf);
	}
	sb_release(&why);
}

void sc_doctor_cache(struct sc_doctor *t, const struct sc_run_opts *o)
{
	struct strbuf why = STRBUF_INIT;
	if (sc_check_cache_folder(o, &why) < 0)
		sc_doctor_line(t, "FAIL", "cache", why.buf);
	else
		sc_doctor_line(t, "ok", "cache", "a folder of its own, mounted read-only");
	sb_release(&why);
}

void sc_doctor_workspace(struct sc_doctor *t, const struct sc_run_opts *o)
{
	struct strbuf why = STRBUF_INIT;
	if (sc_check_workspace_place(o, &why) < 0)
		sc_doctor_line(t, "FAIL", "workspace", why.buf);
	else
		sc_doctor_line(t, "ok", "workspace", "the folder holding it has room, nothing overlaps");
	sb_reset(&why);
	if (sc_check_reachable(o, &why) < 0)
		sc_doctor_line(t, "FAIL", "reach", why.buf);
	else if (geteuid() == 0)
		sc_doctor_line(t, "ok", "reach", "the sandbox's user reaches every folder it mounts");
	sb_release(&why);
}

void sc_tooling_facts_free(struct sc_tooling_facts *tt)
{
	if (tt->have_manifest)
		sc_manifest_free(&tt->manifest);
	sc_plan_free(&tt->cfg);
	free(tt->lean_toolchain);
	memset(tt, 0, sizeof *tt);
}
