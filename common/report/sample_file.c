#include "report/sample_file.h"
#include "util/die.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Any readable file, pipes and /dev/stdin included: no regular-file test. */
void sc_sample_file_read_or_die(const char *path, struct strbuf *sb)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		sc_die_path_errno("cannot read samples (%s)", path);
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		sc_die("cannot read samples: is a directory (%s)", path);
	for (;;) {
		sb_grow(sb, 65536);
		ssize_t n = read(fd, sb->buf + sb->len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			sc_die_sys_errno("cannot read samples (%s)", path);
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		if (sb->len > SC_SAMPLES_MAX_BYTES)
			sc_die("samples file larger than %u MiB (%s)", SC_SAMPLES_MAX_BYTES >> 20, path);
	}
	if (fd != STDIN_FILENO)
		close(fd);
}

const char *sc_sample_file_source_name(const char *path, const char *out_dir)
{
	if (strcmp(path, "-") == 0)
		return "stdin";
	size_t n = strlen(out_dir);
	while (n > 1 && out_dir[n - 1] == '/')
		n--;
	if (strncmp(path, out_dir, n) == 0 && path[n] == '/' && path[n + 1])
		return path + n + 1;
	return path;
}

static struct sc_sample_in *next_slot(struct sc_sample_set *set)
{
	if (set->n == set->alloc) {
		set->alloc = set->alloc ? 2 * set->alloc : 16;
		set->v = xrealloc(set->v, set->alloc * sizeof *set->v);
	}
	return &set->v[set->n];
}

int sc_sample_file_parse(const char *name, const char *buf, size_t len, struct sc_sample_set *set,
                     struct strbuf *err)
{
	size_t lineno = 0;
	struct strbuf why = STRBUF_INIT;
	for (const char *p = buf, *end = buf + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		lineno++;
		if (n) {
			struct sc_sample_in *s = next_slot(set);
			if (sc_sample_from_json(p, n, &s->s, &why) < 0) {
				sb_addf(err, "invalid sample: %s (%s:%zu)", why.buf, name, lineno);
				sb_release(&why);
				return -1;
			}
			s->source = xasprintf("%s:%zu", name, lineno);
			set->n++;
		}
		p += n + 1;
	}
	sb_release(&why);
	return 0;
}

void sc_sample_set_load_or_die(struct sc_sample_set *set, const char *const *paths, size_t n,
                               const char *out_dir)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		sc_sample_file_read_or_die(paths[i], &sb);
		if (sc_sample_file_parse(sc_sample_file_source_name(paths[i], out_dir), sb.buf, sb.len, set,
		                     &err) < 0)
			sc_die("%s", err.buf);
		sb_reset(&sb);
	}
	sb_release(&sb);
	sb_release(&err);
}

void sc_sample_set_free(struct sc_sample_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		sc_sample_free(&set->v[i].s);
		free(set->v[i].source);
	}
	free(set->v);
	memset(set, 0, sizeof *set);
}
