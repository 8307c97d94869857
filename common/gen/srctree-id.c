/* Build-time helper (not installed): print a C header with the Git tree ID
 * of the profiler's own sources, in SHA-1 and SHA-256 form, so that sc-plan
 * can compare it with T:<profile.tooling>.  Run from the source root.
 *
 * The file set is what "git ls-files" lists (tracked files; their content is
 * taken from the working tree, so an edited source changes the ID at once);
 * outside a Git checkout, or when git lists nothing (sources unpacked inside
 * an unrelated work tree), it is every file below ".".  Either way only the
 * profiler's own top-level entries count (srctree.h): a debian/ folder, the
 * build folders and .git change nothing.  Tracked files deleted from the
 * working tree are left out, as "git add -A" would. */
#include "util/die.h"
#include "git/git.h"
#include "git/gittree.h"
#include "util/safefile.h"
#include "git/srctree.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct files {
	struct sc_srcfile *v;
	struct strbuf *data;
	size_t n, alloc;
};

static void add_file(struct files *fs, const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return;
		sc_die_path_errno("cannot stat source (%s)", path);
	}
	if (S_ISDIR(st.st_mode))
		sc_die("source is a directory (a submodule?) (%s)", path);
	if (fs->n == fs->alloc) {
		fs->alloc = fs->alloc ? 2 * fs->alloc : 64;
		fs->v = xrealloc(fs->v, fs->alloc * sizeof *fs->v);
		fs->data = xrealloc(fs->data, fs->alloc * sizeof *fs->data);
	}
	struct strbuf *sb = &fs->data[fs->n];
	*sb = (struct strbuf)STRBUF_INIT;
	unsigned mode;
	if (S_ISLNK(st.st_mode)) {
		sb_grow(sb, (size_t)st.st_size + 1);
		ssize_t k = readlink(path, sb->buf, sb->alloc);
		if (k < 0 || (size_t)k >= sb->alloc)
			sc_die_path_errno("cannot read link (%s)", path);
		sb->len = (size_t)k;
		mode = 0120000u;
	} else if (S_ISREG(st.st_mode)) {
		if (sc_read_file(path, sb, (size_t)1 << 30) < 0)
			sc_die_path_errno("cannot read source (%s)", path);
		mode = (st.st_mode & S_IXUSR) ? 0100755u : 0100644u;
	} else {
		sc_die("source is not a file or link (%s)", path);
	}
	fs->v[fs->n] = (struct sc_srcfile){xstrdup(path), mode, sb->buf, sb->len};
	fs->n++;
}

static void walk(struct files *fs, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		sc_die_path_errno("cannot list sources (%s)", dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *nm = e->d_name;
		if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0 ||
		    (strcmp(dir, ".") == 0 && !sc_srctree_is_own(nm)))
			continue;
		char *path = strcmp(dir, ".") == 0 ? xstrdup(nm) : xasprintf("%s/%s", dir, nm);
		struct stat st;
		if (lstat(path, &st) < 0)
			sc_die_path_errno("cannot stat source (%s)", path);
		if (S_ISDIR(st.st_mode))
			walk(fs, path);
		else
			add_file(fs, path);
		free(path);
	}
	closedir(d);
}

/* The commit these sources are, when the build is exactly one: the source
 * folder is the top of its own Git work tree and HEAD's tree, counted as
 * srctree.h counts (what a pinned CI build is checked against, sc-plan
 * --profiler-commit), is the tree just computed from the files, and no
 * untracked file (not ignored) is ours: make compiles every cmd/ and
 * common/ source it finds.  Anything else (an edit, an untracked source, a
 * copy inside another repository) leaves it empty: no commit's build. */
static void build_commit(const char *sha1, const char *sha256, char commit[65])
{
	struct strbuf prefix = STRBUF_INIT, head = STRBUF_INIT, fmt = STRBUF_INIT, tree = STRBUF_INIT,
	              extra = STRBUF_INIT;
	int untracked = 0;
	if (sc_git_run(NULL, &extra, 0, "ls-files", "-z", "--others", "--exclude-standard", NULL) == 0)
		for (size_t i = 0; i < extra.len; i += strlen(extra.buf + i) + 1)
			untracked |= sc_srctree_is_own(extra.buf + i);
	else
		untracked = 1;
	if (!untracked && sc_git_run(NULL, &prefix, 0, "rev-parse", "--show-prefix", NULL) == 0 &&
	    prefix.len == 1 &&
	    sc_git_run(NULL, &head, 0, "rev-parse", "--verify", "-q", "HEAD^{commit}", NULL) == 0 &&
	    sc_git_run(NULL, &fmt, 0, "rev-parse", "--show-object-format", NULL) == 0 &&
	    sc_git_run(NULL, &tree, 0, "cat-file", "tree", "HEAD^{tree}", NULL) == 0) {
		sb_chomp(&head);
		sb_chomp(&fmt);
		int sha256_repo = strcmp(fmt.buf, "sha256") == 0;
		char own[65];
		if (sc_srctree_own_id(tree.buf, tree.len, sha256_repo ? SC_HASH_SHA256 : SC_HASH_SHA1,
		                      own) == 0 &&
		    strcmp(own, sha256_repo ? sha256 : sha1) == 0 && head.len < 65)
			memcpy(commit, head.buf, head.len + 1);
	}
	sb_release(&extra);
	sb_release(&prefix);
	sb_release(&head);
	sb_release(&fmt);
	sb_release(&tree);
}

int main(int argc, char **argv)
{
	sc_set_progname("srctree-id");
	(void)argc;
	(void)argv;
	struct files fs = {0};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *origin = "git ls-files";
	if (sc_git_run(NULL, &out, 0, "ls-files", "-z", NULL) == 0 && out.len) {
		for (size_t i = 0; i < out.len; i += strlen(out.buf + i) + 1)
			if (sc_srctree_is_own(out.buf + i))
				add_file(&fs, out.buf + i);
	} else {
		origin = "directory walk";
		walk(&fs, ".");
	}
	char sha1[65], sha256[65], commit[65] = "";
	if (sc_gittree_hex(fs.v, fs.n, SC_HASH_SHA1, sha1, &err) < 0 ||
	    sc_gittree_hex(fs.v, fs.n, SC_HASH_SHA256, sha256, &err) < 0)
		sc_die("%s (source tree)", err.buf);
	if (strcmp(origin, "git ls-files") == 0)
		build_commit(sha1, sha256, commit);
	printf("/* Generated by common/gen/srctree-id.c from %zu files (%s). */\n"
	       "#define SC_SRCTREE_SHA1 \"%s\"\n#define SC_SRCTREE_SHA256 \"%s\"\n"
	       "#define SC_BUILD_COMMIT \"%s\"\n",
	       fs.n, origin, sha1, sha256, commit);
	if (fflush(stdout) != 0 || ferror(stdout))
		sc_die_sys_errno("cannot write header (stdout)");
	for (size_t i = 0; i < fs.n; i++) {
		free((char *)fs.v[i].path);
		sb_release(&fs.data[i]);
	}
	free(fs.v);
	free(fs.data);
	sb_release(&out);
	return 0;
}
