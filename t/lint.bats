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

@test "lint: the checkout's own path is a finding, a longer name it is a prefix of is not" {
	local top=$BATS_TEST_TMPDIR/sc
	mkdir -p "$top/t/lint"
	cp "$LINT" "$top/t/lint/lint.py"
	printf '@test "x" {\n\tls %s-pin-1\n\tls %s.d\n\tls %s/t\n}\n' "$top" "$top" "$top" >"$top/t/x.bats"
	run /usr/bin/python3 "$top/t/lint/lint.py" "$top/t/x.bats"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "${lines[0]}" = "$top/t/x.bats:4: abs-path: names a checkout's absolute path: $top" ]
}

@test "lint: this checkout's suites, helpers, contrib, CI and Makefile pass" {
	run /usr/bin/python3 "$LINT"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "doccite: the tree's citations of the design exist; a missing section, a file outside the tree and an issue number are each a finding" {
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/lint/doccite.py"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# the sample's citations are put together here, so that the lint of
	# this tree does not find them in this file
	local r=$BATS_TEST_TMPDIR/tree d=Documentation
	mkdir -p "$r/$d" "$r/common"
	printf 'Title\n=====\n\nGood part\n---------\ntext\n' >"$r/$d/a.txt"
	printf '/* %s */\n' "$d/a.txt \"Good part\"" "$d/a.txt \"No such part\"" \
		"$d/b.txt \"Good part\"" "see DESIGN"".md" "fixed in iss""ue 12" >"$r/common/x.c"
	git init -q "$r"
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/lint/doccite.py" "$r"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[0]}" = "common/x.c:2: cites section \"No such part\" of $d/a.txt, which has none" ]
	[ "${lines[1]}" = "common/x.c:3: cites $d/b.txt, which does not exist" ]
	[ "${lines[2]}" = "common/x.c:4: cites DESIGN"".md, a file outside the tree (cite $d/)" ]
	[ "${lines[3]}" = 'common/x.c:5: cites a tracker iss''ue by number (say what the rule is)' ]
}

@test "doc: measurement.txt names every error a sample can carry" {
	local top=$BATS_TEST_DIRNAME/.. reasons r
	reasons=$(sed -n '/^static const char \*const error_names\[\] = {/,/};/p' "$top/common/contract/sample.c" |
		grep -o '"[a-z_]*"' | tr -d '"')
	[ "$(wc -w <<<"$reasons")" -ge 14 ]
	for r in $reasons; do
		grep -qw "$r" "$top/Documentation/measurement.txt" || { echo "not in measurement.txt: $r"; false; }
	done
}

@test "doc: architecture.txt lists exactly the exit codes util/die.h defines, and 128+N" {
	local top=$BATS_TEST_DIRNAME/.. defined listed
	defined=$(sed -n 's/^\tSC_EXIT_[A-Z]* = \([0-9]*\),.*/\1/p' "$top/common/util/die.h" | sort -n | tr '\n' ' ')
	listed=$(sed -n '/^Exit codes are the same everywhere/,/^$/d; /^  [0-9][0-9+N]*  /p' "$top/Documentation/architecture.txt" |
		awk '{print $1}' | tr '\n' ' ')
	[ "$(wc -w <<<"$defined")" -ge 5 ]
	[ "$listed" = "${defined}128+N " ]
}
