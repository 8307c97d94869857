/* sc-setup (run as "sphereceti init"): set a Lean project up for
 * sphereceti in CI, from its own checkout (sc-setup(1)): .sphereceti from
 * its lakefile, origin remote and this host's bubblewrap, and the two
 * workflows of the CI recipe pinned to a commit of sphereceti, written
 * only where nothing is, then the steps left to a person.  This file owns
 * the options and the order of the steps; porcelain/setup.h makes the
 * texts. */
#include "git/git.h"
#include "planning/repoconfig.h"
#include "porcelain/setup.h"
#include "sandbox/bwrap_pin.h"
#include "sandbox/hostcheck.h"
#include "srctree-id.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/options.h"
#include "util/safefile.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "workflows.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const usage[] = {
	"usage: sphereceti init [--repo DIR] [--base-branch NAME] [--sphereceti-commit C]",
	"                       [--sphereceti-repository OWNER/NAME] [--bwrap PATH]",
	"Write .sphereceti and .github/workflows/sphereceti-{profile,deps}.yml into the",
	"Lean project checked out at DIR (default .), where none of them is yet.",
	NULL,
};

#define UPSTREAM "sphereceti/sphereceti"

static const char *pinned_commit(const char *given)
{
	const char *c = given ? given : SC_BUILD_COMMIT;
	if (!*c)
		sc_die("this sphereceti is no commit's build (built from changed or unversioned "
		       "sources), so there is no commit to pin the workflows to: name the "
		       "sphereceti commit you trust with --sphereceti-commit C (--sphereceti-commit)");
	size_t n = strlen(c);
	if ((n != 40 && n != 64) || !sc_is_lower_hex(c, n))
		sc_die("not a full commit ID of sphereceti's repository: '%s' (--sphereceti-commit)", c);
	return c;
}

static void check_slug(const char *slug)
{
	struct strbuf url = STRBUF_INIT, back = STRBUF_INIT;
	sb_addf(&url, "https://github.com/%s", slug);
	if (sc_github_slug(url.buf, &back) < 0 || strcmp(back.buf, slug) != 0)
		sc_die("not a GitHub repository's owner/name: '%s' (--sphereceti-repository)", slug);
	sb_release(&url);
	sb_release(&back);
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-setup");
	sc_check_stdout_at_exit();
	static const char *repo = ".", *branch, *commit, *upstream = UPSTREAM, *bwrap;
	static const struct sc_option opts[] = {
		SC_OPT_STRING(0, "repo", &repo, "DIR", "the project's checkout (default .)"),
		SC_OPT_STRING(0, "base-branch", &branch, "NAME",
		              "the branch pull requests target (default: origin's default branch)"),
		SC_OPT_STRING(0, "sphereceti-commit", &commit, "C",
		              "the sphereceti commit the workflows build (default: this build's)"),
		SC_OPT_STRING(0, "sphereceti-repository", &upstream, "OWNER/NAME",
		              "where the workflows fetch sphereceti (default " UPSTREAM ")"),
		SC_OPT_STRING(0, "bwrap", &bwrap, "PATH", "the bubblewrap to pin (default /usr/bin/bwrap)"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	const char *pin = pinned_commit(commit);
	check_slug(upstream);
	struct strbuf why = STRBUF_INIT;
	char *top = sc_setup_work_tree(repo, &why);
	if (!top)
		sc_die("%s (--repo %s)", why.buf, repo);
	sc_setup_refuse_existing(top);

	struct sc_setup s = {0};
	if (sc_setup_roots(top, &s, &why) < 0)
		sc_die("%s (%s)", why.buf, top);
	s.github = sc_setup_origin_slug(top);
	char *bw = sc_sandbox_resolve_bwrap(bwrap ? bwrap : "/usr/bin/bwrap");
	struct strbuf line = STRBUF_INIT;
	sc_bwrap_pin_line(bw, &line);
	s.pin_line = sb_detach(&line, NULL);
	char *base = sc_setup_base_branch(top, branch, &why);
	if (!base && branch)
		sc_die("%s (--base-branch %s)", why.buf, branch);
	if (!base)
		sc_die("%s: name the base branch with --base-branch NAME (--repo %s)", why.buf, top);

	struct strbuf text[SC_SETUP_NFILES] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT}, tmp = STRBUF_INIT;
	sc_setup_config(&s, &text[SC_SETUP_CONFIG]);
	char *repo_line = xasprintf("  SPHERECETI_REPOSITORY: %s", upstream);
	char *commit_line = xasprintf("  SPHERECETI_COMMIT: \"%s\"", pin);
	char *branch_line = xasprintf("    branches: [\"%s\"]", base);
	if (sc_template_line(sc_workflow_profile, "  SPHERECETI_REPOSITORY: ", repo_line, &tmp) < 0 ||
	    sc_template_line(tmp.buf, "  SPHERECETI_COMMIT: ", commit_line, &text[SC_SETUP_PROFILE]) < 0 ||
	    sc_template_line(sc_workflow_deps, "    branches: ", branch_line, &text[SC_SETUP_DEPS]) < 0)
		sc_die_sys("internal: the recipe's workflows lack the lines init sets (sc-setup)");
	sc_setup_write_all(top, text);
	sc_setup_next_steps(base, &s, pin);

	for (int i = 0; i < SC_SETUP_NFILES; i++)
		sb_release(&text[i]);
	sb_release(&tmp), sb_release(&why);
	free(repo_line), free(commit_line), free(branch_line);
	free(base), free(bw), free(top);
	sc_setup_free(&s);
	return 0;
}
