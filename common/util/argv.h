#ifndef SC_ARGV_H
#define SC_ARGV_H
#include <stddef.h>

/* A growable NULL-terminated argv. */
struct sc_argv {
	const char **v;
	size_t n, alloc;
	char **owned;
	size_t n_owned;
};
#define SC_ARGV_INIT { NULL, 0, 0, NULL, 0 }
void sc_argv_push(struct sc_argv *a, const char *s);
/* Push a string that the argv owns (freed by sc_argv_release). */
void sc_argv_push_owned(struct sc_argv *a, char *s);
void sc_argv_release(struct sc_argv *a);

#endif
