#!/usr/bin/env bats
# make demo (contrib/demo.sh): it touches only what it makes, and a
# terminal gets plain text.

bats_require_minimum_version 1.5.0
load helpers

# modes PATH...: each folder's mode, from PATH up to this test's folder
# (a demo that opened any folder above its own opens one of these first;
# the folders above are shared with the tests running beside this one,
# whose sandbox_reach opens them).
modes() {
	local d
	for d in "$@"; do
		while [ "$d" != "$(dirname "$BATS_TEST_TMPDIR")" ] && [ "$d" != / ]; do
			stat -c '%a %n' "$d"
			d=$(dirname "$d")
		done
	done
}

@test "make demo: a folder above it the sandbox cannot pass is said, with where else to run, and nothing is changed" {
	[ "$(id -u)" = 0 ] || skip "only a root run gives the sandbox a user of its own"
	local closed=$BATS_TEST_TMPDIR/closed before
	mkdir -m 0700 "$closed"
	mkdir "$closed/tmp"
	before=$(modes "$closed/tmp")
	TMPDIR=$closed/tmp run --separate-stderr bash "$BATS_TEST_DIRNAME/../contrib/demo.sh"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"demo: error: the sandbox's user cannot pass $closed (mode 700), above the demo folder; run the demo where it can, e.g. TMPDIR=/tmp make demo (nothing was changed) ($closed/tmp)" ]]
	[ "$(modes "$closed/tmp")" = "$before" ]
	[ -z "$(ls -A "$closed/tmp")" ]
}

@test "make demo: one folder of its own, modes around it untouched, the report as plain text on the terminal" {
	local open=$BATS_TEST_TMPDIR/open before
	mkdir "$open"
	sandbox_reach "$open"
	before=$(modes "$open")
	TMPDIR=$open run --separate-stderr bash "$BATS_TEST_DIRNAME/../contrib/demo.sh"
	[ "$status" -eq 0 ]
	[ "$(modes "$open")" = "$before" ]
	# what it made: one folder
	[ "$(ls -A "$open" | wc -l)" -eq 1 ]
	local work
	work=$(echo "$open"/sphereceti-demo.*)
	[ -f "$work/run/report.md" ]
	[[ "$stderr" == *"demo: everything it made is in $work (rm -rf it when done)"* ]]
	# plain text: the table, no markdown or HTML (the example burns 0.40 s
	# and 2.40 s of CPU: each sample's own overhead moves the difference
	# either side of 2.00 on a loaded machine)
	grep -q '^Demo/Ring.lean  *modified  *0\.[0-9][0-9]  *2\.[0-9][0-9]  *[0-9]\.[0-9][0-9]×  *+[12]\.[0-9][0-9]  flagged: head ≥ 1.5× base and ≥ +1 s$' <<<"$output"
	# the headline is the report's
	grep -qxF "$(jq -r .headline "$work/run/report.json")" <<<"$output"
	rm -rf "$work"
	run ! grep -qE '<code>|&nbsp;|&#|\*\*|^\|' <<<"$output"
}
