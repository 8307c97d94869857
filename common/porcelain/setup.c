#include "porcelain/setup.h"
#include "contract/leanpath.h"
#include "planning/lakelibs.h"
#include "util/argv.h"
#include "util/die.h"
#include "util/safefile.h"
#include "git/git.h"
#include "planning/repoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_roadmap(const char *name) { return strcasestr(name, "roadmap") != NULL; }

/* The root module ROOT of the lean_lib LIB, as a root path of
 * .sphereceti; -1 with why when it is none that sc-plan takes (checked
 * here, before anything is written: Documentation/ci.txt "From
 * nothing"). */
static int add_root(struct sc_setup *s, const char *lib, const char *root, struct strbuf *why)
{
	char ***v = is_roadmap(lib) ? &s->roadmap : &s->library;
	size_t *n = is_roadmap(lib) ? &s->n_roadmap : &s->n_library;
	/* a root module A.B is the path A/B (A/B.lean, A/B/) */
	char *path = xstrdup(root);
	for (char *p = path; *p; p++)
		if (*p == '.')
			*p = '/';
	if (!sc_is_valid_root(path)) {
		sb_addf(why, "lean_lib %s: its root '%s' is no plain Lean module name "
		             "([A-Za-z_][A-Za-z0-9_]* parts, which sc-plan measures): name the roots in "
		             ".sphereceti by hand (README \"Configuration\")", lib, root);
		free(path);
		return -1;
	}
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], path) == 0) {
			free(path);
			return 0;
		}
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = path;
	return 0;
}

/* A lakefile.lean is Lean: of it only `lean_lib NAME` declarations are
 * read (an attribute before them on the line allowed), and a srcDir
 * anywhere is refused, since where it points is code to run. */
static int lean_libs(const char *text, struct sc_setup *s, struct strbuf *why)
{
	if (strstr(text, "srcDir")) {
		sb_adds(why, "lakefile.lean sets a srcDir, which init does not evaluate: write "
		             ".sphereceti by hand with its sourceDir (README \"Configuration\")");
		return -1;
	}
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		const char *p = line;
		while (p < line + n && isspace((unsigned char)*p))
			p++;
		if (p + 2 < line + n && p[0] == '@' && p[1] == '[') {
			const char *close = memchr(p, ']', (size_t)(line + n - p));
			p = close ? close + 1 : line + n;
			while (p < line + n && isspace((unsigned char)*p))
				p++;
		}
		if ((size_t)(line + n - p) > 9 && strncmp(p, "lean_lib", 8) == 0 && isspace((unsigned char)p[8])) {
			p += 9;
			while (p < line + n && isspace((unsigned char)*p))
				p++;
			const char *q = p;
			while (q < line + n && !isspace((unsigned char)*q))
				q++;
			char *name = xstrndup(p, (size_t)(q - p));
			/* «Name» is Name */
			if (strncmp(name, "\xc2\xab", 2) == 0 && q - p > 4 && strcmp(name + (q - p) - 2, "\xc2\xbb") == 0) {
				memmove(name, name + 2, (size_t)(q - p) - 4);
				name[(q - p) - 4] = '\0';
			}
			int bad = add_root(s, name, name, why);
			free(name);
			if (bad < 0)
				return -1;
		}
		line = end ? end + 1 : line + n;
	}
	return 0;
}

static int toml_libs(const char *text, size_t len, struct sc_setup *s, struct strbuf *why)
{
	struct sc_lake_libs l = {0};
	struct strbuf err = STRBUF_INIT;
	if (sc_lakelibs_parse(text, len, &l, &err) < 0) {
		sb_addf(why, "lakefile.toml cannot be read: %s", err.buf);
		sb_release(&err);
		return -1;
	}
	sb_release(&err);
	int rc = 0;
	for (size_t i = 0; i < l.n && rc == 0; i++) {
		const struct sc_lean_lib *lib = &l.libs[i];
		const char *dir = *lib->src_dir ? lib->src_dir : NULL;
		if (i > 0 && (!dir != !s->source_dir || (dir && strcmp(dir, s->source_dir) != 0))) {
			sb_addf(why, "lakefile.toml's lean_libs live in different srcDirs ('%s', '%s'), and "
			             ".sphereceti has one sourceDir: write it by hand (README \"Configuration\")",
			        s->source_dir ? s->source_dir : ".", dir ? dir : ".");
			rc = -1;
			break;
		}
		if (i == 0 && dir)
			s->source_dir = xstrdup(dir);
		if (lib->opaque || !lib->n_roots)
			rc = add_root(s, lib->name, lib->name, why);
		for (size_t k = 0; rc == 0 && !lib->opaque && k < lib->n_roots; k++)
			rc = add_root(s, lib->name, lib->roots[k], why);
	}
	sc_lakelibs_free(&l);
	return rc;
}

int sc_setup_roots(const char *dir, struct sc_setup *s, struct strbuf *why)
{
	static const char *const files[] = {"lakefile.lean", "lakefile.toml"};
	struct strbuf text = STRBUF_INIT;
	int rc = -1;
	for (size_t i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s", dir, files[i]);
		int r = sc_read_file(path, &text, SC_LAKELIBS_MAX);
		int err = errno;
		free(path);
		if (r < 0 && err == ENOENT)
			continue;
		s->lakefile = xstrdup(files[i]);
		if (r < 0)
			sb_addf(why, "cannot read %s: %s", files[i], strerror(err));
		else
			rc = i == 0 ? lean_libs(text.buf, s, why) : toml_libs(text.buf, text.len, s, why);
		break;
	}
	if (!s->lakefile)
		sb_adds(why, "no lakefile.lean or lakefile.toml: run init at the root of a Lake project");
	else if (rc == 0 && !s->n_library) {
		sb_addf(why, "%s declares no lean_lib but a roadmap: name the library roots in "
		             ".sphereceti by hand (README \"Configuration\")", s->lakefile);
		rc = -1;
	}
	sb_release(&text);
	return rc;
}

/* One component of owner/name as GitHub spells them. */
static int slug_part(const char *p, size_t n)
{
	if (!n || n > 100 || (n == 1 && *p == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '-' && p[i] != '_' && p[i] != '.')
			return 0;
	return 1;
}

int sc_github_slug(const char *url, struct strbuf *slug)
{
	static const char *const prefixes[] = {"https://github.com/", "http://github.com/",
	                                       "git@github.com:", "ssh://git@github.com/",
	                                       "git://github.com/"};
	const char *rest = NULL;
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes && !rest; i++)
		if (strncmp(url, prefixes[i], strlen(prefixes[i])) == 0)
			rest = url + strlen(prefixes[i]);
	if (!rest)
		return -1;
	size_t n = strlen(rest);
	while (n && rest[n - 1] == '/')
		n--;
	if (n > 4 && strncmp(rest + n - 4, ".git", 4) == 0)
		n -= 4;
	const char *slash = memchr(rest, '/', n);
	if (!slash || !slug_part(rest, (size_t)(slash - rest)) ||
	    !slug_part(slash + 1, (size_t)(rest + n - slash - 1)))
		return -1;
	sb_add(slug, rest, n);
	return 0;
}

/* A git-config value, quoted: nothing in it is read as a comment. */
static void quoted(struct strbuf *out, const char *v)
{
	sb_addc(out, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			sb_addc(out, '\\');
		sb_addc(out, *v);
	}
	sb_addc(out, '"');
}

void sc_setup_config(const struct sc_setup *s, struct strbuf *out)
{
	sb_addf(out, "# sphereceti: which Lean files a pull request is profiled on, read from the\n"
	             "# base branch (written by `sphereceti init` from %s; README\n"
	             "# \"Configuration\" says what each key does).\n[profile]\n",
	        s->lakefile);
	for (size_t i = 0; i < s->n_library; i++)
		sb_addf(out, "\tlibrary = %s\n", s->library[i]);
	for (size_t i = 0; i < s->n_roadmap; i++)
		sb_addf(out, "\troadmap = %s\n", s->roadmap[i]);
	if (s->source_dir) {
		sb_adds(out, "\tsourceDir = ");
		quoted(out, s->source_dir);
		sb_addc(out, '\n');
	}
	if (s->github)
		sb_addf(out, "\tgithub = %s\n", s->github);
	sb_addf(out, "[sandbox]\n"
	             "\t# the bubblewrap of the machine init ran on; a CI runner with another\n"
	             "\t# one says in its first seconds which line to add\n"
	             "\t%s\n",
	        s->pin_line);
}

int sc_template_line(const char *text, const char *prefix, const char *line, struct strbuf *out)
{
	size_t plen = strlen(prefix);
	int found = 0;
	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) + 1 : strlen(p);
		if (n >= plen && strncmp(p, prefix, plen) == 0) {
			found++;
			sb_adds(out, line);
			if (end)
				sb_addc(out, '\n');
		} else {
			sb_add(out, p, n);
		}
		p += n;
	}
	return found == 1 ? 0 : -1;
}

void sc_setup_free(struct sc_setup *s)
{
	for (size_t i = 0; i < s->n_library; i++)
		free(s->library[i]);
	for (size_t i = 0; i < s->n_roadmap; i++)
		free(s->roadmap[i]);
	free(s->library);
	free(s->roadmap);
	free(s->source_dir);
	free(s->github);
	free(s->pin_line);
	free(s->lakefile);
	memset(s, 0, sizeof *s);
}

const char *const sc_setup_files[SC_SETUP_NFILES] = {".sphereceti", ".github/workflows/sphereceti-profile.yml",
                                                     ".github/workflows/sphereceti-deps.yml"};

/* git -C DIR ARGS...: its first line of output into OUT; 0 when git said
 * something and exited 0. */
static int git_line(const char *dir, const char *const *args, struct strbuf *out)
{
	int st = sc_git_run_at(dir, args, out);
	char *nl = memchr(out->buf, '\n', out->len);
	if (nl) {
		*nl = '\0';
		out->len = (size_t)(nl - out->buf);
	}
	return st == 0 && out->len ? 0 : -1;
}

char *sc_setup_work_tree(const char *repo, struct strbuf *why)
{
	struct strbuf top = STRBUF_INIT;
	struct stat st;
	if (stat(repo, &st) < 0 || !S_ISDIR(st.st_mode))
		sb_adds(why, "no such folder");
	else if (git_line(repo, (const char *const[]){"rev-parse", "--show-toplevel", NULL}, &top) < 0)
		sb_adds(why, "not in a Git checkout's work tree: init writes .sphereceti and "
		             ".github/workflows/ into the project's checkout: run it there, or name "
		             "that checkout");
	if (why->len) {
		sb_release(&top);
		return NULL;
	}
	return sb_detach(&top, NULL);
}

/* Nothing that is there is changed: one file already there stops it all. */
void sc_setup_refuse_existing(const char *top)
{
	for (int i = 0; i < SC_SETUP_NFILES; i++) {
		char *path = xasprintf("%s/%s", top, sc_setup_files[i]);
		struct stat st;
		if (lstat(path, &st) == 0)
			sc_die("%s is there already, and init changes nothing that is: edit it by hand, "
			       "or move it away and run init again (%s)", sc_setup_files[i], path);
		free(path);
	}
}

/* The base branch: named, else origin's default branch, else the one
 * checked out. */
char *sc_setup_base_branch(const char *top, const char *given, struct strbuf *why)
{
	struct strbuf b = STRBUF_INIT;
	if (given)
		sb_adds(&b, given);
	else if (git_line(top, (const char *const[]){"symbolic-ref", "--quiet", "--short",
	                                             "refs/remotes/origin/HEAD", NULL}, &b) == 0 &&
	         strncmp(b.buf, "origin/", 7) == 0)
		memmove(b.buf, b.buf + 7, (b.len -= 7) + 1);
	else {
		/* never the branch checked out: a feature branch would become the
		 * base the workflows watch */
		sb_adds(why, "origin names no default branch (no refs/remotes/origin/HEAD: git remote "
		             "set-head origin --auto makes one)");
		sb_release(&b);
		return NULL;
	}
	struct strbuf ok = STRBUF_INIT;
	if (git_line(top, (const char *const[]){"check-ref-format", "--branch", b.buf, NULL}, &ok) < 0 ||
	    strpbrk(b.buf, "\"'#[]{},&*!|>%@` ") || b.buf[0] == '-')
		sb_addf(why, "a branch name the workflow's `branches` cannot hold plainly: '%s'", b.buf);
	sb_release(&ok);
	if (why->len) {
		sb_release(&b);
		return NULL;
	}
	return sb_detach(&b, NULL);
}

/* The configuration TEXT read back from a file of its own in TOP, before
 * anything is written: what git or sc-plan would refuse leaves nothing. */
static void check_config(const char *top, const struct strbuf *text)
{
	char *tmp = xasprintf("%s/.sphereceti-init-XXXXXX", top);
	int fd = mkstemp(tmp);
	if (fd < 0)
		sc_die_path_errno("cannot write a file to check .sphereceti, nothing was written (%s)", top);
	int bad = sc_write_all(fd, text->buf, text->len) < 0;
	int e = errno;
	close(fd);
	if (bad) {
		unlink(tmp);
		errno = e;
		sc_die_path_errno("cannot write a file to check .sphereceti, nothing was written (%s)", tmp);
	}
	struct strbuf list = STRBUF_INIT, err = STRBUF_INIT;
	const char *const args[] = {"config", "--no-includes", "--file", tmp, "--list", "-z", NULL};
	int st = sc_git_run_at(top, args, &list);
	unlink(tmp);
	struct sc_plan p = {0};
	if (st != 0 || sc_repoconfig_parse(list.buf, list.len, &p, &err) < 0)
		sc_die_sys("internal: the configuration init made does not read back, nothing was "
		           "written: %s (%s)", st != 0 ? "git config fails" : err.buf, top);
	sc_plan_free(&p);
	sb_release(&list);
	sb_release(&err);
	free(tmp);
}

/* All three, or none: the configuration read back first, each file
 * through a temporary file, and a later failure removes the earlier ones. */
void sc_setup_write_all(const char *top, struct strbuf text[SC_SETUP_NFILES])
{
	check_config(top, &text[SC_SETUP_CONFIG]);
	char *dir = xasprintf("%s/.github/workflows", top);
	char *github = xasprintf("%s/.github", top);
	int made_github = mkdir(github, 0777) == 0, made_dir = mkdir(dir, 0777) == 0;
	char *path[SC_SETUP_NFILES];
	for (int i = 0; i < SC_SETUP_NFILES; i++) {
		path[i] = xasprintf("%s/%s", top, sc_setup_files[i]);
		if (sc_write_file_atomic(path[i], text[i].buf, text[i].len, 0644) < 0) {
			int err = errno;
			for (int k = 0; k < i; k++)
				unlink(path[k]);
			if (made_dir)
				rmdir(dir);
			if (made_github)
				rmdir(github);
			errno = err;
			sc_die_path_errno("cannot write %s, nothing was written (%s)", sc_setup_files[i], path[i]);
		}
	}
	for (int i = 0; i < SC_SETUP_NFILES; i++)
		free(path[i]);
	free(dir);
	free(github);
}

void sc_setup_next_steps(const char *branch, const struct sc_setup *s, const char *commit)
{
	struct strbuf roots = STRBUF_INIT;
	for (size_t i = 0; i < s->n_library; i++)
		sb_addf(&roots, "%s%s", i ? ", " : "library ", s->library[i]);
	for (size_t i = 0; i < s->n_roadmap; i++)
		sb_addf(&roots, "%s%s", i ? ", " : "; roadmap ", s->roadmap[i]);
	sc_say(stdout, "", "wrote .sphereceti (%s; from %s),", roots.buf, s->lakefile);
	printf(".github/workflows/sphereceti-profile.yml and .github/workflows/sphereceti-deps.yml\n"
	       "(sphereceti %.12s, base branch %s).\n\nWhat is left:\n", commit, branch);
	sb_release(&roots);
	printf("  1. Review the three files, then commit and push them to %s:\n"
	       "       git add .sphereceti .github/workflows/sphereceti-profile.yml "
	       ".github/workflows/sphereceti-deps.yml\n"
	       "       git commit -m 'Profile pull requests with sphereceti' && git push\n"
	       "     The push runs sphereceti-deps, which prepares the dependencies (an hour for\n"
	       "     Mathlib's); a pull request profiled before it is done says so, neutral.\n",
	       branch);
	printf("  2. Create the label `profile` (Issues, Labels): a maintainer adds it to a pull\n"
	       "     request from outside the project to approve profiling its head.\n");
	printf("  3. Optional repository variables (Settings, Secrets and variables, Actions,\n"
	       "     Variables):\n"
	       "       SPHERECETI_COMMENT=true      the verdict also as one comment, kept up to date\n"
	       "       SPHERECETI_FAIL_ON_FLAG=true a flagged file fails the check (else neutral)\n"
	       "       SPHERECETI_IMPORTERS=N       also measure N unchanged importers (0-32)\n"
	       "       SPHERECETI_CONFIRM=N         repeats of a file near a threshold (0-4; 2)\n"
	       "       SPHERECETI_ATTRIBUTE=false   no time by declaration (Lean's profiler) of a\n"
	       "                                    flagged file\n"
	       "       SPHERECETI_THRESHOLD_RATIO=R other thresholds (1.5, 30 s, 150 s): a file\n"
	       "       SPHERECETI_THRESHOLD_DELTA=S is flagged at R times its base and S seconds more,\n"
	       "       SPHERECETI_THRESHOLD_ADDED=S an added file at S seconds\n");
	printf("  4. %s\n", s->github ? "Nothing else: the report links the pull request's files on GitHub."
	                              : "No GitHub origin remote was found: add `github = owner/name` under "
	                                "[profile] for links in the report.");
	printf("The bubblewrap pin is this machine's (%s); if the runner's differs, the first\n"
	       "profile says so in its first minute, with the line to add under [sandbox].\n",
	       s->pin_line);
}

char *sc_setup_origin_slug(const char *top)
{
	struct strbuf url = STRBUF_INIT, slug = STRBUF_INIT;
	char *found = NULL;
	if (git_line(top, (const char *const[]){"remote", "get-url", "origin", NULL}, &url) == 0 &&
	    sc_github_slug(url.buf, &slug) == 0)
		found = sb_detach(&slug, NULL);
	sb_release(&url);
	sb_release(&slug);
	return found;
}
