#include "sandbox/sandbox_opts.h"
#include "sandbox/bounds.h"
#include "sandbox/user.h"

int sc_sandbox_opt_user(void *target, const char *arg, struct strbuf *why)
{
	struct sc_sandbox_opts *so = target;
	if (sc_sandbox_user(arg, &so->uid, &so->gid, why) < 0)
		return -1;
	so->user_given = 1;
	return 0;
}

/* A bound's parser answered RC with what its value WANTS: WHY names the
 * bound, *GIVEN keeps ARG when it passed. */
static int bound(int rc, const char *what, struct strbuf *wants, const char *arg,
                 const char **given, struct strbuf *why)
{
	if (rc < 0)
		sb_addf(why, "%s %s", what, wants->buf);
	else
		*given = arg;
	sb_release(wants);
	return rc;
}

int sc_sandbox_opt_tmp_size(void *target, const char *arg, struct strbuf *why)
{
	struct sc_sandbox_opts *so = target;
	struct strbuf wants = STRBUF_INIT;
	return bound(sc_sandbox_tmp_size(arg, &so->tmp_bytes, &wants), "the size of the sandbox's /tmp",
	             &wants, arg, &so->tmp_size, why);
}

int sc_sandbox_opt_max_procs(void *target, const char *arg, struct strbuf *why)
{
	struct sc_sandbox_opts *so = target;
	struct strbuf wants = STRBUF_INIT;
	return bound(sc_sandbox_max_procs(arg, &so->max_procs_n, &wants),
	             "the sandbox's process bound", &wants, arg, &so->max_procs, why);
}

int sc_sandbox_opts_finish(struct sc_sandbox_opts *so, struct strbuf *why)
{
	return so->user_given ? 0 : sc_sandbox_user(NULL, &so->uid, &so->gid, why);
}
