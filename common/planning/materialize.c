#include "planning/materialize.h"
#include "planning/revs.h"
#include "git/treelookup.h"
#include "planning/planner.h"
#include "util/die.h"
#include "util/json.h"
#include "util/oid.h"
#include "util/sha256.h"
#include "util/pathcheck.h"
#include "util/rmtree.h"
#include "util/safepath.h"
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

char *sc_dest_new_dir(const char *dest, struct strbuf *why)
{
	char *canon = sc_canonical_new_file(dest);
	if (canon)
		return canon;
	if (errno == EEXIST)
		sb_adds(why, "destination already exists");
	else if (errno == EINVAL)
		sb_adds(why, "destination must end in a new directory name");
	else
		sb_adds(why, "parent directory does not exist");
	return NULL;
}

int sc_dest_outside_git_dir(const char *canon_dest, const char *git_dir, struct strbuf *why)
{
	char *gd = sc_canonical_dir(git_dir);
	if (!gd) { /* git named it a moment ago */
		sb_addf(why, "cannot resolve git directory: %s (%s)", sc_errno_text(errno), git_dir);
		return SC_EXIT_SYSTEM;
	}
	int inside = sc_path_within(canon_dest, gd);
	free(gd);
	if (!inside)
		return SC_EXIT_OK;
	sb_adds(why, "destination is inside the repository's git directory");
	return SC_EXIT_USAGE;
}

int sc_materialize_commit(struct sc_catfile *c, const char *commit, int hexsz,
                          char tree[SC_MAX_HEXSZ + 1], struct strbuf *why)
{
	char type[16] = "";
	return sc_commit_verdict(sc_commit_read(c, commit, hexsz, type, tree), type, commit, why);
}

int sc_plan_for_format(const struct sc_plan *p, const char *object_format, struct strbuf *why)
{
	if (strcmp(p->object_format, object_format) == 0)
		return SC_EXIT_OK;
	sb_addf(why, "plan is for %s objects, repository uses %s", p->object_format, object_format);
	return SC_EXIT_USAGE;
}

int sc_plan_has_side(const struct sc_plan *p, const char *commit, struct strbuf *why)
{
	if (strcmp(commit, p->merge_base) == 0 || strcmp(commit, p->head) == 0)
		return SC_EXIT_OK;
	sb_adds(why, "commit is neither the plan's merge_base nor its head");
	return SC_EXIT_USAGE;
}

void sc_skipped_release(struct sc_skipped_list *sk)
{
	for (size_t i = 0; i < sk->n; i++)
		free(sk->v[i].path);
	free(sk->v);
	sk->v = NULL;
	sk->n = 0, sk->alloc = 0;
}

/* Why the link or submodule at path (quoted q) may not be skipped, or 0. */
static int refused(unsigned mode, const struct strbuf *path, const struct sc_plan *plan,
                   struct strbuf *why)
{
	const char *what = mode == SC_MODE_LINK ? "symbolic link" : "submodule";
	struct strbuf q = STRBUF_INIT;
	sc_quote_path(&q, path->buf, path->len);
	char *rule = plan ? sc_plan_needs_sources(plan, path->buf) : NULL;
	if (rule)
		sb_addf(why, "%s %s (%s)", what, rule, q.buf);
	else if (!sc_is_utf8(path->buf, path->len))
		sb_addf(why, "%s with a name that is not UTF-8 (%s)", what, q.buf);
	free(rule);
	sb_release(&q);
	return why->len != 0;
}

int sc_links_decide(const struct sc_tree *t, const struct sc_plan *plan,
                    struct sc_skipped_list *sk, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT;
	sk->v = NULL, sk->n = 0, sk->alloc = 0;
	for (size_t i = 0; i + 1 < t->n; i++) {
		size_t k = t->order[i];
		unsigned mode = t->nodes[k].mode;
		if (mode != SC_MODE_LINK && mode != SC_MODE_GITLINK)
			continue;
		sb_reset(&path);
		sc_tree_path(t, k, &path);
		if (refused(mode, &path, plan, why)) {
			sb_release(&path);
			sc_skipped_release(sk);
			return SC_EXIT_USAGE;
		}
		sk->v = xgrow(sk->v, sk->n, &sk->alloc, sizeof *sk->v);
		sk->v[sk->n].path = sb_detach(&path, NULL);
		sk->v[sk->n].mode = mode;
		sk->n++;
	}
	sb_release(&path);
	return SC_EXIT_OK;
}

void sc_materialize_summary(const char *object_format, const char *commit, const char *tree,
                            const struct sc_write_stats *st, const struct sc_skipped_list *sk,
                            struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(1);
	sc_json_map_open(g);
	sc_json_kv_str(g, "schema", SC_MATERIALIZE_SCHEMA);
	sc_json_kv_str(g, "object_format", object_format);
	sc_json_kv_str(g, "commit", commit);
	sc_json_kv_str(g, "tree", tree);
	sc_json_kv_int(g, "files", (long long)st->files);
	sc_json_kv_int(g, "directories", (long long)st->dirs);
	sc_json_kv_int(g, "bytes", (long long)st->bytes);
	sc_json_kv_array_open(g, "skipped");
	for (size_t i = 0; i < sk->n; i++) {
		char mode[16];
		snprintf(mode, sizeof mode, "%06o", sk->v[i].mode);
		sc_json_map_open(g);
		sc_json_kv_str(g, "path", sk->v[i].path);
		sc_json_kv_str(g, "mode", mode);
		sc_json_kv_str(g, "reason", sk->v[i].mode == SC_MODE_LINK ? "symlink" : "submodule");
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	sc_json_map_close(g);
	sc_json_finish(g, out);
}

/* What a failed or dying program removes at exit: the temporary tree,
 * then the destination itself until sc_placement_keep.  A tree stands
 * under its name only after that; a kill leaves at most the temporary,
 * whose name says it is not finished.  One placement per process. */
static struct {
	int parentfd;
	const char *name;
} undo = {-1, NULL};

static void undo_at_exit(void)
{
	if (undo.name)
		(void)sc_remove_tree_at(undo.parentfd, undo.name, SC_TREE_MAX_DEPTH + 1);
}

/* The temporary beside the destination: ".NAME.tmp-" and 12 random hex
 * digits, NAME cut so that the whole stays a file name. */
static char *make_temporary(int parentfd, const char *name, const char *where)
{
	for (int attempt = 0; attempt < 16; attempt++) {
		unsigned char raw[6];
		if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
			sc_die_sys_errno("cannot draw a temporary name (getrandom)");
		char hex[2 * sizeof raw + 1];
		sc_hex(raw, sizeof raw, hex);
		char *tmp = xasprintf(".%.200s.tmp-%s", name, hex);
		if (mkdirat(parentfd, tmp, 0777) == 0)
			return tmp;
		if (errno != EEXIST)
			sc_die_path_errno("cannot create the temporary tree beside the destination (%s)", where);
		free(tmp);
	}
	sc_die_sys("cannot create the temporary tree: every name drawn was taken (%s)", where);
}

int sc_placement_begin(struct sc_placement *pl, const char *canon, const char *where)
{
	char *slash = strrchr(canon, '/');
	pl->name = slash + 1;
	pl->parent = slash == canon ? xstrdup("/") : xstrndup(canon, (size_t)(slash - canon));
	pl->parentfd = open(pl->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pl->parentfd < 0)
		sc_die_path_errno("cannot open the destination's parent (%s)", where);
	pl->tmp = make_temporary(pl->parentfd, pl->name, where);
	undo.parentfd = pl->parentfd, undo.name = pl->tmp;
	atexit(undo_at_exit);
	int rootfd = openat(pl->parentfd, pl->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rootfd < 0)
		sc_die_sys_errno("cannot open the temporary tree (%s)", where);
	return rootfd;
}

/* The destination comes to exist whole or not at all; one that appeared
 * meanwhile is never replaced (an empty folder would be, by a plain
 * rename). */
void sc_placement_commit(struct sc_placement *pl, const char *where)
{
	int rc = renameat2(pl->parentfd, pl->tmp, pl->parentfd, pl->name, RENAME_NOREPLACE);
	if (rc < 0 && errno == EINVAL) { /* a file system without NOREPLACE */
		struct stat st;
		if (fstatat(pl->parentfd, pl->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			errno = EEXIST;
		else
			rc = renameat(pl->parentfd, pl->tmp, pl->parentfd, pl->name);
	}
	if (rc < 0 && (errno == EEXIST || errno == ENOTEMPTY))
		sc_die("destination appeared while writing (%s)", where);
	if (rc < 0)
		sc_die_sys_errno("cannot move the tree into place (%s)", where);
	undo.name = pl->name;
}

void sc_placement_keep(struct sc_placement *pl)
{
	(void)pl;
	undo.name = NULL;
}

void sc_placement_release(struct sc_placement *pl)
{
	close(pl->parentfd);
	free(pl->tmp);
	free(pl->parent);
}
