#!/usr/bin/env bats
# The shape of the house (t/lint/shape.py): cmd/ files are short,
# functions are short, every program uses the one option table, no strbuf
# guard, no library message that names an option.  The real tree passes; each broken rule in a sample is reported.

bats_require_minimum_version 1.5.0

setup() {
	SHAPE="$BATS_TEST_DIRNAME/lint/shape.py"
	S=$BATS_TEST_TMPDIR/tree
	mkdir -p "$S/cmd" "$S/common/util"
	printf 'int main(int argc, char **argv)\n{\n\treturn sc_parse_options(argc, argv, o, &c, 0);\n}\n' \
		>"$S/cmd/sc-x.c"
	# sc-pid1 stands alone: long, no table, getopt of its own are its business
	{ printf '#include <getopt.h>\n'; printf 'int v;\n%.0s' {1..300}; printf 'int main(void)\n{\n}\n'; } \
		>"$S/cmd/sc-pid1.c"
	printf '#include <getopt.h>\n' >"$S/common/util/options.c"
}

# A function of N lines in all, signature and braces included.
function_of() {
	printf 'static void f(int a,\n              int b)\n{\n'
	local i
	for ((i = 4; i < $1; i++)); do printf '\t(void)a;\n'; done
	printf '}\n'
}

@test "shape: the real tree passes" {
	run /usr/bin/python3 "$SHAPE"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "shape: a good sample passes, sc-pid1 included" {
	run /usr/bin/python3 "$SHAPE" "$S"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "shape: a cmd/ file of 251 lines is refused, 250 pass" {
	{ cat "$S/cmd/sc-x.c"; printf '\n%.0s' {1..246}; } >"$S/cmd/sc-y.c"
	run /usr/bin/python3 "$SHAPE" "$S"
	[ "$status" -eq 0 ]
	printf '\n' >>"$S/cmd/sc-y.c"
	run /usr/bin/python3 "$SHAPE" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "shape: error: a cmd/ file is an option table and calls: 251 lines, more than 250 (cmd/sc-y.c)" ]
}

@test "shape: a function of 81 lines is refused, 80 pass, in common/ as in cmd/" {
	function_of 80 >"$S/common/util/a.c"
	run /usr/bin/python3 "$SHAPE" "$S"
	[ "$status" -eq 0 ]
	{ printf 'int x;\n'; function_of 81; } >"$S/common/util/a.c"
	run /usr/bin/python3 "$SHAPE" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "shape: error: function f is 81 lines, more than 80 (common/util/a.c:2)" ]
}

@test "shape: a program without the option table, or with getopt, is refused" {
	printf '#include <getopt.h>\nint main(void)\n{\n\treturn 0;\n}\n' >"$S/cmd/sc-z.c"
	run /usr/bin/python3 "$SHAPE" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "shape: error: a program parses its options with the one table: no sc_parse_options call (cmd/sc-z.c)" ]
	[ "${lines[1]}" = "shape: error: options are parsed by util/options only: <getopt.h> (cmd/sc-z.c:1)" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "shape: a guard against a NULL strbuf is refused" {
	printf 'void g(void)\n{\n\tputs(out.buf ? out.buf : "");\n\tputs(r->report.buf ? r->report.buf : "");\n}\n' \
		>"$S/common/util/b.c"
	run /usr/bin/python3 "$SHAPE" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "shape: error: strbuf's buf is never NULL: drop the guard (common/util/b.c:3)" ]
	[ "${lines[1]}" = "shape: error: strbuf's buf is never NULL: drop the guard (common/util/b.c:4)" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "shape: a library's message that names a program's option is refused; the flag alone as an argv element is not" {
	printf 'static const struct sc_option o[] = {\n\tSC_OPT_STRING(0, "tree", &t, "DIR", "x"),\n\tSC_OPT_LIST_F("read-only", &r, "P", "x", 0),\n};\n' \
		>"$S/cmd/sc-y.c"
	printf 'int main(int argc, char **argv)\n{\n\treturn sc_parse_options(argc, argv, o, &c, 0);\n}\n' >>"$S/cmd/sc-y.c"
	{
		printf '/* --tree is checked here */\n'
		printf 'void g(void)\n{\n'
		printf '\tpush("--tree");\n'
		printf '\tpush("--read-only=%%s");\n'
		printf '\tdie("cannot open --tree (%%s)", t); // --read-only\n'
		printf '\tdie("bad \\"x\\" --read-only path");\n'
		printf '\tdie("git --work-tree (%%s)");\n'
		printf '}\n'
	} >"$S/common/util/c.c"
	run /usr/bin/python3 "$SHAPE" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "shape: error: a library names no option: --tree in a message (common/util/c.c:6)" ]
	[ "${lines[1]}" = "shape: error: a library names no option: --read-only in a message (common/util/c.c:7)" ]
	[ "${#lines[@]}" -eq 2 ]
}
