#include "report/report_args.h"
#include "util/die.h"
#include "util/milli.h"
#include "report/mdescape.h"
#include "util/oid.h"
#include "contract/sample.h"
#include "contract/sandboxuser.h"
#include "report/sample_file.h"
#include "util/safepath.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

int sc_is_uid_gid(const char *s)
{
	unsigned uid, gid;
	return sc_uid_gid_parse(s, &uid, &gid) == 0;
}

static int threshold(const char *v, const char *name, long long max, long long *out,
                     struct strbuf *err)
{
	if (!v)
		return 0;
	if (sc_parse_milli(v, SC_MAX_MS, out) < 0) {
		sb_addf(err, "%s wants a decimal number with at most 3 decimals (%s)", name, v);
		return -1;
	}
	if (*out > max) {
		struct strbuf m = STRBUF_INIT;
		sc_format_milli(max, &m);
		sb_addf(err, "%s must be at most %s (%s)", name, m.buf, v);
		sb_release(&m);
		return -1;
	}
	return 0;
}

/* The environment block's facts: one printable line each, as recorded. */
static int check_env(const struct sc_report_args *a, const struct sc_report_arg_names *n,
                     struct strbuf *err)
{
	if (a->lean_sha256 && !sc_is_lower_hex(a->lean_sha256, 64))
		sb_addf(err, "%s is not a SHA-256 hex digest (%s)", n->lean_sha256, a->lean_sha256);
	else if (a->lake_sha256 && !sc_is_lower_hex(a->lake_sha256, 64))
		sb_addf(err, "%s is not a SHA-256 hex digest (%s)", n->lake_sha256, a->lake_sha256);
	else if (a->bwrap_sha256 && !sc_is_lower_hex(a->bwrap_sha256, 64))
		sb_addf(err, "%s is not a SHA-256 hex digest (%s)", n->bwrap_sha256, a->bwrap_sha256);
	else if (a->lean_version && (!*a->lean_version || strlen(a->lean_version) > 512 ||
	                             !sc_is_printable_utf8(a->lean_version)))
		sb_addf(err, "%s must be one printable UTF-8 line (argv)", n->lean_version);
	else if (a->sandbox_user && !sc_is_uid_gid(a->sandbox_user))
		sb_addf(err, "%s is not UID:GID in decimal (%s)", n->sandbox_user, a->sandbox_user);
	else
		return 0;
	return -1;
}

/* An http(s) origin with an optional path: letters, digits, '.', '-', '_',
 * '~' and '/' only (nothing that could end a markdown link or carry a
 * query), no trailing '/', at most 256 bytes. */
static int is_server_url(const char *s)
{
	const char *p = s;
	if (strncmp(p, "https://", 8) == 0)
		p += 8;
	else if (strncmp(p, "http://", 7) == 0)
		p += 7;
	else
		return 0;
	if (!*p || *p == '/' || strlen(s) > 256 || s[strlen(s) - 1] == '/')
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr(".-_~/:", *p)) || (p[0] == '/' && p[1] == '/'))
			return 0;
	return 1;
}

/* A GitHub run ID: a decimal of 1 to 20 digits, no leading zero. */
static int is_run_id(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 20 || s[0] == '0')
		return 0;
	return strspn(s, "0123456789") == n;
}

int sc_report_links_check(const char *server_url, const char *ci_repository,
                          const char *ci_run_id, const char *const names[3],
                          struct strbuf *err)
{
	if (server_url && !is_server_url(server_url))
		sb_addf(err, "%s is not an http(s) URL without a trailing slash, query or odd "
		             "characters (%s)", names[0], server_url);
	else if (ci_repository && !sc_is_github_slug(ci_repository))
		sb_addf(err, "%s is not OWNER/NAME (%s)", names[1], ci_repository);
	else if (ci_run_id && !is_run_id(ci_run_id))
		sb_addf(err, "%s is not a run ID in decimal (%s)", names[2], ci_run_id);
	else if (!ci_repository != !ci_run_id)
		sb_addf(err, "%s and %s go together (%s)", names[1], names[2],
		        ci_repository ? names[1] : names[2]);
	else
		return 0;
	return -1;
}

/* Standard input can be read once: "-" at most once among the files.  A
 * file's name is in report.json, which holds only UTF-8. */
static int check_samples(const struct sc_argv *samples, const char *out_dir, const char *flag,
                         struct strbuf *err)
{
	size_t stdin_uses = 0;
	for (size_t i = 0; i < samples->n; i++) {
		const char *name = sc_sample_file_source_name(samples->v[i], out_dir);
		if (!sc_is_utf8(name, strlen(name))) {
			sb_addf(err, "%s names a file whose name is not UTF-8 (argv)", flag);
			return -1;
		}
		stdin_uses += strcmp(samples->v[i], "-") == 0;
	}
	if (stdin_uses <= 1)
		return 0;
	sb_addf(err, "%s names stdin ('-') more than once (argv)", flag);
	return -1;
}

static int check_out_dir(const char *dir, struct strbuf *err)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		sb_addf(err, "cannot use output directory: %s (%s)", sc_errno_text(errno), dir);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		sb_addf(err, "output directory is not a directory (%s)", dir);
		return -1;
	}
	return 0;
}

int sc_report_thresholds_check(const char *ratio, const char *delta, const char *added,
                               const char *const names[3], struct sc_thresholds *th,
                               struct strbuf *err)
{
	sc_thresholds_default(th);
	if (threshold(ratio, names[0], SC_MAX_RATIO_MILLI, &th->ratio_milli, err) < 0 ||
	    threshold(delta, names[1], SC_MAX_MS, &th->delta_ms, err) < 0 ||
	    threshold(added, names[2], SC_MAX_MS, &th->added_ms, err) < 0)
		return -1;
	return 0;
}

int sc_report_args_check(const struct sc_report_args *a, const struct sc_report_arg_names *n,
                         struct sc_thresholds *th, struct strbuf *err)
{
	if (sc_report_thresholds_check(a->ratio, a->delta, a->added, n->thresholds, th, err) < 0)
		return -1;
	if (a->run_id && !sc_is_lower_hex(a->run_id, SC_RUN_ID_HEXSZ)) {
		sb_addf(err, "%s is not a run ID of %d lowercase hex digits (%s)", n->run_id,
		        SC_RUN_ID_HEXSZ, a->run_id);
		return -1;
	}
	if (check_env(a, n, err) < 0 ||
	    sc_report_links_check(a->server_url, a->ci_repository, a->ci_run_id, n->links, err) < 0 ||
	    check_samples(&a->samples, a->out_dir, n->samples, err) < 0)
		return -1;
	return check_out_dir(a->out_dir, err);
}

int sc_report_env_init(struct sc_report_env *env, const struct sc_report_args *a,
                       struct strbuf *err)
{
	memset(env, 0, sizeof *env);
	struct utsname un;
	if (uname(&un) < 0) {
		sb_addf(err, "cannot read the platform: %s (uname)", sc_errno_text(errno));
		return -1;
	}
	if (!sc_is_printable_utf8(un.sysname) || !sc_is_printable_utf8(un.release) ||
	    !sc_is_printable_utf8(un.machine)) {
		sb_adds(err, "uname reports unprintable text (uname)");
		return -1;
	}
	env->platform = xasprintf("%s %s", un.sysname, un.release);
	env->machine = xstrdup(un.machine);
	env->sandbox_user = a->sandbox_user;
	env->lean_version = a->lean_version;
	env->lean_sha256 = a->lean_sha256;
	env->lake_sha256 = a->lake_sha256;
	env->server_url = a->server_url ? a->server_url : SC_DEFAULT_SERVER_URL;
	env->ci_repository = a->ci_repository;
	env->ci_run_id = a->ci_run_id;
	env->lake_cache = a->lake_cache;
	env->bwrap_sha256 = a->bwrap_sha256;
	return 0;
}

void sc_report_env_release(struct sc_report_env *env)
{
	free(env->platform);
	free(env->machine);
	memset(env, 0, sizeof *env);
}
