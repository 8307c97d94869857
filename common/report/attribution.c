/* Lean's profile read as a stream (yajl callbacks): the tables a sum needs
 * are kept as flat number arrays, everything else is only counted, so
 * memory follows the entries kept, never the nesting or the text.  The
 * shape is Lean's (src/Lean/Util/Profiler.lean, Profile.export): meta.
 * categories[].name; threads[], each with samples.{stack,weight} (weights
 * in ms), stackTable.{frame,prefix,category} (a prefix before its stack,
 * null at a root), frameTable.func, funcTable.name and stringArray.  A
 * sample's time goes to the outermost declaration frame on its stack and
 * to its stack's category. */
#include "report/attribution.h"
#include "util/die.h"
#include "util/nameindex.h"
#include "util/spawn.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#define NONE UINT32_MAX
#define MAX_CATS 256

enum role {
	R_IGNORE, R_ROOT, R_META, R_CATS, R_CAT, R_CATNAME, R_THREADS, R_THREAD, R_SAMPLES, R_STACKT,
	R_FRAMET, R_FUNCT,
	/* the arrays kept, in the order of struct thread's tables */
	R_A_STACK, R_A_WEIGHT, R_A_FRAME, R_A_PREFIX, R_A_CAT, R_A_FUNC, R_A_NAME, R_A_STRINGS,
};
#define N_TABLES (R_A_STRINGS - R_A_STACK + 1)

struct u32s {
	uint32_t *v;
	size_t n, alloc;
};

struct thread {
	struct u32s t[N_TABLES]; /* by role; weights and strings are kept apart */
	double *weight;
	size_t n_weight, alloc_weight;
	char **strings;
	size_t n_strings, alloc_strings;
	unsigned seen; /* the tables met, one bit each: a second is refused */
};

struct reader {
	enum role stack[SC_ATTR_MAX_DEPTH + 2];
	unsigned seen[SC_ATTR_MAX_DEPTH + 2]; /* per open map: the members read */
	int depth;
	enum role key; /* a map's member about to come */
	size_t entries;
	struct thread th;
	char *cat_name[MAX_CATS];
	double cat_ms[MAX_CATS];
	size_t n_cat_names;
	int threads_seen;
	struct sc_attr *a;
	size_t alloc_decls;
	struct sc_name_index idx; /* the decls by name */
	double deadline; /* sc_monotonic_now()'s reading past which the reader gives up; 0: none */
	struct strbuf *why;
};

static int refuse(struct reader *r, const char *what)
{
	if (!r->why->len)
		sb_adds(r->why, what);
	return 0;
}

/* Every entry is counted, and now and then the clock read: a reader of
 * the candidate's bytes stops when its time is spent. */
static int count(struct reader *r)
{
	if (++r->entries > SC_ATTR_MAX_ENTRIES)
		return refuse(r, "more entries than the reader takes");
	if (r->deadline && (r->entries & 4095) == 1 && sc_monotonic_now() > r->deadline)
		return refuse(r, "the time for reading Lean's profiles was spent");
	return 1;
}

/* ---- declaration names ---- */

static int starts_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	return strncmp(s, w, n) == 0 && (s[n] == ' ' || s[n] == '\n' || s[n] == '\t' || s[n] == '\0');
}

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

/* Past a "/-" comment (nested) or an "@[...]" attribute list at S. */
static const char *skip_nested(const char *s, const char *open, const char *close)
{
	int depth = 0;
	size_t lo = strlen(open), lc = strlen(close);
	while (*s) {
		if (strncmp(s, open, lo) == 0) {
			depth++;
			s += lo;
		} else if (strncmp(s, close, lc) == 0) {
			s += lc;
			if (--depth == 0)
				return s;
		} else {
			s++;
		}
	}
	return s;
}

/* At most SC_ATTR_NAME_MAX bytes of S's first line, up to END, control
 * bytes as '?', never cut inside a UTF-8 sequence (S is valid UTF-8). */
static char *kept(const char *s, const char *end)
{
	size_t n = 0;
	while (s + n < end && s[n] && s[n] != '\n' && s[n] != '\r')
		n++;
	if (n > SC_ATTR_NAME_MAX) {
		n = SC_ATTR_NAME_MAX;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	while (n && s[n - 1] == ' ')
		n--;
	char *out = xstrndup(s, n);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return out;
}

static int ident_end(char c)
{
	return c == '\0' || c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ':' || c == '(' ||
	       c == '{' || c == '[' || c == ')';
}

/* Past the identifier at S: its «escaped» parts may hold anything but '»'. */
static const char *past_ident(const char *s)
{
	while (!ident_end(*s)) {
		if (strncmp(s, "«", 2) == 0) {
			const char *close = strstr(s + 2, "»");
			s = close ? close + 2 : s + strlen(s);
		} else {
			s++;
		}
	}
	return s;
}

/* A command's text: the name it declares, or its first line. */
static char *decl_of_text(const char *text)
{
	static const char *const mods[] = {"private", "protected", "noncomputable", "partial",
	                                   "unsafe", "nonrec", "public", "meta", NULL};
	static const char *const named[] = {"theorem", "lemma", "def", "abbrev", "opaque", "axiom",
	                                    "structure", "class", "inductive", "instance", NULL};
	const char *s = skip_space(text);
	for (int more = 1; more;) {
		more = 0;
		if (strncmp(s, "/-", 2) == 0) {
			s = skip_space(skip_nested(s, "/-", "-/"));
			more = 1;
		} else if (strncmp(s, "@[", 2) == 0) {
			s = skip_space(skip_nested(s, "[", "]"));
			more = 1;
		}
		for (int i = 0; !more && mods[i]; i++)
			if (starts_word(s, mods[i])) {
				s = skip_space(s + strlen(mods[i]));
				more = 1;
			}
	}
	const char *start = s;
	for (int i = 0; named[i]; i++) {
		if (!starts_word(s, named[i]))
			continue;
		s = skip_space(s + strlen(named[i]));
		if (i == 7 && starts_word(s, "inductive")) /* class inductive */
			s = skip_space(s + 9);
		if (i == 9 && strncmp(s, "(priority", 9) == 0)
			s = skip_space(skip_nested(s, "(", ")"));
		if (ident_end(*s))
			break; /* an anonymous instance: its first line */
		return kept(s, past_ident(s));
	}
	return kept(start, start + strlen(start));
}

char *sc_attr_decl_name(const char *frame)
{
	if (strncmp(frame, "Elab.async", 10) == 0 && (frame[10] == '\0' || frame[10] == ':')) {
		if (frame[10] == '\0')
			return kept(frame, frame + 10);
		const char *d = skip_space(frame + 11);
		static const char proof[] = "elaborating proof of ";
		if (strncmp(d, proof, sizeof proof - 1) == 0) {
			const char *s = d + sizeof proof - 1, *e = past_ident(s);
			if (e > s)
				return kept(s, e);
		}
		return kept(d, d + strlen(d));
	}
	if (strncmp(frame, "Elab.command", 12) != 0 || (frame[12] != '\0' && frame[12] != ':'))
		return NULL;
	if (frame[12] == '\0')
		return kept(frame, frame + 12);
	const char *rest = skip_space(frame + 13), *e = rest;
	/* a tag: the command's syntax kind, a dotted name before ": " or the end */
	while (*e && *e != ' ' && *e != ':' && *e != '\n')
		e++;
	if (memchr(rest, '.', (size_t)(e - rest)) && (*e == '\0' || (e[0] == ':' && e[1] == ' ')))
		return *e ? decl_of_text(e + 2) : kept(rest, e);
	return decl_of_text(rest);
}

/* ---- sums ---- */

/* The sum named NAME (taken over), made when new. */
static uint32_t decl_index(struct reader *r, char *name)
{
	struct sc_attr *a = r->a;
	struct sc_named decls = SC_NAMED(a->decls, a->n_decls, struct sc_attr_sum, name);
	sc_name_index_fit(&r->idx, a->n_decls + 1, decls);
	size_t *slot = sc_name_index_slot(&r->idx, name, decls);
	if (*slot) {
		free(name);
		return (uint32_t)(*slot - 1);
	}
	a->decls = xgrow(a->decls, a->n_decls, &r->alloc_decls, sizeof *a->decls);
	a->decls[a->n_decls].name = name;
	a->decls[a->n_decls].ms = 0;
	*slot = a->n_decls + 1;
	return (uint32_t)a->n_decls++;
}

static struct u32s *table(struct thread *t, enum role ro) { return &t->t[ro - R_A_STACK]; }

static void thread_reset(struct thread *t)
{
	for (int i = 0; i < N_TABLES; i++)
		free(t->t[i].v);
	for (size_t i = 0; i < t->n_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	free(t->weight);
	memset(t, 0, sizeof *t);
}

/* A thread's tables, checked against each other, then its samples summed. */
static int sum_thread(struct reader *r)
{
	struct thread *t = &r->th;
	if (t->seen != (1u << N_TABLES) - 1)
		return refuse(r, "a thread lacks one of Lean's tables");
	const struct u32s *stack = table(t, R_A_STACK), *frame = table(t, R_A_FRAME),
	                  *prefix = table(t, R_A_PREFIX), *cat = table(t, R_A_CAT),
	                  *func = table(t, R_A_FUNC), *name = table(t, R_A_NAME);
	if (stack->n != t->n_weight || frame->n != prefix->n || frame->n != cat->n)
		return refuse(r, "a thread's tables differ in length");
	uint32_t *decl = xcalloc(frame->n + 1, sizeof *decl);
	/* per string (never per function: any number of functions may name
	 * one long string): its declaration + 2; 1: none; 0: not read yet */
	uint32_t *of_string = xcalloc(t->n_strings + 1, sizeof *of_string);
	int ok = 1;
	for (size_t i = 0; ok && i < frame->n; i++) {
		uint32_t p = prefix->v[i], f = frame->v[i];
		if (p != NONE && p >= i) {
			ok = refuse(r, "a stack's prefix does not come before it");
		} else if (f >= func->n || func->v[f] >= name->n || name->v[func->v[f]] >= t->n_strings ||
		           cat->v[i] >= MAX_CATS) {
			ok = refuse(r, "a stack names a frame, function, string or category that is not there");
		} else if (p != NONE && decl[p] != NONE) {
			decl[i] = decl[p];
		} else {
			uint32_t str = name->v[func->v[f]];
			if (!of_string[str]) {
				char *d = sc_attr_decl_name(t->strings[str]);
				of_string[str] = d ? decl_index(r, d) + 2 : 1;
				r->a->names_read++;
			}
			decl[i] = of_string[str] == 1 ? NONE : of_string[str] - 2;
		}
	}
	for (size_t k = 0; ok && k < stack->n; k++) {
		uint32_t s = stack->v[k];
		double w = t->weight[k];
		if (s >= frame->n) {
			ok = refuse(r, "a sample names a stack that is not there");
			break;
		}
		r->a->total_ms += w;
		if (decl[s] == NONE)
			r->a->outside_ms += w;
		else
			r->a->decls[decl[s]].ms += w;
		r->cat_ms[cat->v[s]] += w;
	}
	free(decl);
	free(of_string);
	thread_reset(t);
	return ok;
}

/* ---- the stream ---- */

static enum role member_role(enum role parent, const char *k, size_t n)
{
	static const struct {
		enum role parent;
		const char *key;
		enum role child;
	} map[] = {
		{R_ROOT, "meta", R_META},         {R_ROOT, "threads", R_THREADS},
		{R_META, "categories", R_CATS},   {R_CAT, "name", R_CATNAME},
		{R_THREAD, "samples", R_SAMPLES}, {R_THREAD, "stackTable", R_STACKT},
		{R_THREAD, "frameTable", R_FRAMET}, {R_THREAD, "funcTable", R_FUNCT},
		{R_THREAD, "stringArray", R_A_STRINGS}, {R_SAMPLES, "stack", R_A_STACK},
		{R_SAMPLES, "weight", R_A_WEIGHT}, {R_STACKT, "frame", R_A_FRAME},
		{R_STACKT, "prefix", R_A_PREFIX}, {R_STACKT, "category", R_A_CAT},
		{R_FRAMET, "func", R_A_FUNC},     {R_FUNCT, "name", R_A_NAME},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (map[i].parent == parent && strlen(map[i].key) == n && memcmp(map[i].key, k, n) == 0)
			return map[i].child;
	return R_IGNORE;
}

static int is_array_role(enum role ro)
{
	return ro == R_CATS || ro == R_THREADS || ro >= R_A_STACK;
}

/* The role of a value about to be read, into *RO; -1 when it may not be
 * of KIND (0 a scalar, 1 an object, 2 an array): Lean's tables are
 * objects of arrays of scalars, categories and threads arrays of objects. */
static int value_role(struct reader *r, int kind, enum role *ro)
{
	int want;
	enum role parent = r->depth ? r->stack[r->depth - 1] : R_ROOT;
	if (!r->depth) {
		*ro = R_ROOT;
		want = 1;
	} else if (parent == R_IGNORE) {
		*ro = R_IGNORE;
		want = kind;
	} else if (is_array_role(parent)) { /* an element */
		*ro = parent == R_CATS ? R_CAT : parent == R_THREADS ? R_THREAD : parent;
		want = *ro == parent ? 0 : 1;
	} else { /* a member */
		*ro = r->key;
		want = *ro == R_IGNORE ? kind : is_array_role(*ro) ? 2 : *ro == R_CATNAME ? 0 : 1;
	}
	r->key = R_IGNORE;
	return want == kind ? 0 : -1;
}

static int open_value(struct reader *r, int kind)
{
	if (!count(r))
		return 0;
	enum role ro;
	if (value_role(r, kind, &ro) < 0)
		return refuse(r, r->depth ? "a table of Lean's profile has the wrong type"
		                          : "not a profile: the top is not an object");
	if (r->depth >= SC_ATTR_MAX_DEPTH)
		return refuse(r, "nested deeper than Lean's profile is");
	if (ro >= R_A_STACK) {
		unsigned bit = 1u << (ro - R_A_STACK);
		if (r->th.seen & bit)
			return refuse(r, "a table of a thread given twice");
		r->th.seen |= bit;
	}
	if (ro == R_THREAD)
		thread_reset(&r->th);
	if (ro == R_THREADS)
		r->threads_seen = 1;
	r->stack[r->depth] = ro;
	r->seen[r->depth] = 0;
	r->depth++;
	return 1;
}

static int on_start_map(void *ctx) { return open_value(ctx, 1); }
static int on_start_array(void *ctx) { return open_value(ctx, 2); }

static int on_end(void *ctx)
{
	struct reader *r = ctx;
	enum role ro = r->stack[--r->depth];
	return ro == R_THREAD ? sum_thread(r) : 1;
}

static int on_key(void *ctx, const unsigned char *k, size_t n)
{
	struct reader *r = ctx;
	enum role parent = r->stack[r->depth - 1];
	r->key = parent == R_IGNORE ? R_IGNORE : member_role(parent, (const char *)k, n);
	if (r->key != R_IGNORE) {
		unsigned bit = 1u << (r->key % 32);
		if (r->seen[r->depth - 1] & bit)
			return refuse(r, "a member of Lean's profile given twice");
		r->seen[r->depth - 1] |= bit;
	}
	return 1;
}

static void push_u32(struct u32s *t, uint32_t v)
{
	t->v = xgrow(t->v, t->n, &t->alloc, sizeof *t->v);
	t->v[t->n++] = v;
}

/* A scalar of KIND (0 null, 1 number, 2 string, 3 boolean), TEXT for the
 * last two. */
static int scalar(struct reader *r, int kind, const char *text, size_t n)
{
	if (!count(r))
		return 0;
	enum role ro;
	if (value_role(r, 0, &ro) < 0)
		return refuse(r, r->depth ? "a table of Lean's profile has the wrong type"
		                          : "not a profile: the top is not an object");
	if (ro == R_IGNORE)
		return 1;
	if (kind == 2 && memchr(text, '\0', n))
		return refuse(r, "a NUL byte in a string");
	if (ro == R_CATNAME) {
		if (kind != 2)
			return refuse(r, "a category's name is not a string");
		if (r->n_cat_names < MAX_CATS)
			r->cat_name[r->n_cat_names++] = kept(text, text + n);
		return 1;
	}
	if (ro == R_A_STRINGS) {
		if (kind != 2)
			return refuse(r, "stringArray holds something other than strings");
		struct thread *t = &r->th;
		t->strings = xgrow(t->strings, t->n_strings, &t->alloc_strings, sizeof *t->strings);
		t->strings[t->n_strings++] = xstrndup(text, n);
		return 1;
	}
	if (ro == R_A_WEIGHT) {
		char buf[64];
		char *end;
		if (kind != 1 || n >= sizeof buf)
			return refuse(r, "a weight is not a number");
		memcpy(buf, text, n);
		buf[n] = '\0';
		double w = strtod(buf, &end);
		if (*end || !isfinite(w) || w < 0 || w > 1e12)
			return refuse(r, "a weight is negative or out of range");
		struct thread *t = &r->th;
		t->weight = xgrow(t->weight, t->n_weight, &t->alloc_weight, sizeof *t->weight);
		t->weight[t->n_weight++] = w;
		return 1;
	}
	/* an index table */
	if (kind == 0 && ro == R_A_PREFIX) {
		push_u32(table(&r->th, ro), NONE);
		return 1;
	}
	if (kind != 1 || n == 0 || n > 9 || strspn(text, "0123456789") < n)
		return refuse(r, "an index is not a whole number below 10^9");
	uint32_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (uint32_t)(text[i] - '0');
	push_u32(table(&r->th, ro), v);
	return 1;
}

static int on_null(void *ctx) { return scalar(ctx, 0, NULL, 0); }
static int on_bool(void *ctx, int b)
{
	(void)b;
	return scalar(ctx, 3, NULL, 0);
}
static int on_number(void *ctx, const char *s, size_t n) { return scalar(ctx, 1, s, n); }
static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	return scalar(ctx, 2, (const char *)s, n);
}

static const yajl_callbacks callbacks = {
	on_null, on_bool, NULL, NULL, on_number, on_string, on_start_map, on_key, on_end,
	on_start_array, on_end,
};

static int by_ms(const void *x, const void *y)
{
	const struct sc_attr_sum *a = x, *b = y;
	if (a->ms != b->ms)
		return a->ms < b->ms ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* The categories met, named by meta.categories (Lean's names). */
static void collect_cats(struct reader *r)
{
	struct sc_attr *a = r->a;
	for (size_t i = 0; i < MAX_CATS; i++) {
		if (r->cat_ms[i] <= 0)
			continue;
		a->cats = xrealloc(a->cats, (a->n_cats + 1) * sizeof *a->cats);
		a->cats[a->n_cats].name = i < r->n_cat_names ? xstrdup(r->cat_name[i])
		                                             : xasprintf("category %zu", i);
		a->cats[a->n_cats++].ms = r->cat_ms[i];
	}
	if (a->n_cats)
		qsort(a->cats, a->n_cats, sizeof *a->cats, by_ms);
}

int sc_attr_parse(const char *buf, size_t len, double deadline, struct sc_attr *a,
                  struct strbuf *why)
{
	memset(a, 0, sizeof *a);
	if (len > SC_ATTR_MAX_BYTES) {
		sb_addf(why, "larger than %u MiB", SC_ATTR_MAX_BYTES >> 20);
		return -1;
	}
	struct reader r = {.a = a, .deadline = deadline, .why = why};
	yajl_handle h = yajl_alloc(&callbacks, NULL, &r);
	if (!h)
		sc_die_sys("out of memory (yajl)");
	yajl_status st = yajl_parse(h, (const unsigned char *)buf, len);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(h);
	if (st != yajl_status_ok && !why->len)
		sb_adds(why, "not JSON");
	yajl_free(h);
	if (st == yajl_status_ok && !r.threads_seen)
		sb_adds(why, "no threads");
	thread_reset(&r.th);
	sc_name_index_free(&r.idx);
	if (!why->len)
		collect_cats(&r);
	for (size_t i = 0; i < r.n_cat_names; i++)
		free(r.cat_name[i]);
	if (why->len) {
		sc_attr_free(a);
		return -1;
	}
	if (a->n_decls)
		qsort(a->decls, a->n_decls, sizeof *a->decls, by_ms);
	return 0;
}

void sc_attr_free(struct sc_attr *a)
{
	for (size_t i = 0; i < a->n_decls; i++)
		free(a->decls[i].name);
	for (size_t i = 0; i < a->n_cats; i++)
		free(a->cats[i].name);
	free(a->decls);
	free(a->cats);
	memset(a, 0, sizeof *a);
}
