#include "planning/planner.h"
#include "git/treelookup.h"
#include "util/die.h"
#include "util/oid.h"

#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

enum sc_exit sc_merge_base_pick(int rc, struct strbuf *out, int hexsz, const char *const names[2], char **mb,
                       struct strbuf *why)
{
	*mb = NULL;
	if (rc == 1 && out->len == 0) {
		sb_addf(why, "no merge base: %s and %s have unrelated histories (git merge-base)", names[0],
		        names[1]);
		return SC_EXIT_USAGE;
	}
	if (rc != 0) {
		sb_adds(why, "git merge-base failed (git merge-base --all)");
		return SC_EXIT_SYSTEM;
	}
	size_t lines = 0;
	for (size_t i = 0; i < out->len; i++)
		lines += out->buf[i] == '\n';
	if (lines != 1) {
		sb_addf(why, "ambiguous merge base: %s and %s have %zu merge bases (git merge-base --all)",
		        names[0], names[1], lines);
		return SC_EXIT_USAGE;
	}
	out->buf[--out->len] = '\0';
	if (!sc_is_lower_hex(out->buf, (size_t)hexsz)) {
		sb_adds(why, "unexpected git merge-base output (git merge-base --all)");
		return SC_EXIT_SYSTEM;
	}
	*mb = sb_detach(out, NULL);
	return SC_EXIT_OK;
}

char *sc_merge_base_or_die(int rc, struct strbuf *out, int hexsz, const char *const names[2])
{
	struct strbuf why = STRBUF_INIT;
	char *mb;
	enum sc_exit code = sc_merge_base_pick(rc, out, hexsz, names, &mb, &why);
	if (code != SC_EXIT_OK)
		sc_die_code(code, "%s", why.buf);
	return mb;
}

const char *sc_lake_change(const char *got, const char *want)
{
	int same = (!got && !want) || (got && want && strcmp(got, want) == 0);
	if (same)
		return NULL;
	return !got ? "is absent" : !want ? "is added" : "changed";
}

static int is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

char *sc_toolchain_name(const char *buf, size_t len)
{
	size_t a = 0, b = len;
	while (a < b && is_space(buf[a]))
		a++;
	while (b > a && is_space(buf[b - 1]))
		b--;
	int ok = b > a && b - a <= SC_MAX_TOOLCHAIN_BYTES;
	for (size_t i = a; ok && i < b; i++)
		ok = buf[i] > 0x20 && buf[i] < 0x7f;
	return ok ? xstrndup(buf + a, b - a) : NULL;
}

void sc_lake_blobs(struct sc_catfile *c, const struct sc_git *g, const char *tree,
                   const char *side, char *blobs[SC_LAKE_NFILES])
{
	for (int i = 0; i < SC_LAKE_NFILES; i++) {
		struct sc_tree_entry e;
		int r = sc_tree_find(c, g, tree, sc_lake_files[i], &e);
		if (r < 0)
			sc_die_sys("cannot read tree %s (%s)", tree, side);
		if (r == 0) {
			blobs[i] = NULL;
			continue;
		}
		if (!sc_is_regular_mode(e.mode))
			sc_die("Lake configuration %s is not a regular file (%s)", sc_lake_files[i], side);
		blobs[i] = xstrdup(e.hex);
	}
}

void sc_same_lake(struct sc_catfile *c, const struct sc_git *g, const char *tree,
                  const char *side, const char *fix, char *const want[SC_LAKE_NFILES])
{
	char *got[SC_LAKE_NFILES];
	sc_lake_blobs(c, g, tree, side, got);
	for (int i = 0; i < SC_LAKE_NFILES; i++) {
		const char *change = sc_lake_change(got[i], want[i]);
		if (change)
			sc_die_policy("Lake configuration differs from the tooling "
			              "commit: %s %s; %s (%s)",
			       sc_lake_files[i], change, fix, side);
		free(got[i]);
	}
}

char *sc_read_toolchain(struct sc_catfile *c, const char *blob)
{
	char type[16];
	size_t size;
	struct strbuf sb = STRBUF_INIT;
	if (sc_catfile_header(c, blob, type, &size) < 0)
		sc_die_sys("cannot read lean-toolchain blob %s (tooling commit)", blob);
	sc_catfile_content(c, &sb);
	char *s = sc_toolchain_name(sb.buf, sb.len);
	if (!s)
		sc_die("lean-toolchain is not a single toolchain name (tooling commit)");
	sb_release(&sb);
	return s;
}

enum sc_exit sc_lean_libs_verdict(const struct sc_lake_libs *libs, const struct sc_plan *p,
                         struct strbuf *why)
{
	for (size_t i = 0; i < p->n_files; i++) {
		const struct sc_plan_file *f = &p->files[i];
		if (sc_lakelibs_find(libs, f->module, p->source_dir))
			continue;
		sb_addf(why, "no lean_lib of lakefile.toml builds module %s from %s, so %s cannot be "
		        "measured (Lake would fail the prebuild with \"unknown module\"): add it to a "
		        "lean_lib's roots or globs, or drop its root from .sphereceti (lakefile.toml at %.12s)",
		        f->module, p->source_dir ? p->source_dir : ".", f->path, p->tooling);
		return SC_EXIT_POLICY;
	}
	return SC_EXIT_OK;
}

void sc_check_lean_libs(struct sc_catfile *c, const struct sc_plan *p)
{
	const char *blob = p->lake_blobs[SC_LAKE_TOML];
	if (!blob || p->lake_blobs[SC_LAKE_LEAN] || !p->n_files)
		return; /* Lake reads lakefile.lean first; profile-run asks Lake about it */
	char type[16];
	size_t size;
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	if (sc_catfile_header(c, blob, type, &size) < 0)
		sc_die_sys("cannot read lakefile.toml blob %s (tooling commit)", blob);
	if (size > SC_LAKELIBS_MAX) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null < 0 || sc_catfile_stream(c, null) < 0)
			sc_die_sys("cannot read lakefile.toml blob %s (tooling commit)", blob);
		close(null);
		return;
	}
	sc_catfile_content(c, &text);
	struct sc_lake_libs libs;
	if (sc_lakelibs_parse(text.buf, text.len, &libs, &why) == 0) {
		sb_reset(&why);
		if (sc_lean_libs_verdict(&libs, p, &why) != SC_EXIT_OK)
			sc_die_policy("%s", why.buf);
		sc_lakelibs_free(&libs);
	}
	sb_release(&why);
	sb_release(&text);
}

/* Is path (a symlink or submodule) where the plan needs real sources: a
 * root, inside a root, a directory on the way to a root, or a Lake
 * configuration file?  Returns a description, or NULL. */
char *sc_plan_needs_sources(const struct sc_plan *p, const char *path)
{
	if (!strchr(path, '/'))
		for (int i = 0; i < SC_LAKE_NFILES; i++)
			if (strcmp(path, sc_lake_files[i]) == 0)
				return xstrdup("a Lake configuration file");
	enum sc_role role;
	if (sc_plan_classify(p, path, &role))
		return xasprintf("under a %s root", sc_role_name(role));
	for (int pass = 0; pass < 2; pass++) {
		char **roots = pass ? p->roadmap : p->library;
		size_t nroots = pass ? p->n_roadmap : p->n_library;
		for (size_t i = 0; i < nroots; i++) {
			char *full = p->source_dir ? xasprintf("%s/%s", p->source_dir, roots[i]) : xstrdup(roots[i]);
			const char *r = full;
			size_t rl = strlen(r), pl = strlen(path);
			int inside = pl >= rl && strncmp(path, r, rl) == 0 &&
			             (path[rl] == '\0' || path[rl] == '/');
			int above = rl > pl && strncmp(r, path, pl) == 0 && r[pl] == '/';
			char *why = inside || above ? xasprintf("%s %s root '%s'", inside ? "at or inside" : "above",
			                                        pass ? "roadmap" : "library", r) : NULL;
			free(full);
			if (why)
				return why;
		}
	}
	return NULL;
}
