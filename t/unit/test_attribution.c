/* common/report/attribution: Lean's profile (src/Lean/Util/Profiler.lean,
 * Profile.export) summed per declaration and per category, and every file
 * that is not such a profile refused with a reason. */
#include "unit_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/attribution.h"
#include "util/json.h"

/* One thread as Profile.export writes it: frames (a function each, its
 * name a string), stacks (frame, prefix, category), samples. */
struct stack_row {
	const char *frame;
	long prefix; /* -1: a root */
	int category;
};
struct sample_row {
	int stack;
	double ms;
};

static void gen_u32_array(yajl_gen g, const char *key, const long *v, size_t n)
{
	sc_json_kv_array_open(g, key);
	for (size_t i = 0; i < n; i++)
		if (v[i] < 0)
			sc_json_null(g);
		else
			sc_json_int(g, v[i]);
	sc_json_array_close(g);
}

static void gen_thread(yajl_gen g, const char *name, const struct stack_row *st, size_t n_st,
                       const struct sample_row *sa, size_t n_sa)
{
	long frame[16], prefix[16], cat[16], stack[16], idx[16];
	sc_json_map_open(g);
	sc_json_kv_str(g, "name", name);
	sc_json_kv_bool(g, "isMainThread", 1);
	sc_json_kv_map_open(g, "samples");
	for (size_t i = 0; i < n_sa; i++)
		stack[i] = sa[i].stack;
	gen_u32_array(g, "stack", stack, n_sa);
	sc_json_kv_array_open(g, "weight");
	for (size_t i = 0; i < n_sa; i++)
		sc_json_fixed(g, sa[i].ms, 3);
	sc_json_array_close(g);
	sc_json_kv_str(g, "weightType", "tracing-ms");
	sc_json_kv_int(g, "length", (long long)n_sa);
	sc_json_map_close(g);
	for (size_t i = 0; i < n_st; i++) {
		frame[i] = idx[i] = (long)i; /* a frame, a function, a string each */
		prefix[i] = st[i].prefix;
		cat[i] = st[i].category;
	}
	sc_json_kv_map_open(g, "stackTable");
	gen_u32_array(g, "frame", frame, n_st);
	gen_u32_array(g, "category", cat, n_st);
	gen_u32_array(g, "prefix", prefix, n_st);
	sc_json_map_close(g);
	sc_json_kv_map_open(g, "frameTable");
	gen_u32_array(g, "func", idx, n_st);
	sc_json_map_close(g);
	sc_json_kv_array_open(g, "stringArray");
	for (size_t i = 0; i < n_st; i++)
		sc_json_str(g, st[i].frame);
	sc_json_array_close(g);
	sc_json_kv_map_open(g, "funcTable");
	gen_u32_array(g, "name", idx, n_st);
	sc_json_map_close(g);
	sc_json_map_close(g);
}

static const char *const lean_categories[] = {"Other", "Elab.async", "Elab.block", "Elab",
                                               "Meta", "Kernel", NULL};

static void gen_meta(yajl_gen g)
{
	sc_json_kv_map_open(g, "meta");
	sc_json_kv_fixed(g, "startTime", 1.5, 3);
	sc_json_kv_array_open(g, "categories");
	for (const char *const *c = lean_categories; *c; c++) {
		sc_json_map_open(g);
		sc_json_kv_str(g, "name", *c);
		sc_json_kv_str(g, "color", "gray");
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	sc_json_map_close(g);
}

static const struct stack_row main_stacks[] = {
	{"runFrontend", -1, 0},
	{"Elab.command: Lean.Parser.Command.theorem: /-- doc -/\n@[simp] private theorem foo : "
	 "True := by\n  trivial", 0, 3},
	{"Meta.synthInstance: Decidable True", 1, 4},
	{"Elab.command: Lean.Parser.Command.definition: def bar := 1", 0, 3},
};
static const struct sample_row main_samples[] = {{2, 30}, {1, 10}, {3, 5}, {0, 2}, {0, 0}};
static const struct stack_row async_stacks[] = {{"Elab.async: elaborating proof of foo", -1, 1}};
static const struct sample_row async_samples[] = {{0, 20}};

static void lean_profile(struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(0);
	sc_json_map_open(g);
	gen_meta(g);
	sc_json_kv_array_open(g, "libs");
	sc_json_array_close(g);
	sc_json_kv_array_open(g, "threads");
	gen_thread(g, "Demo.Slow", main_stacks, 4, main_samples, 5);
	gen_thread(g, "2", async_stacks, 1, async_samples, 1);
	sc_json_array_close(g);
	sc_json_map_close(g);
	sc_json_finish(g, out);
}

static double ms_of(const struct sc_attr_sum *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return v[i].ms;
	return -1;
}

START_TEST(time_goes_to_the_outermost_declaration_and_its_stack_category)
{
	struct strbuf doc = STRBUF_INIT, why = STRBUF_INIT;
	lean_profile(&doc);
	struct sc_attr a;
	ck_assert_msg(sc_attr_parse(doc.buf, doc.len, 0, &a, &why) == 0, "%s", why.buf);
	ck_assert_uint_eq(a.n_decls, 2);
	ck_assert_str_eq(a.decls[0].name, "foo"); /* its command and its async proof */
	ck_assert_double_eq_tol(a.decls[0].ms, 60, 1e-9);
	ck_assert_str_eq(a.decls[1].name, "bar");
	ck_assert_double_eq_tol(a.decls[1].ms, 5, 1e-9);
	ck_assert_double_eq_tol(a.outside_ms, 2, 1e-9);
	ck_assert_double_eq_tol(a.total_ms, 67, 1e-9);
	ck_assert_uint_eq(a.n_cats, 4);
	ck_assert_str_eq(a.cats[0].name, "Meta");
	ck_assert_double_eq_tol(ms_of(a.cats, a.n_cats, "Elab.async"), 20, 1e-9);
	ck_assert_double_eq_tol(ms_of(a.cats, a.n_cats, "Elab"), 15, 1e-9);
	ck_assert_double_eq_tol(ms_of(a.cats, a.n_cats, "Other"), 2, 1e-9);
	sc_attr_free(&a);
	sb_release(&doc);
	sb_release(&why);
}
END_TEST

START_TEST(a_frame_names_its_declaration)
{
	static const struct {
		const char *frame, *name;
	} t[] = {
		{"Elab.command: Lean.Parser.Command.theorem: theorem Nat.foo' {n : Nat} : n = n := rfl",
		 "Nat.foo'"},
		{"Elab.command: Lean.Parser.Command.definition: noncomputable def «odd name» : Nat := 1",
		 "«odd name»"},
		{"Elab.command: Lean.Parser.Command.instance: instance (priority := low) instFoo : Foo := ⟨⟩",
		 "instFoo"},
		{"Elab.command: Lean.Parser.Command.instance: instance : Foo := ⟨⟩", "instance : Foo := ⟨⟩"},
		{"Elab.command: Lean.Parser.Command.classInductive: class inductive C | a", "C"},
		{"Elab.command: Lean.Parser.Command.open: open Nat", "open Nat"},
		{"Elab.command: Lean.Parser.Command.theorem", "Lean.Parser.Command.theorem"},
		{"Elab.command", "Elab.command"},
		{"Elab.async: elaborating proof of Foo.bar", "Foo.bar"},
		{"Elab.async", "Elab.async"},
		{"Meta.synthInstance: Decidable True", NULL},
		{"runFrontend", NULL},
		{"Elab.commandX: theorem a", NULL},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		char *got = sc_attr_decl_name(t[i].frame);
		if (!t[i].name)
			ck_assert_msg(got == NULL, "%s: %s", t[i].frame, got);
		else
			ck_assert_msg(got && strcmp(got, t[i].name) == 0, "%s: %s", t[i].frame,
			              got ? got : "(null)");
		free(got);
	}
}
END_TEST

START_TEST(a_name_is_one_printable_line_cut_between_characters)
{
	char frame[400] = "Elab.command: Lean.Parser.Command.eval: #eval \"a\x1b[31m\tb\r\" \nsecond";
	char *got = sc_attr_decl_name(frame);
	ck_assert_str_eq(got, "#eval \"a?[31m?b");
	free(got);
	strcpy(frame, "Elab.command: Lean.Parser.Command.eval: #eval ");
	for (int i = 0; i < 100; i++)
		strcat(frame, "é"); /* two bytes each: 46 + 200 bytes in all */
	got = sc_attr_decl_name(frame);
	ck_assert_uint_le(strlen(got), SC_ATTR_NAME_MAX);
	ck_assert_uint_eq(((unsigned char)got[strlen(got) - 1] & 0xc0), 0x80); /* a whole é last */
	ck_assert_int_eq((unsigned char)got[strlen(got) - 2], 0xc3);
	free(got);
}
END_TEST

/* Each refused with a reason, never summed. */
START_TEST(what_is_not_lean_profile_is_refused)
{
	static const struct {
		const char *doc, *why;
	} t[] = {
		{"", "not JSON"},
		{"[1]", "the top is not an object"},
		{"7", "the top is not an object"},
		{"{\"meta\": {}}", "no threads"},
		{"{\"threads\": [{}]}", "lacks one of Lean's tables"},
		{"{\"threads\": {}}", "wrong type"},
		{"{\"threads\": [], \"threads\": []}", "given twice"},
		{"{\"threads\": [] /* c */}", "not JSON"},
		{"{\"threads\": [{\"stringArray\": [\"a\\u0000b\"]}]}", "NUL"},
		{"{\"threads\": [{\"stringArray\": [1]}]}", "other than strings"},
		{"{\"threads\": [{\"samples\": {\"weight\": [-1]}}]}", "negative"},
		{"{\"threads\": [{\"samples\": {\"weight\": [\"NaN\"]}}]}", "not a number"},
		{"{\"threads\": [{\"samples\": {\"stack\": [1.5]}}]}", "whole number"},
		{"{\"threads\": [{\"samples\": {\"stack\": [10000000000]}}]}", "whole number"},
		{"{\"threads\": [{\"samples\": {\"stack\": [], \"stack\": []}}]}", "given twice"},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		struct strbuf why = STRBUF_INIT;
		struct sc_attr a;
		ck_assert_msg(sc_attr_parse(t[i].doc, strlen(t[i].doc), 0, &a, &why) < 0, "%s", t[i].doc);
		ck_assert_msg(strstr(why.buf, t[i].why), "%s: %s", t[i].doc, why.buf);
		ck_assert(!strchr(why.buf, '\n'));
		ck_assert_uint_eq(a.n_decls, 0);
		sb_release(&why);
	}
}
END_TEST

/* A thread whose tables point nowhere or backwards. */
START_TEST(tables_that_do_not_hold_together_are_refused)
{
	static const struct stack_row loop[] = {{"runFrontend", 1, 0}, {"Elab.command: x", 0, 3}};
	static const struct stack_row cat[] = {{"runFrontend", -1, 300}};
	static const struct sample_row beyond[] = {{5, 1}};
	static const struct sample_row fine[] = {{0, 1}};
	const struct {
		const struct stack_row *st;
		size_t n_st;
		const struct sample_row *sa;
		const char *why;
	} t[] = {
		{loop, 2, fine, "prefix does not come before"},
		{cat, 1, fine, "is not there"},
		{main_stacks, 4, beyond, "names a stack that is not there"},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		yajl_gen g = sc_json_gen_new(0);
		sc_json_map_open(g);
		sc_json_kv_array_open(g, "threads");
		gen_thread(g, "M", t[i].st, t[i].n_st, t[i].sa, 1);
		sc_json_array_close(g);
		sc_json_map_close(g);
		struct strbuf doc = STRBUF_INIT, why = STRBUF_INIT;
		sc_json_finish(g, &doc);
		struct sc_attr a;
		ck_assert_int_lt(sc_attr_parse(doc.buf, doc.len, 0, &a, &why), 0);
		ck_assert_msg(strstr(why.buf, t[i].why), "%zu: %s", i, why.buf);
		sb_release(&doc);
		sb_release(&why);
	}
}
END_TEST

/* A document LEVELS deep in all (the top object one of them). */
static int parse_nested(int levels, struct strbuf *why)
{
	struct strbuf doc = STRBUF_INIT;
	sb_adds(&doc, "{\"threads\": [], \"x\": ");
	for (int i = 1; i < levels; i++)
		sb_addc(&doc, '[');
	for (int i = 1; i < levels; i++)
		sb_addc(&doc, ']');
	sb_addc(&doc, '}');
	struct sc_attr a;
	int rc = sc_attr_parse(doc.buf, doc.len, 0, &a, why);
	if (rc == 0)
		sc_attr_free(&a);
	sb_release(&doc);
	return rc;
}

START_TEST(nesting_is_bounded_at_lean_s_own_depth)
{
	struct strbuf why = STRBUF_INIT;
	ck_assert_msg(parse_nested(SC_ATTR_MAX_DEPTH, &why) == 0, "%s", why.buf);
	ck_assert_int_lt(parse_nested(SC_ATTR_MAX_DEPTH + 1, &why), 0);
	ck_assert_str_eq(why.buf, "nested deeper than Lean's profile is");
	sb_reset(&why);
	ck_assert_int_lt(parse_nested(100000, &why), 0);
	ck_assert_str_eq(why.buf, "nested deeper than Lean's profile is");
	sb_release(&why);
}
END_TEST

/* N functions that all name one string of LEN bytes: a thread whose
 * every stack is a root of its own, one sample each. */
static void one_name_many_functions(size_t n, size_t len, struct strbuf *out)
{
	yajl_gen g = sc_json_gen_new(0);
	sc_json_map_open(g);
	gen_meta(g);
	sc_json_kv_array_open(g, "threads");
	sc_json_map_open(g);
	sc_json_kv_map_open(g, "samples");
	sc_json_kv_array_open(g, "stack");
	for (size_t i = 0; i < n; i++)
		sc_json_int(g, (long long)i);
	sc_json_array_close(g);
	sc_json_kv_array_open(g, "weight");
	for (size_t i = 0; i < n; i++)
		sc_json_fixed(g, 1, 3);
	sc_json_array_close(g);
	sc_json_map_close(g);
	const char *tables[][2] = {{"stackTable", "frame"}, {"stackTable", "category"},
	                           {"stackTable", "prefix"}, {"frameTable", "func"},
	                           {"funcTable", "name"}};
	for (size_t t = 0; t < 5; t++) {
		if (t == 0 || t == 3 || t == 4)
			sc_json_kv_map_open(g, tables[t][0]);
		sc_json_kv_array_open(g, tables[t][1]);
		for (size_t i = 0; i < n; i++)
			if (t == 2)
				sc_json_null(g);
			else
				sc_json_int(g, t == 1 ? 3 : t == 4 ? 0 : (long long)i);
		sc_json_array_close(g);
		if (t == 2 || t == 3 || t == 4)
			sc_json_map_close(g);
	}
	struct strbuf text = STRBUF_INIT;
	sb_adds(&text, "Elab.command: Lean.Parser.Command.theorem: theorem big : True := ");
	while (text.len < len)
		sb_adds(&text, "by trivial ");
	sc_json_kv_array_open(g, "stringArray");
	sc_json_str(g, text.buf);
	sc_json_array_close(g);
	sc_json_map_close(g);
	sc_json_array_close(g);
	sc_json_map_close(g);
	sc_json_finish(g, out);
	sb_release(&text);
}

/* The reader's work follows the profile's bytes: a string that many
 * functions name is read as a name once, not once per function (24,000
 * functions naming one 1 MB string once took hours to read). */
START_TEST(a_string_many_functions_name_is_read_once)
{
	struct strbuf doc = STRBUF_INIT, why = STRBUF_INIT;
	one_name_many_functions(3000, 256 * 1024, &doc);
	struct sc_attr a;
	ck_assert_msg(sc_attr_parse(doc.buf, doc.len, 0, &a, &why) == 0, "%s", why.buf);
	ck_assert_uint_eq(a.names_read, 1);
	ck_assert_uint_eq(a.n_decls, 1);
	ck_assert_str_eq(a.decls[0].name, "big");
	ck_assert(a.decls[0].ms == 3000);
	sc_attr_free(&a);
	sb_release(&doc);
	sb_release(&why);
}
END_TEST

/* A reader of the candidate's bytes stops when its time is spent, with a
 * reason; without a deadline, or before it, it reads. */
START_TEST(a_reader_past_its_time_gives_up)
{
	struct strbuf doc = STRBUF_INIT, why = STRBUF_INIT;
	lean_profile(&doc);
	struct sc_attr a;
	ck_assert_int_lt(sc_attr_parse(doc.buf, doc.len, 1e-9, &a, &why), 0);
	ck_assert_str_eq(why.buf, "the time for reading Lean's profiles was spent");
	sb_reset(&why);
	ck_assert_msg(sc_attr_parse(doc.buf, doc.len, 1e12, &a, &why) == 0, "%s", why.buf);
	sc_attr_free(&a);
	sb_release(&doc);
	sb_release(&why);
}
END_TEST

START_TEST(entries_and_bytes_are_bounded)
{
	struct strbuf doc = STRBUF_INIT, why = STRBUF_INIT;
	sb_adds(&doc, "{\"threads\": [], \"x\": [");
	for (unsigned i = 0; i <= SC_ATTR_MAX_ENTRIES; i++)
		sb_adds(&doc, "0,");
	sb_adds(&doc, "0]}");
	struct sc_attr a;
	ck_assert_int_lt(sc_attr_parse(doc.buf, doc.len, 0, &a, &why), 0);
	ck_assert_msg(strstr(why.buf, "more entries"), "%s", why.buf);
	sb_reset(&why);
	ck_assert_int_lt(sc_attr_parse(doc.buf, SC_ATTR_MAX_BYTES + 1u, 0, &a, &why), 0);
	ck_assert_msg(strstr(why.buf, "larger than"), "%s", why.buf);
	sb_release(&doc);
	sb_release(&why);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("attribution");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, time_goes_to_the_outermost_declaration_and_its_stack_category);
	tcase_add_test(tc, a_frame_names_its_declaration);
	tcase_add_test(tc, a_name_is_one_printable_line_cut_between_characters);
	tcase_add_test(tc, what_is_not_lean_profile_is_refused);
	tcase_add_test(tc, tables_that_do_not_hold_together_are_refused);
	tcase_add_test(tc, nesting_is_bounded_at_lean_s_own_depth);
	tcase_add_test(tc, entries_and_bytes_are_bounded);
	tcase_add_test(tc, a_string_many_functions_name_is_read_once);
	tcase_add_test(tc, a_reader_past_its_time_gives_up);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
