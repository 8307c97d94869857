#!/usr/bin/env bats
# The test lint (t/lint/lint.py): it rejects every shape of an assertion that
# cannot fail, sleep-ordering and checkout paths, naming file, line and rule;
# it accepts their honest neighbours; and the real suites pass it.

bats_require_minimum_version 1.5.0

setup() {
	LINT="$BATS_TEST_DIRNAME/lint/lint.py"
	SAMPLES="$BATS_TEST_DIRNAME/lint"
}

@test "lint: the bad sample fails, with exactly the expected finding on each marked line" {
	local bad=$SAMPLES/bad-sample.bats.txt want got
	run /usr/bin/python3 "$LINT" "$bad"
	echo "$output"
	[ "$status" -eq 1 ]
	want=$(awk -v f="$bad" '/# expect: / { sub(/.*# expect: /, ""); print f ":" NR ": " $0 }' "$bad")
	got=$(printf '%s\n' "$output" | sed 's/^\([^:]*:[0-9]*: [a-z-]*\):.*/\1/')
	[ "$(printf '%s\n' "$want" | wc -l)" -ge 15 ]
	diff <(printf '%s\n' "$want") <(printf '%s\n' "$got")
}

@test "lint: the good sample passes" {
	run /usr/bin/python3 "$LINT" "$SAMPLES/good-sample.bats.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "lint: an allow-marker accepts its rule only, and only with a reason" {
	local f=$BATS_TEST_TMPDIR/m.bats
	printf '@test "x" {\n\tsleep 1 # lint-allow: sleep a poll interval\n}\n' >"$f"
	run /usr/bin/python3 "$LINT" "$f"
	[ "$status" -eq 0 ]
	printf '@test "x" {\n\tsleep 1 # lint-allow: sleep\n}\n' >"$f"
	run /usr/bin/python3 "$LINT" "$f"
	[ "$status" -eq 1 ]
	[ "$output" = "$f:2: sleep: ordering by sleep is a race: wait_for a readiness signal" ]
}

@test "lint: this checkout's suites, helpers, contrib, CI and Makefile pass" {
	run /usr/bin/python3 "$LINT"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
