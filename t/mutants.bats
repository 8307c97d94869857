#!/usr/bin/env bats
# The check-mutants runner itself (t/mutants/run.sh): a mutant no test
# notices fails the run, and a table row whose pattern went stale fails it
# before anything is built.  Small tables of its own; the real table runs
# in `make check-mutants`.
load helpers
bats_require_minimum_version 1.5.0

setup() {
	[ "$(id -u)" = 0 ] || skip "the runner puts tests in their own PID namespace (unshare): root only"
	RUN="$BATS_TEST_DIRNAME/mutants/run.sh"
	TABLE="$BATS_TEST_TMPDIR/table.tsv"
	: >"$TABLE"
	export SC_MUTANTS_TABLE="$TABLE" SC_MUTANTS_DIR="$BATS_TEST_TMPDIR/scratch"
}

# row NAME FILE FROM TO TESTS: one line of the table.
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$TABLE"; }

@test "a stale row (pattern twice or absent, no such suite or test) fails the run before anything is built" {
	row twice common/report/verdict.c '#include' '#include ' unit:test_verdict
	run --separate-stderr bash "$RUN"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "check-mutants: error: mutant twice: its pattern occurs "*" times in common/report/verdict.c, not once"* ]]
	[ ! -e "$SC_MUTANTS_DIR" ]
	: >"$TABLE"
	row gone common/report/verdict.c 'no such text anywhere' 'x' unit:test_verdict
	run --separate-stderr bash "$RUN"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"mutant gone: its pattern occurs 0 times"* ]]
	: >"$TABLE"
	row nosuite common/report/verdict.c 'v->flagged = head_ms >= t->added_ms;' 'v->flagged = 0;' 'nosuch.bats:x'
	run --separate-stderr bash "$RUN"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"no suite t/nosuch.bats"* ]]
	: >"$TABLE"
	row renamed common/report/verdict.c 'v->flagged = head_ms >= t->added_ms;' 'v->flagged = 0;' 'report.bats:no test is called this'
	run --separate-stderr bash "$RUN"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"'no test is called this' matches no test of t/report.bats"* ]]
}

@test "a surviving mutant fails the run; a caught one is named with the test that caught it" {
	row survivor common/report/verdict.c '/* Both operands are <= SC_MAX_MS and the ratio' '/* Both operands are <= SC_MAX_MS, and the ratio' unit:test_verdict
	row caught common/report/verdict.c 'v->flagged = head_ms >= t->added_ms;' 'v->flagged = head_ms > t->added_ms;' unit:test_verdict
	# a mutant that makes its test hang where bats cannot end it (its run
	# waits on a pipe the hung sandbox holds): caught at the row's bound
	row hangs common/sandbox/supervise.c 't >= w->deadline) {' 't >= w->deadline + 1e9) {' 'sandbox.bats@5:timeout ends a hanging command'
	SC_MUTANTS_SETUP_SECONDS=10 run bash "$RUN"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the unmutated copy passes every listed test"* ]]
	grep -Eq '^survivor +common/report/verdict.c +[0-9]+: unit:test_verdict +!! SURVIVED' <<<"$output"
	grep -Eq '^caught +common/report/verdict.c +[0-9]+: unit:test_verdict +test_verdict: added_and_removed' <<<"$output"
	grep -Eq '^hangs +common/sandbox/supervise.c +1: sandbox.bats@5:timeout ends a hanging command +sandbox.bats: no result within 15s \(a test hangs\)' <<<"$output"
	grep -qx 'check-mutants: SURVIVED (no listed test notices): survivor' <<<"$output"
	# the working tree is untouched; the scratch copy is reverted
	grep -qF 'v->flagged = head_ms >= t->added_ms;' "$BATS_TEST_DIRNAME/../common/report/verdict.c"
	cmp "$BATS_TEST_DIRNAME/../common/report/verdict.c" "$SC_MUTANTS_DIR/common/report/verdict.c"
}

@test "a row keyed on a function (FILE@FUNCTION) finds its pattern there only, and mutates it there" {
	# the row names the function that holds its pattern
	row scoped common/report/verdict.c@sc_verdict_compute 'v->flagged = head_ms >= t->added_ms;' 'v->flagged = head_ms > t->added_ms;' unit:test_verdict
	run bash "$RUN"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -Eq '^scoped +common/report/verdict.c +[0-9]+: unit:test_verdict +test_verdict: added_and_removed' <<<"$output"
	# a pattern outside the function, or a function that is not there: stale
	: >"$TABLE"
	row outside common/report/verdict.c@sc_verdict_reason 'v->flagged = head_ms >= t->added_ms;' 'x' unit:test_verdict
	run --separate-stderr bash "$RUN"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"mutant outside: its pattern occurs 0 times in common/report/verdict.c@sc_verdict_reason, not once"* ]]
	: >"$TABLE"
	row nofunc common/report/verdict.c@no_such_function 'v->flagged' 'x' unit:test_verdict
	run --separate-stderr bash "$RUN"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"mutant nofunc: no function no_such_function in common/report/verdict.c"* ]]
}
