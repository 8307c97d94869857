#include "plan/materialize.h"
#include "plan/revs.h"
#include "git/treelookup.h"
#include "plan/planner.h"
#include "util/die.h"
#include "util/json.h"
#include "util/pathcheck.h"
#include "util/safepath.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *sc_dest_new_dir(const char *dest, struct strbuf *why)
{
	char *canon = sc_canonical_new_file(dest);
	if (canon)
		return canon;
	if (errno == EEXIST)
		sb_addf(why, "destination already exists (--dest %s)", dest);
	else if (errno == EINVAL)
		sb_addf(why, "destination must end in a new directory name (--dest %s)", dest);
	else
		sb_addf(why, "parent directory does not exist (--dest %s)", dest);
	return NULL;
}

int sc_dest_outside_git_dir(const char *canon_dest, const char *git_dir, const char *dest,
                            struct strbuf *why)
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
	sb_addf(why, "destination is inside the repository's git directory (--dest %s)", dest);
	return SC_EXIT_USAGE;
}

int sc_materialize_commit(struct sc_catfile *c, const char *commit, int hexsz,
                          char tree[SC_MAX_HEXSZ + 1], struct strbuf *why)
{
	char type[16] = "";
	int code = sc_commit_verdict(sc_commit_read(c, commit, hexsz, type, tree), type, commit, why);
	if (code != SC_EXIT_OK)
		sb_adds(why, " (--commit)");
	return code;
}

int sc_plan_allows_commit(const struct sc_plan *p, const char *object_format,
                          const char *commit, const char *given, const char *plan_path,
                          struct strbuf *why)
{
	if (strcmp(p->object_format, object_format) != 0)
		sb_addf(why, "plan is for %s objects, repository uses %s (%s)", p->object_format,
		        object_format, plan_path);
	else if (strcmp(commit, p->merge_base) != 0 && strcmp(commit, p->head) != 0)
		sb_addf(why, "commit is neither the plan's merge_base nor its head (--commit %s)", given);
	else
		return SC_EXIT_OK;
	return SC_EXIT_USAGE;
}

void sc_skipped_release(struct sc_skipped_list *sk)
{
	for (size_t i = 0; i < sk->n; i++)
		free(sk->v[i].path);
	free(sk->v);
	sk->v = NULL;
	sk->n = 0;
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
	sk->v = NULL, sk->n = 0;
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
		sk->v = xrealloc(sk->v, (sk->n + 1) * sizeof *sk->v);
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
