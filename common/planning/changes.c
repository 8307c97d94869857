#include "planning/changes.h"
#include "git/git.h"
#include "contract/leanpath.h"
#include "util/oid.h"

#include <stdlib.h>
#include <string.h>

void sc_changes_areas(const struct sc_plan *p, struct sc_argv *paths)
{
	size_t nroots = p->n_library + p->n_roadmap;
	for (size_t i = 0; i < nroots; i++) {
		const char *root = i < p->n_library ? p->library[i] : p->roadmap[i - p->n_library];
		sc_argv_push(paths, root);
		sc_argv_push_owned(paths, xasprintf("%s.lean", root));
		if (p->source_dir) {
			sc_argv_push_owned(paths, xasprintf("%s/%s", p->source_dir, root));
			sc_argv_push_owned(paths, xasprintf("%s/%s.lean", p->source_dir, root));
		}
	}
}

void sc_changes_diff_args(const struct sc_plan *p, const char *mbase, struct sc_argv *args)
{
	static const char *const fixed[] = {
		"--literal-pathspecs", "diff-tree", "-r", "--no-renames", "-z", "--raw",
		"--no-abbrev", "--ignore-submodules=none", "--no-relative", "--no-ext-diff",
	};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		sc_argv_push(args, fixed[i]);
	sc_argv_push(args, mbase);
	sc_argv_push(args, p->head);
	sc_argv_push(args, "--");
	sc_changes_areas(p, args);
}

static int parse_mode(const char *s, size_t n, unsigned *mode)
{
	if (n == 0 || n > 6)
		return -1;
	unsigned m = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '7')
			return -1;
		m = m * 8 + (unsigned)(s[i] - '0');
	}
	*mode = m;
	return 0;
}

int sc_rawdiff_next(const char *buf, size_t len, size_t *pos, int hexsz, struct sc_rawdiff *d)
{
	/* ":<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0" */
	size_t p = *pos;
	if (p >= len)
		return 0;
	const char *hdr = buf + p;
	const char *hend = memchr(hdr, '\0', len - p);
	if (!hend || hdr[0] != ':')
		return -1;
	size_t hlen = (size_t)(hend - hdr);
	const char *f[5];
	size_t fl[5], k = 0, start = 1;
	for (size_t i = 1; i <= hlen && k < 5; i++)
		if (i == hlen || hdr[i] == ' ') {
			f[k] = hdr + start;
			fl[k++] = i - start;
			start = i + 1;
		}
	if (k != 5 || start <= hlen || parse_mode(f[0], fl[0], &d->old_mode) < 0 ||
	    parse_mode(f[1], fl[1], &d->new_mode) < 0 || fl[2] != (size_t)hexsz ||
	    fl[3] != (size_t)hexsz || fl[4] != 1)
		return -1;
	memcpy(d->old_hex, f[2], fl[2]);
	d->old_hex[hexsz] = '\0';
	memcpy(d->new_hex, f[3], fl[3]);
	d->new_hex[hexsz] = '\0';
	if (!sc_is_lower_hex(d->old_hex, (size_t)hexsz) || !sc_is_lower_hex(d->new_hex, (size_t)hexsz))
		return -1;
	d->status = f[4][0];
	const char *path = hend + 1;
	if ((size_t)(path - buf) >= len)
		return -1;
	const char *pend = memchr(path, '\0', len - (size_t)(path - buf));
	if (!pend || pend == path)
		return -1;
	d->path = path;
	*pos = (size_t)(pend - buf) + 1;
	return 1;
}

static int in_area(char **roots, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++) {
		size_t r = strlen(roots[i]);
		if (strncmp(path, roots[i], r) == 0 && (path[r] == '/' || strcmp(path + r, ".lean") == 0))
			return 1;
	}
	return 0;
}

static int in_any_area(const struct sc_plan *p, const char *rel)
{
	return in_area(p->library, p->n_library, rel) || in_area(p->roadmap, p->n_roadmap, rel);
}

int sc_plan_in_root_area(const struct sc_plan *p, const char *path)
{
	const char *rel = sc_plan_source_rel(p, path);
	return rel && in_any_area(p, rel);
}

/* With profile.sourceDir set, a Lean file at a root's place outside it is
 * no module of any lean_lib: Lake's `+Mod` would fail the whole prebuild
 * ("unknown module", Config/LeanLib.lean isBuildableModule). */
static int outside_source_dir(const struct sc_plan *p, const char *path)
{
	size_t n = strlen(path);
	return p->source_dir && !sc_plan_source_rel(p, path) && in_any_area(p, path) && n > 5 &&
	       strcmp(path + n - 5, ".lean") == 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct sc_plan_file *)a)->path, ((const struct sc_plan_file *)b)->path);
}

static int select_one(struct sc_plan *p, const struct sc_rawdiff *d, size_t *alloc,
                      size_t *count, struct strbuf *err)
{
	if (outside_source_dir(p, d->path)) {
		sb_addf(err, "%s is outside profile.sourceDir '%s': no library root covers its module "
		        "(Lake would fail the prebuild with \"unknown module\")", d->path, p->source_dir);
		return -1;
	}
	if (!sc_plan_in_root_area(p, d->path))
		return 0;
	if (d->status == 'T') {
		sb_addf(err, "type change on a selected path: %s", d->path);
		return -1;
	}
	if (d->old_mode == SC_MODE_LINK || d->new_mode == SC_MODE_LINK) {
		sb_addf(err, "symlink on a selected path: %s", d->path);
		return -1;
	}
	if (d->old_mode == SC_MODE_GITLINK || d->new_mode == SC_MODE_GITLINK) {
		sb_addf(err, "submodule on a selected path: %s", d->path);
		return -1;
	}
	size_t n = strlen(d->path);
	if (n < 5 || strcmp(d->path + n - 5, ".lean") != 0)
		return 0;
	enum sc_change change;
	switch (d->status) {
	case 'A': change = SC_CHANGE_ADDED; break;
	case 'D': change = SC_CHANGE_REMOVED; break;
	case 'M': change = SC_CHANGE_MODIFIED; break;
	default:
		sb_addf(err, "unexpected diff status '%c' on %s", d->status, d->path);
		return -1;
	}
	struct strbuf module = STRBUF_INIT;
	enum sc_role role;
	if (sc_lean_module_of(sc_plan_source_rel(p, d->path), &module) < 0 ||
	    !sc_plan_classify(p, d->path, &role)) {
		sb_release(&module);
		sb_addf(err, "unsupported module name: %s", d->path);
		return -1;
	}
	(*count)++;
	if (p->n_files == sc_plan_max_files(p)) {
		sb_release(&module); /* over the limit: only counted, for the message */
		return 0;
	}
	if (p->n_files == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 8;
		p->files = xrealloc(p->files, *alloc * sizeof *p->files);
	}
	struct sc_plan_file *f = &p->files[p->n_files++];
	memset(f, 0, sizeof *f);
	f->path = xstrdup(d->path);
	f->module = sb_detach(&module, NULL);
	f->id = xstrdup(f->module);
	f->role = role;
	f->change = change;
	f->base_blob = change == SC_CHANGE_ADDED ? NULL : xstrdup(d->old_hex);
	f->head_blob = change == SC_CHANGE_REMOVED ? NULL : xstrdup(d->new_hex);
	return 0;
}

enum sc_exit sc_changes_select(struct sc_plan *p, const char *raw, size_t len, int hexsz,
                               struct strbuf *err)
{
	size_t pos = 0, alloc = p->n_files, count = p->n_files;
	struct sc_rawdiff d;
	int r;
	while ((r = sc_rawdiff_next(raw, len, &pos, hexsz, &d)) == 1)
		if (select_one(p, &d, &alloc, &count, err) < 0)
			return SC_EXIT_POLICY;
	if (r < 0) {
		sb_adds(err, "malformed git diff-tree output");
		return SC_EXIT_SYSTEM;
	}
	if (count > sc_plan_max_files(p)) {
		sb_addf(err, "%zu changed Lean files, more than %u (profile.maxFiles)", count,
		        sc_plan_max_files(p));
		return SC_EXIT_POLICY;
	}
	if (p->n_files > 1)
		qsort(p->files, p->n_files, sizeof *p->files, by_path);
	/* A crafted tree can hold one name twice; git then reports the path
	 * twice, and two samples would claim one module. */
	for (size_t i = 1; i < p->n_files; i++)
		if (strcmp(p->files[i].path, p->files[i - 1].path) == 0) {
			sb_addf(err, "a tree lists one path twice: %s", p->files[i].path);
			return SC_EXIT_POLICY;
		}
	p->no_changes = p->n_files == 0;
	return SC_EXIT_OK;
}
