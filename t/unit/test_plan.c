/* Unit tests for sc-plan's helpers: module names, root classification,
 * .sphereceti parsing, diff-tree record parsing and selection, Git object
 * hashing for the embedded source tree ID. */
#include "unit_main.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "planning/changes.h"
#include "git/gittree.h"
#include "contract/leanpath.h"
#include "planning/header.h"
#include "planning/lakelibs.h"
#include "util/die.h"
#include "contract/plan.h"
#include "planning/planner.h"
#include "planning/repoconfig.h"
#include "util/sha1.h"
#include "util/sha256.h"
#include "git/treelookup.h"

static const char *module_of(const char *path)
{
	static char buf[256];
	struct strbuf sb = STRBUF_INIT;
	int rc = sc_lean_module_of(path, &sb);
	snprintf(buf, sizeof buf, "%s", rc == 0 ? sb.buf : "<unsupported>");
	sb_release(&sb);
	return buf;
}

START_TEST(module_names)
{
	ck_assert_str_eq(module_of("Lib/A.lean"), "Lib.A");
	ck_assert_str_eq(module_of("_x/Y9_/z.lean"), "_x.Y9_.z");
	ck_assert_str_eq(module_of("A.lean"), "A");
	const char *bad[] = {"Lib/my-file.lean", "Lib/9a.lean", "Lib/A.b.lean", "Lib//A.lean",
	                     "/Lib/A.lean", "Lib/A.lean.txt", ".lean", "Lib/.lean", "Lib/\xc3\x9c.lean",
	                     "Lib/sp ace.lean", "Lib/A.Lean", NULL};
	for (const char **b = bad; *b; b++)
		ck_assert_msg(strcmp(module_of(*b), "<unsupported>") == 0, "accepted %s", *b);
}
END_TEST

static char *lib[] = {(char *)"Lib", (char *)"Lib/Road/Deep"};
static char *road[] = {(char *)"Lib/Road", (char *)"Plans"};

static struct sc_plan roots_plan(void)
{
	struct sc_plan p;
	memset(&p, 0, sizeof p);
	p.library = lib;
	p.n_library = 2;
	p.roadmap = road;
	p.n_roadmap = 2;
	return p;
}

static int role_of(const struct sc_plan *p, const char *path)
{
	enum sc_role r;
	return sc_plan_classify(p, path, &r) ? (int)r : -1;
}

START_TEST(classification_most_specific_root_wins)
{
	struct sc_plan p = roots_plan();
	ck_assert_int_eq(role_of(&p, "Lib/A.lean"), SC_ROLE_LIBRARY);
	ck_assert_int_eq(role_of(&p, "Lib.lean"), SC_ROLE_LIBRARY);
	ck_assert_int_eq(role_of(&p, "Lib/Road.lean"), SC_ROLE_ROADMAP); /* R.lean is R's */
	ck_assert_int_eq(role_of(&p, "Lib/Road/X.lean"), SC_ROLE_ROADMAP);
	ck_assert_int_eq(role_of(&p, "Lib/Road/Deep/X.lean"), SC_ROLE_LIBRARY);
	ck_assert_int_eq(role_of(&p, "Lib/Road/Deep.lean"), SC_ROLE_LIBRARY);
	ck_assert_int_eq(role_of(&p, "Plans/P.lean"), SC_ROLE_ROADMAP);
	ck_assert_int_eq(role_of(&p, "Library/A.lean"), -1);
	ck_assert_int_eq(role_of(&p, "Other/Lib/A.lean"), -1);
	ck_assert_int_eq(role_of(&p, "Lib/README.md"), -1);
	ck_assert(sc_plan_in_root_area(&p, "Lib/README.md"));
	ck_assert(sc_plan_in_root_area(&p, "Lib/Vendor"));
	ck_assert(!sc_plan_in_root_area(&p, "Lib"));
	ck_assert(!sc_plan_in_root_area(&p, "Libx/A.lean"));
	ck_assert(!sc_plan_in_root_area(&p, "README.md"));
}
END_TEST

static int parse_cfg(const char *list, size_t len, struct sc_plan *p, struct strbuf *err)
{
	memset(p, 0, sizeof *p);
	sb_reset(err);
	return sc_repoconfig_parse(list, len, p, err);
}

#define A64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define B64 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define B64U "FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210"
#define C64 "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
#define CFG(s) s, sizeof(s) - 1

START_TEST(config_parsing)
{
	struct sc_plan p;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(parse_cfg(CFG("profile.library\nLib\0profile.library\nMore/Lib\0"
	                               "profile.roadmap\nRoad\0profile.github\nme/my.repo\0"
	                               "profile.tooling\ntools/sc\0sandbox.bwrapsha256\n"
	                               "ABCDEFabcdef0123456789012345678901234567890123456789012345678901\0"
	                               "sandbox.bwrapversion\n0.8.0\0other.key\nignored\0"),
	                           &p, &err),
	                 0);
	ck_assert_uint_eq(p.n_library, 2);
	ck_assert_str_eq(p.library[1], "More/Lib");
	ck_assert_uint_eq(p.n_roadmap, 1);
	ck_assert_str_eq(p.github, "me/my.repo");
	ck_assert_str_eq(p.tooling_path, "tools/sc");
	ck_assert_uint_eq(p.n_bwrap_pins, 1);
	ck_assert_str_eq(p.bwrap_pins[0].sha256,
	                 "abcdefabcdef0123456789012345678901234567890123456789012345678901");
	ck_assert_str_eq(p.bwrap_pins[0].version, "0.8.0");
	sc_plan_free(&p);

	/* several pins, one per host image; the older pair is the first */
	ck_assert_int_eq(parse_cfg(CFG("profile.library\nLib\0sandbox.bwrappin\n0.9.0  " A64 "\0"
	                               "sandbox.bwrapversion\n0.8.0\0sandbox.bwrappin\n0.10.0\t" B64U "\0"
	                               "sandbox.bwrapsha256\n" C64 "\0"),
	                           &p, &err),
	                 0);
	ck_assert_uint_eq(p.n_bwrap_pins, 3);
	ck_assert_str_eq(p.bwrap_pins[0].version, "0.8.0");
	ck_assert_str_eq(p.bwrap_pins[0].sha256, C64);
	ck_assert_str_eq(p.bwrap_pins[1].version, "0.9.0");
	ck_assert_str_eq(p.bwrap_pins[1].sha256, A64);
	ck_assert_str_eq(p.bwrap_pins[2].version, "0.10.0");
	ck_assert_str_eq(p.bwrap_pins[2].sha256, B64);
	sc_plan_free(&p);

	ck_assert_int_eq(parse_cfg("", 0, &p, &err), 0);
	ck_assert_uint_eq(p.n_library, 0);
	sc_plan_free(&p);

	static const struct { const char *s; size_t n; } bad[] = {
		{CFG("profile.library\nLib/../X\0")}, {CFG("profile.library\nA-B\0")},
		{CFG("profile.library\0")}, {CFG("profile.libary\nLib\0")},
		{CFG("profile.library\nLib\0profile.roadmap\nLib\0")},
		{CFG("profile.library\nLib\0profile.library\nLib\0")},
		{CFG("profile.github\na/b/c\0")}, {CFG("profile.github\n/b\0")},
		{CFG("profile.github\na\0")}, {CFG("profile.github\na/b\0profile.github\na/c\0")},
		{CFG("profile.tooling\n../x\0")}, {CFG("profile.tooling\n/abs\0")},
		{CFG("profile.tooling\na//b\0")}, {CFG("sandbox.bwrapsha256\nabc\0")},
		{CFG("sandbox.bwrapversion\n0.8 beta\0")}, {CFG("sandbox.other\nx\0")},
		{CFG("sandbox.bwrapversion\n0.8.0\0")}, {CFG("sandbox.bwrapsha256\n" A64 "\0")},
		{CFG("sandbox.bwrappin\n0.8.0\0")}, {CFG("sandbox.bwrappin\n" A64 "\0")},
		{CFG("sandbox.bwrappin\n0.8.0 " A64 " x\0")}, {CFG("sandbox.bwrappin\n0.8.0 abc\0")},
		{CFG("sandbox.bwrappin\n0.8.0 " A64 "0\0")}, {CFG("sandbox.bwrappin\n\0")},
		{CFG("sandbox.bwrappin\n0.8.0 " A64 "\0sandbox.bwrappin\n0.9.0 " A64 "\0")},
		{CFG("sandbox.bwrappin\n0.8.0 " A64 "\0sandbox.bwrapsha256\n" A64 "\0"
		     "sandbox.bwrapversion\n0.8.0\0")},
		{CFG("profile.sub.library\nLib\0")}, {NULL, 0}};
	for (int i = 0; bad[i].s; i++) {
		ck_assert_msg(parse_cfg(bad[i].s, bad[i].n, &p, &err) < 0, "accepted %s", bad[i].s);
		ck_assert_uint_gt(err.len, 0);
		sc_plan_free(&p);
	}
	/* Output cut short (no final NUL) is refused, not misread. */
	ck_assert_int_lt(parse_cfg(CFG("profile.library\nLib"), &p, &err), 0);
	sc_plan_free(&p);
	sb_release(&err);
	ck_assert(sc_is_tree_path("."));
	ck_assert(sc_is_tree_path("a/b c/d"));
	ck_assert(!sc_is_tree_path("a/./b"));
	ck_assert(!sc_is_tree_path("a/"));
	ck_assert(!sc_is_tree_path(""));
	ck_assert(!sc_is_tree_path("a\nb"));
}
END_TEST

#define Z40 "0000000000000000000000000000000000000000"
#define A40 "1111111111111111111111111111111111111111"
#define B40 "2222222222222222222222222222222222222222"

START_TEST(rawdiff_records)
{
	static const char raw[] = ":100644 100644 " A40 " " B40 " M\0Lib/A.lean\0"
	                          ":000000 100755 " Z40 " " B40 " A\0Lib/B.lean\0";
	size_t pos = 0;
	struct sc_rawdiff d;
	ck_assert_int_eq(sc_rawdiff_next(raw, sizeof raw - 1, &pos, 40, &d), 1);
	ck_assert_int_eq(d.status, 'M');
	ck_assert_uint_eq(d.old_mode, 0100644);
	ck_assert_str_eq(d.old_hex, A40);
	ck_assert_str_eq(d.path, "Lib/A.lean");
	ck_assert_int_eq(sc_rawdiff_next(raw, sizeof raw - 1, &pos, 40, &d), 1);
	ck_assert_uint_eq(d.new_mode, 0100755);
	ck_assert_int_eq(sc_rawdiff_next(raw, sizeof raw - 1, &pos, 40, &d), 0);

	const char *bad[] = {"100644 100644 " A40 " " B40 " M", ":100644 100644 " A40 " " B40 " R100",
	                     ":100644 100644 " A40 " " B40, ":100648 100644 " A40 " " B40 " M",
	                     ":100644 100644 " A40 "1 " B40 " M", NULL};
	for (const char **b = bad; *b; b++) {
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, *b);
		sb_add(&sb, "\0Lib/A.lean\0", 12);
		pos = 0;
		ck_assert_msg(sc_rawdiff_next(sb.buf, sb.len, &pos, 40, &d) < 0, "accepted %s", *b);
		sb_release(&sb);
	}
	/* A record without its path. */
	static const char cut[] = ":100644 100644 " A40 " " B40 " M\0";
	pos = 0;
	ck_assert_int_lt(sc_rawdiff_next(cut, sizeof cut - 1, &pos, 40, &d), 0);
}
END_TEST

static int select_raw(const char *raw, size_t len, struct sc_plan *p, struct strbuf *err)
{
	unsigned max_files = p->max_files; /* profile.maxFiles, as the caller set it */
	*p = roots_plan();
	p->max_files = max_files;
	sb_reset(err);
	return sc_changes_select(p, raw, len, 40, err);
}

static void free_files(struct sc_plan *p)
{
	for (size_t i = 0; i < p->n_files; i++) {
		free(p->files[i].id);
		free(p->files[i].path);
		free(p->files[i].module);
		free(p->files[i].base_blob);
		free(p->files[i].head_blob);
	}
	free(p->files);
}

START_TEST(selection_rules)
{
	struct sc_plan p = {0};
	struct strbuf err = STRBUF_INIT;
	static const char ok[] = ":100644 000000 " A40 " " Z40 " D\0Lib/Z.lean\0"
	                         ":100644 100644 " A40 " " B40 " M\0Lib/Road/A.lean\0"
	                         ":000000 100644 " Z40 " " B40 " A\0Lib/B.lean\0"
	                         ":000000 100644 " Z40 " " B40 " A\0Lib/notes.md\0"
	                         ":000000 120000 " Z40 " " B40 " A\0docs/link.lean\0"
	                         ":000000 100644 " Z40 " " B40 " A\0Other/X.lean\0";
	ck_assert_int_eq(select_raw(ok, sizeof ok - 1, &p, &err), 0);
	ck_assert_uint_eq(p.n_files, 3);
	ck_assert(!p.no_changes);
	ck_assert_str_eq(p.files[0].path, "Lib/B.lean");
	ck_assert_int_eq(p.files[0].change, SC_CHANGE_ADDED);
	ck_assert_ptr_null(p.files[0].base_blob);
	ck_assert_str_eq(p.files[0].head_blob, B40);
	ck_assert_str_eq(p.files[1].id, "Lib.Road.A");
	ck_assert_int_eq(p.files[1].role, SC_ROLE_ROADMAP);
	ck_assert_int_eq(p.files[2].change, SC_CHANGE_REMOVED);
	ck_assert_ptr_null(p.files[2].head_blob);
	free_files(&p);

	ck_assert_int_eq(select_raw("", 0, &p, &err), 0);
	ck_assert(p.no_changes);
	free_files(&p);

	struct { const char *rec; const char *msg; } bad[] = {
		{":100644 120000 " A40 " " B40 " T\0Lib/A.lean", "type change"},
		{":000000 120000 " Z40 " " B40 " A\0Lib/L.lean", "symlink"},
		{":000000 120000 " Z40 " " B40 " A\0Lib/Dir", "symlink"},
		{":160000 000000 " A40 " " Z40 " D\0Lib/Vendor", "submodule"},
		{":000000 100644 " Z40 " " B40 " A\0Lib/my-file.lean", "unsupported module name"},
		{":000000 100644 " Z40 " " B40 " U\0Lib/U.lean", "unexpected diff status"},
		{NULL, NULL}};
	for (int i = 0; bad[i].rec; i++) {
		size_t n = strlen(bad[i].rec);
		n += strlen(bad[i].rec + n + 1) + 2;
		ck_assert_int_eq(select_raw(bad[i].rec, n, &p, &err), SC_EXIT_POLICY);
		ck_assert_msg(strstr(err.buf, bad[i].msg), "%s: %s", bad[i].msg, err.buf);
		free_files(&p);
	}

	struct strbuf many = STRBUF_INIT;
	p.max_files = 32; /* profile.maxFiles */
	for (int i = 0; i < 33; i++) {
		sb_addf(&many, ":000000 100644 " Z40 " " B40 " A");
		sb_addc(&many, '\0');
		sb_addf(&many, "Lib/F%02d.lean", i);
		sb_addc(&many, '\0');
	}
	ck_assert_int_eq(select_raw(many.buf, many.len, &p, &err), SC_EXIT_POLICY);
	ck_assert_str_eq(err.buf, "33 changed Lean files, more than 32 (profile.maxFiles)");
	free_files(&p);
	ck_assert_int_eq(select_raw(many.buf, many.len - strlen("Lib/F32.lean") - 2 -
	                                          strlen(":000000 100644 " Z40 " " B40 " A"),
	                            &p, &err),
	                 0);
	ck_assert_uint_eq(p.n_files, 32);
	free_files(&p);
	p.max_files = 0;
	sb_release(&many);
	sb_release(&err);
}
END_TEST

static void hex_of(const unsigned char *raw, size_t n, char *out) { sc_hex(raw, n, out); }

START_TEST(git_object_ids)
{
	unsigned char raw[32];
	char hex[65];
	/* The empty blob, as git hash-object prints it. */
	hex_of(raw, sc_gitobj_id(SC_HASH_SHA1, "blob", "", 0, raw), hex);
	ck_assert_str_eq(hex, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
	hex_of(raw, sc_gitobj_id(SC_HASH_SHA256, "blob", "", 0, raw), hex);
	ck_assert_str_eq(hex, "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813");
	/* The empty tree. */
	hex_of(raw, sc_gitobj_id(SC_HASH_SHA1, "tree", "", 0, raw), hex);
	ck_assert_str_eq(hex, "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
	/* SHA-1 test vectors (FIPS 180). */
	struct sc_sha1 c;
	sc_sha1_init(&c);
	sc_sha1_update(&c, "abc", 3);
	sc_sha1_final(&c, raw);
	hex_of(raw, 20, hex);
	ck_assert_str_eq(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sc_sha1_init(&c);
	for (const char *p = m; *p; p++)
		sc_sha1_update(&c, p, 1);
	sc_sha1_final(&c, raw);
	hex_of(raw, 20, hex);
	ck_assert_str_eq(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
}
END_TEST

START_TEST(git_tree_ids)
{
	/* printf 'x\n' > a; mkdir d; printf 'y\n' > d/b; chmod +x d/b;
	 * ln -s a l; also "a-b" and "a.c", which sort around the directory
	 * "a" would: git add -A && git write-tree. */
	struct sc_srcfile f[] = {
		{"d/b", 0100755, "y\n", 2}, {"a", 0100644, "x\n", 2}, {"l", 0120000, "a", 1},
		{"e/f/g", 0100644, "", 0},  {"e-f", 0100644, "", 0},  {"e.f", 0100644, "", 0},
	};
	char hex[65];
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(sc_gittree_hex(f, 6, SC_HASH_SHA1, hex, &err), 0);
	ck_assert_str_eq(hex, "f0ad0df72ccd2877b0fcff018706d5b149d6334c");
	ck_assert_int_eq(sc_gittree_hex(f, 6, SC_HASH_SHA256, hex, &err), 0);
	ck_assert_str_eq(hex, "14514471e4668e62d7626c26e6bdbeb6d4dff451674efeee465b401171688b59");

	struct sc_srcfile dup[] = {{"a", 0100644, "", 0}, {"a", 0100644, "", 0}};
	ck_assert_int_lt(sc_gittree_hex(dup, 2, SC_HASH_SHA1, hex, &err), 0);
	struct sc_srcfile clash[] = {{"a", 0100644, "", 0}, {"a/b", 0100644, "", 0}};
	ck_assert_int_lt(sc_gittree_hex(clash, 2, SC_HASH_SHA1, hex, &err), 0);
	struct sc_srcfile dots[] = {{"a/../b", 0100644, "", 0}};
	ck_assert_int_lt(sc_gittree_hex(dots, 1, SC_HASH_SHA1, hex, &err), 0);
	struct sc_srcfile mode[] = {{"a", 0160000, "", 0}};
	ck_assert_int_lt(sc_gittree_hex(mode, 1, SC_HASH_SHA1, hex, &err), 0);
	sb_release(&err);
}
END_TEST

START_TEST(commit_tree_line)
{
	char tree[65];
	static const char commit[] = "tree " A40 "\nparent " B40 "\n";
	ck_assert_int_eq(sc_commit_parse_tree(commit, sizeof commit - 1, 40, tree), 0);
	ck_assert_str_eq(tree, A40);
	ck_assert_int_lt(sc_commit_parse_tree(commit, sizeof commit - 1, 64, tree), 0);
	ck_assert_int_lt(sc_commit_parse_tree("parent x\n", 9, 40, tree), 0);
}
END_TEST

/* A plan document with one member replaced: FROM (a unique piece of the
 * valid document) becomes TO; the refusal's text, or "" when accepted. */
static const char *refusal_of(const char *valid, size_t n_files, const char *from, const char *to);

#define PLAN_PREFIX \
	"{\"schema\": \"sphereceti.plan/1\", \"profiler_version\": \"0.1.0\", " \
	"\"object_format\": \"sha1\", \"revisions\": {\"tooling\": \"" A40 "\", " \
	"\"base_tip\": \"" A40 "\", \"merge_base\": \"" A40 "\", \"head\": \"" B40 "\"}, "

static const char *plan_refusal(const char *from, const char *to)
{
	static const char *const valid =
	    "{\"schema\": \"sphereceti.plan/1\", \"profiler_version\": \"0.1.0\", "
	    "\"object_format\": \"sha1\", \"revisions\": {\"tooling\": \"" A40 "\", "
	    "\"base_tip\": \"" A40 "\", \"merge_base\": \"" A40 "\", \"head\": \"" B40 "\"}, "
	    "\"config\": {\"library\": [\"Lib\"], \"roadmap\": [], \"github\": null, "
	    "\"tooling_path\": null, \"bwrap_pins\": [{\"version\": \"0.8.0\", \"sha256\": \"" A64 "\"}]}, "
	    "\"lake\": {\"lakefile.toml\": null, \"lakefile.lean\": null, "
	    "\"lake-manifest.json\": null, \"lean-toolchain\": \"" B40 "\"}, "
	    "\"lean_toolchain\": \"v1\", \"status\": \"changes\", \"files\": [{\"id\": \"Lib.A\", "
	    "\"path\": \"Lib/A.lean\", \"module\": \"Lib.A\", \"role\": \"library\", "
	    "\"change\": \"added\", \"base_blob\": null, \"head_blob\": \"" B40 "\"}]}";
	return refusal_of(valid, 1, from, to);
}

static const char *refusal_of(const char *valid, size_t n_files, const char *from, const char *to)
{
	static char why[256];
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
	const char *at = strstr(valid, from);
	ck_assert_ptr_nonnull(at);
	sb_addf(&doc, "%.*s%s%s", (int)(at - valid), valid, to, at + strlen(from));
	struct sc_plan p;
	if (sc_plan_from_json(doc.buf, doc.len, &p, &err) == 0) {
		ck_assert_int_eq(p.n_files, n_files);
		sc_plan_free(&p);
	}
	snprintf(why, sizeof why, "%s", err.buf);
	sb_release(&doc);
	sb_release(&err);
	return why;
}

START_TEST(plan_document_refusals_section_by_section)
{
	ck_assert_str_eq(plan_refusal("{", "{"), "");
	ck_assert_str_eq(plan_refusal("plan/1", "plan/2"), "unsupported plan schema \"sphereceti.plan/2\"");
	ck_assert_str_eq(plan_refusal("\"sha1\"", "\"md5\""), "unsupported object format \"md5\"");
	ck_assert_str_eq(plan_refusal("\"head\": \"" B40, "\"head\": \"" A40 "0"),
	                 "field \"head\" is not a full object ID");
	ck_assert_str_eq(plan_refusal("[\"Lib\"]", "[]"), "plan has no library root");
	ck_assert_str_eq(plan_refusal("\"sha256\": \"" A64, "\"sha256\": \"ab"),
	                 "a bwrap pin has no version or no SHA-256 hex digest");
	ck_assert_str_eq(plan_refusal("\"version\": \"0.8.0\"", "\"version\": \"\""),
	                 "a bwrap pin has no version or no SHA-256 hex digest");
	ck_assert_str_eq(plan_refusal("\"version\": \"0.8.0\"", "\"v\": \"0.8.0\""),
	                 "unexpected field \"v\" in a bwrap pin");
	ck_assert_str_eq(plan_refusal("\"bwrap_pins\": [{\"version\": \"0.8.0\", \"sha256\": \"" A64 "\"}]",
	                              "\"bwrap_pins\": null"),
	                 "field \"bwrap_pins\" missing or not an array");
	ck_assert_str_eq(plan_refusal("\"bwrap_pins\": [{", "\"bwrap_pins\": [3, {"),
	                 "a bwrap pin is not a JSON object");
	ck_assert_str_eq(plan_refusal("\"tooling_path\": null", "\"tooling_path\": null, \"source_dir\": \".\""),
	                 "field \"source_dir\" is not a relative path other than \".\"");
	ck_assert_ptr_nonnull(strstr(plan_refusal("\"lakefile.toml\"", "\"lakefile.yaml\""), "lakefile.yaml"));
	ck_assert_str_eq(plan_refusal("\"changes\"", "\"no_changes\""),
	                 "plan status does not match its file list");
	ck_assert_str_eq(plan_refusal("\"changes\"", "\"maybe\""), "unknown plan status \"maybe\"");
	ck_assert_str_eq(plan_refusal("\"base_blob\": null", "\"base_blob\": \"" A40 "\""),
	                 "file entry \"Lib/A.lean\": blobs do not match change \"added\"");
	/* Module names are relative to profile.sourceDir, as sc-plan
	 * selects them; the role is the covering root's. */
	static const char src[] = "\"tooling_path\": null, \"source_dir\": \"src\"";
	ck_assert_str_eq(plan_refusal("\"tooling_path\": null", src),
	                 "file entry \"Lib/A.lean\" has an unsupported path, module, id or role");
	static const char src_file[] = "\"path\": \"src/Lib/A.lean\"";
	ck_assert_str_eq(plan_refusal("\"path\": \"Lib/A.lean\"", src_file),
	                 "file entry \"src/Lib/A.lean\" has an unsupported path, module, id or role");
	ck_assert_str_eq(plan_refusal("\"role\": \"library\"", "\"role\": \"roadmap\""),
	                 "file entry \"Lib/A.lean\" has an unsupported path, module, id or role");
	ck_assert_str_eq(plan_refusal("\"module\": \"Lib.A\"", "\"module\": \"Lib.B\""),
	                 "file entry \"Lib/A.lean\" has an unsupported path, module, id or role");
}
END_TEST

/* Two files on two shards; each rule of "shards" refuses its breach. */
START_TEST(plan_shards_refusals)
{
	static const char *const valid = PLAN_PREFIX
	    "\"config\": {\"library\": [\"Lib\"], \"roadmap\": [], \"github\": null, "
	    "\"tooling_path\": null, \"bwrap_pins\": [], \"max_files\": 2}, "
	    "\"lake\": {\"lakefile.toml\": null, \"lakefile.lean\": null, "
	    "\"lake-manifest.json\": null, \"lean-toolchain\": null}, "
	    "\"lean_toolchain\": null, \"status\": \"changes\", \"files\": ["
	    "{\"id\": \"Lib.A\", \"path\": \"Lib/A.lean\", \"module\": \"Lib.A\", \"role\": \"library\", "
	    "\"change\": \"added\", \"base_blob\": null, \"head_blob\": \"" B40 "\", \"shard\": 1}, "
	    "{\"id\": \"Lib.B\", \"path\": \"Lib/B.lean\", \"module\": \"Lib.B\", \"role\": \"library\", "
	    "\"change\": \"added\", \"base_blob\": null, \"head_blob\": \"" B40 "\", \"shard\": 2}], "
	    "\"shards\": {\"count\": 2, \"balanced_by\": \"blob_bytes\"}}";
	ck_assert_str_eq(refusal_of(valid, 2, "{", "{"), "");
	ck_assert_str_eq(refusal_of(valid, 2, "\"max_files\": 2", "\"max_files\": 1"),
	                 "plan lists more than 1 changed files");
	ck_assert_str_eq(refusal_of(valid, 2, "\"max_files\": 2", "\"max_files\": 2001"),
	                 "field \"max_files\" is not 1 to 2000");
	ck_assert_str_eq(refusal_of(valid, 2, "\"max_files\": 2", "\"max_shards\": 0"),
	                 "field \"max_shards\" is not 1 to 256");
	ck_assert_str_eq(refusal_of(valid, 2, ", \"shards\": {\"count\": 2, \"balanced_by\": \"blob_bytes\"}", ""),
	                 "files name shards but the plan has no \"shards\" member");
	ck_assert_str_eq(refusal_of(valid, 2, "\"count\": 2", "\"count\": 3"),
	                 "\"shards\": count, balanced_by and the files' shards disagree");
	ck_assert_str_eq(refusal_of(valid, 2, "\"shard\": 2}", "\"shard\": 1}"),
	                 "\"shards\": shard 2 of 2 holds no file");
	ck_assert_str_eq(refusal_of(valid, 2, "\"shard\": 2}", "\"shard\": 3}"),
	                 "file \"Lib/B.lean\" names shard 3 of 2");
	ck_assert_str_eq(refusal_of(valid, 2, "\"shard\": 2}", "\"shard\": 0}"),
	                 "file entry \"Lib/B.lean\": shard 0 is not 1 to 256");
	ck_assert_str_eq(refusal_of(valid, 2, ", \"shard\": 2}", "}"),
	                 "\"shards\": count, balanced_by and the files' shards disagree");
	ck_assert_str_eq(refusal_of(valid, 2, "\"count\": 2", "\"count\": 1"),
	                 "\"shards\": count, balanced_by and the files' shards disagree");
	ck_assert_str_eq(refusal_of(valid, 2, "\"blob_bytes\"", "\"guess\""),
	                 "\"shards\": count, balanced_by and the files' shards disagree");
	/* a runner keeps its shard's files alone, of a plan of its count */
	struct sc_plan p;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(sc_plan_from_json(valid, strlen(valid), &p, &err), 0);
	ck_assert_int_eq(sc_plan_keep_shard(&p, 1, 3, &err), -1);
	ck_assert_str_eq(err.buf, "the plan has 2 shards, not 3");
	ck_assert_int_eq(sc_plan_keep_shard(&p, 2, 2, &err), 0);
	ck_assert_uint_eq(p.n_files, 1);
	ck_assert_str_eq(p.files[0].id, "Lib.B");
	sc_plan_free(&p);
	unsigned k, n;
	ck_assert_int_eq(sc_shard_parse("2/3", &k, &n), 0);
	ck_assert_uint_eq(k * 10 + n, 23);
	const char *bad[] = {"0/3", "4/3", "3", "/3", "1/", "1/257", "x/2", "1/2/3", "1234/1"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(sc_shard_parse(bad[i], &k, &n) < 0, "%s", bad[i]);
	sb_release(&err);
}
END_TEST

/* A plan with profile.sourceDir: what sc-plan writes, every reader reads. */
START_TEST(plan_with_source_dir_round_trips)
{
	char *one_lib[] = {"Lib"};
	struct sc_plan_file f = {"Lib.A", "src/Lib/A.lean", "Lib.A", SC_ROLE_LIBRARY,
	                         SC_CHANGE_MODIFIED, A40, B40, NULL, 0, 0};
	struct sc_plan p = {0};
	p.profiler_version = "0.1.0";
	p.object_format = "sha1";
	p.tooling = p.base_tip = p.merge_base = A40;
	p.head = B40;
	p.library = one_lib;
	p.n_library = 1;
	p.source_dir = "src";
	p.files = &f;
	p.n_files = 1;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	ck_assert_msg(sc_plan_write(&p, &out, &err) == 0, "%s", err.buf);
	struct sc_plan q;
	ck_assert_msg(sc_plan_from_json(out.buf, out.len, &q, &err) == 0, "%s", err.buf);
	ck_assert_str_eq(q.files[0].module, "Lib.A");
	sc_plan_free(&q);
	/* A writer that got the module wrong is caught before anything is written. */
	f.module = f.id = "src.Lib.A";
	sb_reset(&out);
	ck_assert_int_eq(sc_plan_write(&p, &out, &err), -1);
	ck_assert_str_eq(err.buf, "file entry \"src/Lib/A.lean\" has an unsupported path, module, id or role");
	sb_release(&out);
	sb_release(&err);
}
END_TEST

/* lakefile.toml's lean_libs (Config/LeanLib.lean isBuildableModule). */
static int toml_builds(const char *toml, const char *mod, const char *dir)
{
	struct sc_lake_libs l;
	struct strbuf err = STRBUF_INIT;
	ck_assert_msg(sc_lakelibs_parse(toml, strlen(toml), &l, &err) == 0, "%s", err.buf);
	int r = sc_lakelibs_find(&l, mod, dir) != NULL;
	sc_lakelibs_free(&l);
	sb_release(&err);
	return r;
}

static const char *toml_refusal_n(const char *toml, size_t n)
{
	static char why[256];
	struct sc_lake_libs l;
	struct strbuf err = STRBUF_INIT;
	int rc = sc_lakelibs_parse(toml, n, &l, &err);
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_gt(err.len, 0);
	snprintf(why, sizeof why, "%s", err.buf);
	sb_release(&err);
	return why;
}

static const char *toml_refusal(const char *toml) { return toml_refusal_n(toml, strlen(toml)); }

START_TEST(lakefile_toml_lean_libs)
{
	static const char demo[] =
	    "name = \"demo\" # the package\n"
	    "defaultTargets = [\"Demo\"]\n"
	    "version = 1.2\nflag = true\ndate = 2024-01-02T03:04:05Z\n"
	    "leanOptions = {pp.unicode.fun = true, \"x\" = [1, {a = 'b'}]}\n"
	    "desc = \"\"\"\nmulti \"quoted\" \\\nline\"\"\"\nlit = '''raw\\'''\n"
	    "\n[[require]]\nname = \"tinylib\"\nrev = \"main\"\n"
	    "\n[[lean_lib]]\nname = \"Demo\"\n"
	    "\n[[lean_lib]]\n\"name\" = 'Road\\map'\nroots = [\n  \"Roadmap\", # one\n  \"Goals.X\",\n]\n"
	    "globs = [\"Roadmap.+\", \"Goals.X.*\"]\n"
	    "[lean_lib.leanOptions]\nname = \"not a lib name\"\n"
	    "[[lean_exe]]\nname = \"Other\"\n";
	ck_assert(toml_builds(demo, "Demo", NULL));
	ck_assert(toml_builds(demo, "Demo.Basic", NULL)); /* root Demo, glob Demo matches the root */
	ck_assert(!toml_builds(demo, "Other", NULL));     /* a lean_exe is no library */
	ck_assert(!toml_builds(demo, "Roadmap", NULL));   /* Roadmap.+: below only, no glob matches the root */
	ck_assert(toml_builds(demo, "Roadmap.R", NULL));
	ck_assert(toml_builds(demo, "Goals.X", NULL));
	ck_assert(toml_builds(demo, "Goals.X.Y.Z", NULL));
	ck_assert(!toml_builds(demo, "Goals", NULL));
	ck_assert(!toml_builds(demo, "Demonic", NULL)); /* prefixes go by components */
	ck_assert(!toml_builds(demo, "Demo", "src"));   /* built from the root, not src/ */
	/* srcDir: the package's joined with the library's, normalized. */
	static const char src[] = "srcDir = \"./src/\"\n[[lean_lib]]\nname = \"A\"\nsrcDir = \"lib//\"\n"
	                          "[[lean_lib]]\nname = \"B\"\n";
	ck_assert(toml_builds(src, "A.X", "src/lib"));
	ck_assert(!toml_builds(src, "A.X", "src"));
	ck_assert(toml_builds(src, "B", "src"));
	ck_assert(!toml_builds(src, "B", NULL));
	/* No lean_lib: nothing is buildable.  What the reader cannot judge (a
	 * glob table, a srcDir leaving the package, a «» name) builds
	 * everything here: never a false refusal. */
	ck_assert(!toml_builds("name = \"x\"\n", "A", NULL));
	ck_assert(toml_builds("[[lean_lib]]\nname = \"L\"\nglobs = [{submodules = \"L\"}]\n", "Any.Thing", NULL));
	ck_assert(toml_builds("[[lean_lib]]\nname = \"L\"\nsrcDir = \"../x\"\n", "L", "y"));
	ck_assert(toml_builds("[[lean_lib]]\nname = \"L\"\nroots = [\"\xc2\xab" "a-b\xc2\xbb\"]\n", "Q", NULL));
	ck_assert(toml_builds("[[lean_lib]]\nname = \"\\u004C\"\n", "L", NULL));

	ck_assert_str_eq(toml_refusal("[[lean_lib]]\nsrcDir = \"x\"\n"), "lakefile.toml: a lean_lib has no name");
	ck_assert_str_eq(toml_refusal("name = \"x"), "lakefile.toml line 1: unterminated string");
	ck_assert_str_eq(toml_refusal("a = \"x\ny\"\n"), "lakefile.toml line 1: newline in a string");
	ck_assert_str_eq(toml_refusal("a = [1, 2\n"), "lakefile.toml line 2: expected ',' or ']' in an array");
	ck_assert_str_eq(toml_refusal("a = 1 b = 2\n"), "lakefile.toml line 1: expected the end of the line");
	ck_assert_str_eq(toml_refusal("a = \"1\" b\n"), "lakefile.toml line 1: expected the end of the line");
	ck_assert_str_eq(toml_refusal("\n\n[lean_lib\n"), "lakefile.toml line 3: bad table header");
	ck_assert_str_eq(toml_refusal("a = \"\\q\"\n"), "lakefile.toml line 1: bad escape in a string");
	ck_assert_str_eq(toml_refusal("a = \"\\uD800\"\n"), "lakefile.toml line 1: bad escape in a string");
	ck_assert_str_eq(toml_refusal("= 1\n"), "lakefile.toml line 1: expected a key");
	ck_assert_str_eq(toml_refusal("[[lean_lib]]\nname = 1\n"), "lakefile.toml line 2: srcDir and name must be strings");
	ck_assert_str_eq(toml_refusal("a = \x01\n"), "lakefile.toml line 1: unsupported value");
	ck_assert_str_eq(toml_refusal_n("a = \"\0\"\n", 7), "lakefile.toml holds a NUL byte");
	/* Bounded: nesting depth and size. */
	struct strbuf deep = STRBUF_INIT;
	sb_adds(&deep, "a = ");
	for (int i = 0; i < 40; i++)
		sb_adds(&deep, "[");
	ck_assert_str_eq(toml_refusal(deep.buf), "lakefile.toml line 1: nested too deeply");
	sb_release(&deep);
	ck_assert_str_eq(toml_refusal_n("", SC_LAKELIBS_MAX + 1), "lakefile.toml is larger than 1048576 bytes");
}
END_TEST

/* The verdict names the first selected file no lean_lib builds. */
START_TEST(lean_libs_verdict_names_the_file)
{
	char *demo_lib[] = {"Demo"}, *demo_road[] = {"Roadmap"};
	struct sc_plan_file f[] = {
		{"Demo.A", "Demo/A.lean", "Demo.A", SC_ROLE_LIBRARY, SC_CHANGE_ADDED, NULL, B40, NULL, 0, 0},
		{"Roadmap.R", "Roadmap/R.lean", "Roadmap.R", SC_ROLE_ROADMAP, SC_CHANGE_ADDED, NULL, B40, NULL, 0, 0},
	};
	struct sc_plan p = {0};
	p.tooling = A40;
	p.library = demo_lib, p.n_library = 1, p.roadmap = demo_road, p.n_roadmap = 1;
	p.files = f, p.n_files = 2;
	static const char toml[] = "[[lean_lib]]\nname = \"Demo\"\n";
	struct sc_lake_libs l;
	struct strbuf why = STRBUF_INIT;
	ck_assert_int_eq(sc_lakelibs_parse(toml, sizeof toml - 1, &l, &why), 0);
	ck_assert_int_eq(sc_lean_libs_verdict(&l, &p, &why), SC_EXIT_POLICY);
	ck_assert_str_eq(why.buf, "no lean_lib of lakefile.toml builds module Roadmap.R from ., so "
	                          "Roadmap/R.lean cannot be measured (Lake would fail the prebuild with "
	                          "\"unknown module\"): add it to a lean_lib's roots or globs, or drop its "
	                          "root from .sphereceti (lakefile.toml at 111111111111)");
	p.n_files = 1;
	sb_reset(&why);
	ck_assert_int_eq(sc_lean_libs_verdict(&l, &p, &why), SC_EXIT_OK);
	sc_lakelibs_free(&l);
	sb_release(&why);
}
END_TEST

/* One header, whole: the names sc_lean_header reads, joined by ' ', or
 * "refused: WHY". */
static char *imports_of(const char *src, size_t len)
{
	struct sc_argv m = SC_ARGV_INIT;
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
	if (sc_lean_header(src, len, 1, &m, &why) != SC_HEADER_READ)
		sb_addf(&out, "refused: %s", why.buf);
	for (size_t i = 0; i < m.n; i++)
		sb_addf(&out, "%s%s", i ? " " : "", m.v[i]);
	sc_argv_release(&m);
	sb_release(&why);
	return sb_detach(&out, NULL);
}

/* Spellings, and what Lean and Lake make of each: Lean/Parser/Module.lean
 * (header), Lean/Parser/Basic.lean (whitespace, finishCommentBlock,
 * identFnAux, isToken), Init/Meta/Defs.lean (isLetterLike, isIdRest),
 * Lean/Elab/ParseImportsFast.lean (Lake's keywordCore, moduleIdent,
 * manyImports). */
START_TEST(lean_import_headers)
{
	static const struct {
		const char *src, *want;
	} cases[] = {
		/* the plain header: many import */
		{"import A.B\nimport C\n\ndef x := 1\n", "A.B C"},
		/* comments are whitespace; "/-!" and "/--" are tokens: the header ends */
		{"/- Copyright -/\n-- a line\nimport Mathlib.Data.Nat.Basic\n/-! docs -/\nimport X\n", "Mathlib.Data.Nat.Basic"},
		{"/-- doc -/\nimport A", ""},
		{"/- outer /- nested -/ still -/ import A", "A"},
		{"import A -- the rest of the line\nimport B", "A B"},
		/* the module system: module, then [public] [meta] import [all] */
		{"module\n\npublic import A\npublic meta import all B.C\nimport all D", "A B.C D"},
		{"module\nimport A\nprivate import E", "A"},
		{"module\npublic meta import A\nmeta public import B", "A"},
		{"module\nprelude\npublic import Init.Prelude", "Init.Prelude"},
		{"prelude\nmodule\nimport A", ""},
		{"prelude\nimport Init.Core", "Init.Core"},
		/* names: «escapes», letters of isLetterLike, subscripts, ' ! ? */
		{"import A.\xc2\xab" "B c\xc2\xbb" ".D\nimport \xc2\xabx\xc2\xbb", "A.B c.D x"},
		{"import \xc2\xab" "A\xc2\xbb.\xc2\xab" "B\xc2\xbb", "A.B"},
		{"import Foo.\xce\xb1\xce\xb2 import Bar' import Baz!?", "Foo.\xce\xb1\xce\xb2 Bar' Baz!?"},
		{"import X\xe2\x82\x81", "X\xe2\x82\x81"},
		{"import Foo.import", "Foo.import"},
		/* a keyword ends where a name could not go on: at « it is the token */
		{"import\xc2\xab" "Demo\xc2\xbb.Ring", "Demo.Ring"},
		/* the header ends at the first token that is not part of it */
		{"import A\ntheorem t : True := trivial\nimport B", "A"},
		{"def x := 1", ""},
		{"", ""},
		{"import A\0import B", "A"},
		{"import A\r\nimport B\r\n", "A B"},
		/* Lake's keywordCore takes "import" off the front of a name, Lean's
		 * isToken does not: what one builds the other would not import */
		{"import A\nimportant := 1", "refused: Lake and Lean read its imports differently (line 2)"},
		{"importDemo.Ring", "refused: Lake and Lean read its imports differently (line 1)"},
		/* Lake's finishCommentBlock steps over the character after a '-' */
		{"/- a --/ import B -/ import A", "refused: Lake and Lean read its imports differently (line 1)"},
		/* a modifier needs module (ParseImportsFast: badModifier) */
		{"import all \xc2\xabX\xc2\xbb", "refused: Lake cannot read it: cannot use 'public', 'meta', or 'all' without 'module' (line 1)"},
		{"module\nimport all \xc2\xabX\xc2\xbb", "X"},
		/* errors of either reader */
		{"import\n", "refused: Lake cannot read it: expected identifier (line 2)"},
		{"import import", "refused: Lean cannot read it: expected identifier (line 1)"},
		{"import A.", "refused: Lean cannot read it: a name ending in '.' (line 1)"},
		{"import A.1", "refused: Lean cannot read it: a name ending in '.' (line 1)"},
		{"import r\"x\"", "refused: Lean cannot read it: expected identifier (line 1)"},
		{"import \xc2\xab" "A", "refused: Lake cannot read it: unterminated identifier escape (line 1)"},
		{"/- never closed\nimport A", "refused: Lake cannot read it: unterminated comment (line 1)"},
		{"import A\timport B", "refused: Lake cannot read it: tabs are not allowed (line 1)"},
		/* what this reader will not take */
		{"import A\rimport B", "refused: a carriage return in the header (line 1)"},
		{"import \xc2\xab\xc2\xbb", "refused: a module name part that is no file name (line 1)"},
		{"import \xc2\xab" "a/b\xc2\xbb", "refused: a module name part that is no file name (line 1)"},
		{"import \xc2\xab" "a.b\xc2\xbb", "refused: a module name part that is no file name (line 1)"},
		{"import \xc2\xab..\xc2\xbb", "refused: a module name part that is no file name (line 1)"},
		{"import \xc2\xab" "x\x1b[2J\xc2\xbb", "refused: a control character in a module name (line 1)"},
		{"import Gr\xc3\xb6\xc3\x9f" "e", "refused: a Latin-1 letter in a module name (older Lean reads it otherwise) (line 1)"},
		{"import \xff", "refused: bytes that are not UTF-8 in the header (line 1)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t len = strlen(cases[i].src);
		if (strcmp(cases[i].src, "import A") == 0 && strcmp(cases[i].want, "A") == 0)
			len = sizeof "import A\0import B" - 1;
		char *got = imports_of(cases[i].src, len);
		ck_assert_msg(strcmp(got, cases[i].want) == 0, "case %zu: got '%s', want '%s'", i, got, cases[i].want);
		free(got);
	}
}
END_TEST

/* A prefix: more is asked for while the header may go on; never past the
 * bound, which is a refusal. */
START_TEST(lean_header_from_a_prefix)
{
	struct sc_argv m = SC_ARGV_INIT;
	struct strbuf why = STRBUF_INIT;
	ck_assert_int_eq(sc_lean_header("import A", 8, 0, &m, &why), SC_HEADER_MORE);
	ck_assert_int_eq(sc_lean_header("/- still open", 13, 0, &m, &why), SC_HEADER_MORE);
	ck_assert_int_eq(sc_lean_header("import A\ndef x := 1", 19, 0, &m, &why), SC_HEADER_READ);
	ck_assert_int_eq((int)m.n, 1);
	sc_argv_release(&m);
	/* 16385 imports: refused */
	struct strbuf big = STRBUF_INIT;
	for (int i = 0; i <= SC_HEADER_MAX_IMPORTS; i++)
		sb_addf(&big, "import M%d\n", i);
	ck_assert_int_eq(sc_lean_header(big.buf, big.len, 1, &m, &why), SC_HEADER_REFUSED);
	ck_assert_msg(strstr(why.buf, "more than 16384 imports") != NULL, "%s", why.buf);
	sb_reset(&why);
	/* a header past the byte bound: refused, whole or not */
	sb_reset(&big);
	sb_adds(&big, "/-");
	while (big.len < SC_HEADER_MAX_BYTES + 10)
		sb_adds(&big, " xxxxxxxxxxxxxxx");
	ck_assert_int_eq(sc_lean_header(big.buf, big.len, 1, &m, &why), SC_HEADER_REFUSED);
	ck_assert_str_eq(why.buf, "a header longer than 1 MiB (line 1)");
	sb_reset(&why);
	ck_assert_int_eq(sc_lean_header(big.buf, SC_HEADER_MAX_BYTES, 0, &m, &why), SC_HEADER_REFUSED);
	sb_release(&big);
	sb_release(&why);
	sc_argv_release(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");
	tcase_add_test(tc, module_names);
	tcase_add_test(tc, lean_import_headers);
	tcase_add_test(tc, lean_header_from_a_prefix);
	tcase_add_test(tc, classification_most_specific_root_wins);
	tcase_add_test(tc, config_parsing);
	tcase_add_test(tc, plan_shards_refusals);
	tcase_add_test(tc, rawdiff_records);
	tcase_add_test(tc, selection_rules);
	tcase_add_test(tc, git_object_ids);
	tcase_add_test(tc, git_tree_ids);
	tcase_add_test(tc, commit_tree_line);
	tcase_add_test(tc, plan_document_refusals_section_by_section);
	tcase_add_test(tc, plan_with_source_dir_round_trips);
	tcase_add_test(tc, lakefile_toml_lean_libs);
	tcase_add_test(tc, lean_libs_verdict_names_the_file);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
