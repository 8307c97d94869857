#include "sandbox/inputs.h"
#include "git/git.h"
#include "git/srccheck.h"
#include "util/fswalk.h"
#include "util/json.h"
#include "util/pathcheck.h"
#include "util/safefile.h"
#include "util/safepath.h"
#include "util/spawn.h"
#include "util/sha256.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOOLCHAIN_FIX(tc)                                                                  \
	"pass the folder of an unpacked Lean release, which holds bin/lean and bin/lake: "   \
	"run 'elan toolchain install %s', then pass the folder 'lean --print-prefix' prints " \
	"in the project", (tc)

/* elan keeps its proxies and itself in one bin folder (its home's bin/). */
static int is_elan_folder(const char *dir)
{
	const char *cands[] = {"%s/bin/elan", "%s/elan"};
	for (size_t i = 0; i < 2; i++) {
		char *p = xasprintf(cands[i], dir);
		struct stat st;
		int hit = stat(p, &st) == 0 && S_ISREG(st.st_mode);
		free(p);
		if (hit)
			return 1;
	}
	return 0;
}

enum sc_toolchain_misnamed sc_toolchain_misnamed(const char *dir, const char *lean_toolchain,
                                                 struct strbuf *err)
{
	const char *tc = lean_toolchain ? lean_toolchain : "$(cat lean-toolchain)";
	struct stat st;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		sb_addf(err, "the toolchain is a file, not a toolchain folder; " TOOLCHAIN_FIX(tc));
		sb_addf(err, " (%s)", dir);
		return SC_TOOLCHAIN_A_FILE;
	}
	if (stat(dir, &st) < 0 || !is_elan_folder(dir))
		return SC_TOOLCHAIN_NOT_MISNAMED;
	sb_addf(err, "the toolchain is elan's folder, whose bin/lean is elan's proxy, not a toolchain; "
	             TOOLCHAIN_FIX(tc));
	if (lean_toolchain) {
		/* elan's folder name for a toolchain: '/' -> "--", ':' -> "---". */
		struct strbuf name = STRBUF_INIT;
		for (const char *c = lean_toolchain; *c; c++)
			sb_adds(&name, *c == '/' ? "--" : *c == ':' ? "---" : (char[]){*c, 0});
		sb_addf(err, " (usually %s/toolchains/%s)", dir, name.buf);
		sb_release(&name);
	}
	sb_addf(err, " (%s)", dir);
	return SC_TOOLCHAIN_ELAN_HOME;
}

int sc_check_toolchain(const char *dir, const char *lean_toolchain,
                       struct sc_toolchain_info *info, struct strbuf *err)
{
	static const char prefix[] = "leanprover/lean4:v";
	memset(info, 0, sizeof *info);
	if (sc_toolchain_misnamed(dir, lean_toolchain, err))
		return -1;
	char *lean = xasprintf("%s/bin/lean", dir), *lake = xasprintf("%s/bin/lake", dir);
	int rc = -1;
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	if (!sc_is_executable_file(lean) || !sc_is_executable_file(lake)) {
		/* the folder of the programs named instead of the toolchain's */
		char *up = xasprintf("%s/../bin/lean", dir);
		size_t n = strlen(dir);
		while (n > 1 && dir[n - 1] == '/')
			n--;
		if (n >= 4 && strncmp(dir + n - 4, "/bin", 4) == 0 && sc_is_executable_file(up))
			sb_addf(err, "toolchain lacks executable bin/lean or bin/lake: this is its bin folder; "
			        "pass the folder above it, %.*s (%s)",
			        (int)(n - 4), dir, dir);
		else
			sb_addf(err, "toolchain lacks executable bin/lean or bin/lake: pass the folder "
			        "`lean --print-prefix` prints in a checkout of T (%s)", dir);
		free(up);
		goto out;
	}
	if (!lean_toolchain || strncmp(lean_toolchain, prefix, sizeof prefix - 1) != 0) {
		sb_addf(err, "lean-toolchain \"%s\" does not name a leanprover/lean4:v release",
		        lean_toolchain ? lean_toolchain : "(absent)");
		goto out;
	}
	const char *argv[] = {lean, "--version", NULL};
	const char *envp[] = {NULL};
	int st = sc_spawn_capture(argv, envp, NULL, SC_NULL_ERR, &out);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		sb_addf(err, "bin/lean --version failed: %s (%s)", sc_describe_status(st), dir);
		goto out;
	}
	char *nl = memchr(out.buf, '\n', out.len);
	if (nl)
		*nl = '\0';
	sb_addf(&want, "Lean (version %s,", lean_toolchain + sizeof prefix - 1);
	if (strncmp(out.buf, want.buf, want.len) != 0) {
		sb_addf(err, "toolchain version \"%.200s\" does not match lean-toolchain \"%s\": install "
		        "that toolchain (elan toolchain install %s) and pass its folder", out.buf,
		        lean_toolchain, lean_toolchain);
		goto out;
	}
	if (sc_sha256_file_hex(lean, info->lean_sha256) < 0 ||
	    sc_sha256_file_hex(lake, info->lake_sha256) < 0) {
		sb_addf(err, "cannot hash toolchain binaries: %s (%s)", strerror(errno), dir);
		goto out;
	}
	info->version_line = xstrdup(out.buf);
	rc = 0;
out:
	free(lean);
	free(lake);
	sb_release(&out);
	sb_release(&want);
	return rc;
}

void sc_toolchain_info_free(struct sc_toolchain_info *info)
{
	free(info->version_line);
	info->version_line = NULL;
}

/* git as the sandbox runs it (Documentation/lake-fidelity.txt "Real Lake"): an empty environment,
 * no global or system configuration, safe.directory set through the
 * environment, /usr/bin/git.  The operator's HOME and config cannot make a
 * dependency pass here that Lake's `git rev-parse` fails in the sandbox.
 *
 * A dependency folder is data (in CI it comes back from a cache), so it
 * must not become a program for the host (Documentation/threat-model.txt,
 * "No code from data folders"): only rev-parse and ls-tree run, commands
 * that read objects and refs and run nothing, and every way the
 * checkout's own configuration could still make git start a program or
 * answer for another commit is overridden from the command scope, which
 * wins over the repository's: no fsmonitor, no transport (a missing
 * object would otherwise be fetched lazily through a configured remote,
 * ext:: included), no replace refs. */
static int dep_git(struct strbuf *out, const char *const *args)
{
	static const char *const env[] = {
		"PATH=/usr/bin:/bin", "HOME=/nonexistent", "LC_ALL=C", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0",
		"GIT_NO_REPLACE_OBJECTS=1", "GIT_NO_LAZY_FETCH=1", "GIT_PROTOCOL_FROM_USER=0",
		"GIT_ATTR_NOSYSTEM=1", "GIT_PAGER=cat", "GIT_ASKPASS=/bin/false", "SSH_ASKPASS=/bin/false",
		"GIT_CONFIG_COUNT=10",
		"GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*",
		"GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_1=false",
		"GIT_CONFIG_KEY_2=protocol.allow", "GIT_CONFIG_VALUE_2=never",
		"GIT_CONFIG_KEY_3=protocol.ext.allow", "GIT_CONFIG_VALUE_3=never",
		"GIT_CONFIG_KEY_4=protocol.file.allow", "GIT_CONFIG_VALUE_4=never",
		"GIT_CONFIG_KEY_5=protocol.ssh.allow", "GIT_CONFIG_VALUE_5=never",
		"GIT_CONFIG_KEY_6=protocol.git.allow", "GIT_CONFIG_VALUE_6=never",
		"GIT_CONFIG_KEY_7=protocol.https.allow", "GIT_CONFIG_VALUE_7=never",
		"GIT_CONFIG_KEY_8=protocol.http.allow", "GIT_CONFIG_VALUE_8=never",
		"GIT_CONFIG_KEY_9=core.hooksPath", "GIT_CONFIG_VALUE_9=/dev/null",
		NULL,
	};
	const char **argv = sc_git_argv("/usr/bin/git", NULL, NULL, args);
	int st = sc_spawn_capture(argv, env, NULL, SC_NULL_ERR, out);
	free(argv);
	return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The checkout's tracked files are HEAD's, byte for byte: each entry of
 * `git ls-tree -r -z --full-tree HEAD` (no index, no attributes, so no
 * fsmonitor hook or filter driver of the checkout runs, and none can
 * answer for git) hashed here from the folder, no link followed.  LS is
 * that output; returns 1 when clean, else 0 with the first difference in
 * why ("Tiny/Core.lean: content differs"). */
static int tracked_files_clean(const char *dir, const char *ls, size_t len, struct strbuf *why)
{
	for (size_t pos = 0; pos < len;) {
		const char *ent = ls + pos, *end = memchr(ent, '\0', len - pos);
		if (!end)
			end = ls + len;
		pos = (size_t)(end - ls) + 1;
		const char *tab = memchr(ent, '\t', (size_t)(end - ent));
		char mode[8], type[8], oid[SC_MAX_HEXSZ + 1];
		if (!tab || sscanf(ent, "%7s %7s %64s", mode, type, oid) != 3) {
			sb_adds(why, "git ls-tree printed an unreadable line");
			return 0;
		}
		const char *path = tab + 1;
		if (strcmp(type, "blob") != 0) /* a submodule's commit: not its files */
			continue;
		struct strbuf what = STRBUF_INIT;
		int ok;
		if (strcmp(mode, "120000") == 0) {
			char *p = xasprintf("%s/%s", dir, path), target[PATH_MAX];
			ssize_t n = readlink(p, target, sizeof target);
			ok = n >= 0 && sc_data_is_blob(target, (size_t)n, oid);
			if (!ok)
				sb_adds(&what, "link differs");
			free(p);
		} else {
			ok = sc_source_is_blob(dir, path, oid, &what) == 1;
		}
		if (!ok) {
			sc_quote_path(why, path, strlen(path));
			sb_addf(why, ": %s", what.buf);
		}
		sb_release(&what);
		if (!ok)
			return 0;
	}
	return 1;
}

/* When the operator is root the sandbox runs as an unprivileged uid: the
 * dependency must be readable and searchable by others. */
static int readable_by_sandbox(const struct stat *st)
{
	return geteuid() != 0 || (st->st_mode & (S_IROTH | S_IXOTH)) == (S_IROTH | S_IXOTH);
}

/* subDir (Load/Materialize.lean) moves the package root inside the
 * checkout: it must be a directory there, reached without a symlink. */
static int sub_dir_ok(const char *dir, const char *sub)
{
	char *p = xasprintf("%s/%s", dir, sub), real[PATH_MAX], want[PATH_MAX * 2];
	struct stat st;
	int ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode) && realpath(p, real) && realpath(dir, want);
	if (ok) {
		size_t n = strlen(want);
		snprintf(want + n, sizeof want - n, "/%s", sub);
		ok = strcmp(real, want) == 0;
	}
	free(p);
	return ok;
}

/* Does the listing (ls-tree -r -z records) track a Lean source of the
 * package below SUBDIR, other than its lakefile? */
static int tracks_lean(const char *ls, size_t len, const char *subdir)
{
	size_t sl = subdir ? strlen(subdir) : 0;
	for (const char *p = ls; p < ls + len;) {
		const char *end = memchr(p, '\0', (size_t)(ls + len - p));
		const char *tab = memchr(p, '\t', (size_t)((end ? end : ls + len) - p));
		if (!end)
			break;
		if (tab) {
			const char *path = tab + 1;
			size_t n = (size_t)(end - path);
			int inside = !subdir || (n > sl && strncmp(path, subdir, sl) == 0 && path[sl] == '/');
			const char *base = memrchr(path, '/', n);
			base = base ? base + 1 : path;
			if (inside && n > 5 && strcmp(end - 5, ".lean") == 0 && strcmp(base, "lakefile.lean") != 0)
				return 1;
		}
		p = end + 1;
	}
	return 0;
}

static int stop_at_olean(const char *rel, const struct stat *st, void *ctx)
{
	size_t n = strlen(rel);
	if (S_ISREG(st->st_mode) && n > 6 && strcmp(rel + n - 6, ".olean") == 0) {
		*(int *)ctx = 1;
		errno = 0;
		return -1;
	}
	return 0;
}

/* A package built at all: one module's .olean below .lake/build/lib/lean. */
static int built(const char *root)
{
	char *lib = xasprintf("%s/.lake/build/lib/lean", root);
	int found = 0;
	char *where = NULL;
	(void)sc_fswalk_list(lib, stop_at_olean, &found, &where);
	free(where);
	free(lib);
	return found;
}

static int check_one(const char *deps, const struct sc_manifest_pkg *pkg, struct strbuf *err)
{
	char *dir = xasprintf("%s/%s", deps, pkg->name);
	char real[PATH_MAX];
	struct strbuf out = STRBUF_INIT;
	int rc = -1;
	struct stat st;
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		sb_addf(err, "dependency \"%s\" is missing or not an ordinary directory: prepare "
		        "the dependencies folder as T's .lake/packages after `lake build` in a trusted checkout "
		        "of T (README \"Running it for real\", step 4), so that it holds %s at %.12s (%s)",
		        pkg->name, pkg->name, pkg->rev, dir);
		goto out;
	}
	if (!readable_by_sandbox(&st)) {
		sb_addf(err, "dependency \"%s\" is not readable by the sandbox's unprivileged user "
		        "(chmod -R o+rX it) (%s)", pkg->name, dir);
		goto out;
	}
	if (!realpath(dir, real)) {
		sb_addf(err, "cannot resolve dependency \"%s\" (%s)", pkg->name, dir);
		goto out;
	}
	/* git -C would happily find an enclosing repository: require that the
	 * package directory is the top of its own checkout. */
	const char *top[] = {"-C", dir, "rev-parse", "--show-toplevel", NULL};
	if (dep_git(&out, top) != 0 || (sb_chomp(&out), strcmp(out.buf, real) != 0)) {
		sb_addf(err, "dependency \"%s\" is not a Git checkout of its own (%s)", pkg->name, dir);
		goto out;
	}
	sb_reset(&out);
	const char *head[] = {"-C", dir, "rev-parse", "--verify", "HEAD^{commit}", NULL};
	if (dep_git(&out, head) != 0) {
		sb_addf(err, "dependency \"%s\" has no HEAD commit (%s)", pkg->name, dir);
		goto out;
	}
	sb_chomp(&out);
	if (strcmp(out.buf, pkg->rev) != 0) {
		sb_addf(err, "dependency \"%s\" is at %.12s, manifest wants %.12s: prepare it again "
		        "at T's manifest (git -C %s checkout %s, then `lake build` in a trusted "
		        "checkout of T) (%s)", pkg->name, out.buf, pkg->rev, dir, pkg->rev, dir);
		goto out;
	}
	sb_reset(&out);
	const char *ls[] = {"-C", dir, "ls-tree", "-r", "-z", "--full-tree", pkg->rev, NULL};
	if (dep_git(&out, ls) != 0) {
		sb_addf(err, "cannot list the tracked files of dependency \"%s\" (%s)", pkg->name, dir);
		goto out;
	}
	struct strbuf why = STRBUF_INIT;
	if (!tracked_files_clean(dir, out.buf, out.len, &why)) {
		sb_addf(err, "dependency \"%s\" has modified tracked files (%s): restore them "
		        "(git -C %s checkout -- .) or prepare it again (%s)", pkg->name, why.buf, dir,
		        dir);
		sb_release(&why);
		goto out;
	}
	sb_release(&why);
	if (pkg->subdir && !sub_dir_ok(dir, pkg->subdir)) {
		sb_addf(err, "dependency \"%s\" has no package folder %s (its manifest subDir) (%s)",
		        pkg->name, pkg->subdir, dir);
		goto out;
	}
	/* never built: Lake would build it into the read-only mount, and the
	 * prebuild would fail on every module there */
	char *root = pkg->subdir ? xasprintf("%s/%s", dir, pkg->subdir) : xstrdup(dir);
	int unbuilt = tracks_lean(out.buf, out.len, pkg->subdir) && !built(root);
	free(root);
	if (unbuilt) {
		sb_addf(err, "dependency \"%s\" was never built: its .lake/build holds no module; "
		        "prepare the dependencies folder with `lake build` in a trusted checkout of T (README "
		        "\"Running it for real\", step 4) (%s)", pkg->name, dir);
		goto out;
	}
	rc = 0;
out:
	free(dir);
	sb_release(&out);
	return rc;
}

int sc_check_dependencies(const char *deps, const struct sc_manifest *m, struct strbuf *err)
{
	struct stat st;
	if (stat(deps, &st) < 0 || !S_ISDIR(st.st_mode)) {
		sb_addf(err, "dependencies folder is missing: prepare it with `lake build` in a trusted "
		        "checkout of T and pass its packages folder, .lake/packages (%s)", deps);
		return -1;
	}
	for (size_t i = 0; i < m->n; i++)
		if (check_one(deps, &m->pkgs[i], err) < 0)
			return -1;
	return 0;
}

int sc_paths_overlap(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	if (!realpath(a, ra) || !realpath(b, rb))
		return 0;
	return sc_path_within(ra, rb) || sc_path_within(rb, ra);
}

/* "Lean (version 4.30.0, x86_64-..., commit 0123abcd, Release)": is the
 * version at least 4.31, and the commit (NULL if the line has none). */
static int keeps_config_in_workspace(const char *line, char commit[65])
{
	unsigned maj = 0, min = 0;
	commit[0] = '\0';
	const char *c = line ? strstr(line, ", commit ") : NULL;
	if (c)
		sscanf(c + 9, "%64[0-9a-f]", commit);
	if (!line || sscanf(line, "Lean (version %u.%u", &maj, &min) != 2)
		return 1; /* unknown: no claim about the dependencies' folders */
	return maj > 4 || (maj == 4 && min >= 31);
}

/* What is wrong with one package's compiled configuration, or NULL. */
static const char *config_cache_problem(const char *root, const char *commit, char *detail,
                                        size_t n)
{
	char *lf = xasprintf("%s/lakefile.lean", root);
	char *olean = xasprintf("%s/.lake/lakefile.olean", root);
	char *trace = xasprintf("%s/.lake/lakefile.olean.trace", root);
	struct stat lst, ost, tst;
	const char *what = NULL;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	if (stat(lf, &lst) < 0) {
		/* lakefile.toml only: nothing compiled, nothing cached */
	} else if (stat(olean, &ost) < 0 || stat(trace, &tst) < 0) {
		what = "has no compiled lakefile.lean configuration (.lake/lakefile.olean and its .trace)";
	} else if (lst.st_mtime > tst.st_mtime) {
		what = "has a lakefile.lean newer than its compiled configuration (.lake/lakefile.olean.trace)";
	} else if (*commit && sc_read_file(trace, &text, 1u << 16) == 0) {
		yajl_val v = sc_json_parse(text.buf, text.len, &err);
		const char *hash = NULL;
		if (v && sc_json_get_str(v, "leanHash", &hash, &err) == 0 &&
		    strncmp(hash, commit, strlen(commit)) != 0) {
			snprintf(detail, n, "has a configuration compiled by another Lean (leanHash %.12s, "
			         "this toolchain's commit %.12s)", hash, commit);
			what = detail;
		}
		if (v)
			yajl_tree_free(v);
	}
	sb_release(&text);
	sb_release(&err);
	free(lf);
	free(olean);
	free(trace);
	return what;
}

int sc_dependency_config_problem(const char *deps, const struct sc_manifest *m,
                                 const char *version_line, struct strbuf *why)
{
	char commit[65], detail[256];
	if (keeps_config_in_workspace(version_line, commit))
		return 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct sc_manifest_pkg *pkg = &m->pkgs[i];
		char *root = pkg->subdir ? xasprintf("%s/%s/%s", deps, pkg->name, pkg->subdir)
		                         : xasprintf("%s/%s", deps, pkg->name);
		const char *what = config_cache_problem(root, commit, detail, sizeof detail);
		if (what)
			sb_addf(why, "dependency \"%s\" %s: Lean before 4.31 compiles it into the "
			        "dependency's own .lake, read-only in the sandbox; run `lake build` (or `lake env "
			        "true`) in %s with this toolchain", pkg->name, what, root);
		free(root);
		if (what)
			return 1;
	}
	return 0;
}
