#!/usr/bin/env bats
# sphereceti profile-run end to end: real git, real bwrap, real GNU time, the
# fixture toolchain.  Verdicts in the complete run use the report's test
# knobs (--threshold-delta 1 --threshold-added 2, recorded in report.json):
# real thresholds (+30 s, 150 s) would need minutes of CPU per test.

bats_require_minimum_version 1.5.0
load helpers
load lib/project

setup() {
	project_base
}


@test "complete run: modified, added, removed and roadmap files, verdicts, workspace layout" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- reworded' '-- fixture: cpu=0.06'
	ex_lean "$R" Demo/Ring.lean '-- heavy' '-- fixture: cpu=1.60'
	ex_lean "$R" Demo/Field.lean '-- new' '-- fixture: cpu=0.10'
	rm "$R/Demo/Legacy.lean"
	ex_lean "$R" Roadmap/Goals.lean '-- more' '-- fixture: cpu=0.06'
	head_commit
	local before
	before=$(repo_state "$R")
	profile --threshold-delta 1 --threshold-added 2
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(jqr .status)" = ok ]
	[ "$(jqr '.files | length')" -eq 5 ]
	[ "$(file_field Demo/Ring.lean .flagged)" = true ]
	[ "$(file_field Demo/Basic.lean .flagged)" = false ]
	[ "$(file_field Demo/Field.lean .change)" = added ]
	[ "$(file_field Demo/Field.lean .flagged)" = false ]
	[ "$(file_field Demo/Legacy.lean .change)" = removed ]
	[ "$(file_field Demo/Legacy.lean .flagged)" = false ]
	[ "$(file_field Roadmap/Goals.lean .role)" = roadmap ]
	# Counted CPU is the fixture's burn plus start-up, never less.
	jq -e '.files[] | select(.path == "Demo/Ring.lean") | .head.cpu_s >= 1.5 and .head.cpu_s < 4' "$WS/report.json"
	# Bound to this run's plan and revisions.
	[ "$(jqr .plan_digest)" = "$(sha256sum "$WS/plan.json" | cut -d' ' -f1)" ]
	[ "$(jqr .revisions.head)" = "$H" ]
	[ "$(jqr .revisions.merge_base)" = "$M" ]
	# Workspace: plan, both trees, raw counters, reports; no marker left.
	[ -f "$WS/base/Demo/Legacy.lean" ]
	[ ! -e "$WS/head/Demo/Legacy.lean" ]
	[ -f "$WS/head/Demo/Field.lean" ]
	[ ! -e "$WS/base/Demo/Field.lean" ]
	ls "$WS/raw" | grep -qx 'head-Demo.Ring.time'
	ls "$WS/raw" | grep -qx 'base-Demo.Legacy.time'
	[ ! -e "$WS/raw/head-Demo.Legacy.time" ]
	[ -f "$WS/report.md" ]
	[ ! -e "$WS/INCOMPLETE" ]
	grep -q 'Demo/Ring.lean' "$WS/report.md"
	# Progress: one line per step; stdout names the report.
	[ "$(grep -c '^\[[0-9]*/10\] ' <<<"$stderr")" -eq 10 ]
	grep -q "report: $WS/report.md" <<<"$output"
	# The source repository was only read.
	[ "$(repo_state "$R")" = "$before" ]
	no_process_left
}

@test "--quiet prints no progress; the dispatcher and sc-profile-run agree" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	profile --quiet
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(jqr .status)" = ok ]
	[ "$(file_field Demo/Basic.lean .flagged)" = false ]
}

@test "hostile candidate: no credentials, no network, no forged counters, deps and raw untouched" {
	local port_file=$BATS_TEST_TMPDIR/port got=$BATS_TEST_TMPDIR/got
	# A loopback listener that records any connection.
	python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
s.settimeout(30)
try:
    c, _ = s.accept(); open(sys.argv[2], "w").write("connected")
except Exception:
    pass
' "$port_file" "$got" 3>&- &
	local listener=$!
	wait_for 30 test -s "$port_file"
	local port
	port=$(cat "$port_file")
	candidate
	ex_lean "$R" Demo/Basic.lean \
		'-- fixture: read-env=GITHUB_TOKEN read-env=AWS_SECRET_ACCESS_KEY read-env=HOME' \
		"-- fixture: connect=127.0.0.1:$port" \
		'-- fixture: print-counters' \
		'-- fixture: write=/project/.lake/packages/tinylib/Tiny/Core.lean' \
		"-- fixture: write=$WS/raw/head-Demo.Basic.time" \
		"-- fixture: read=$HOME/.gitconfig read=/root/.ssh/id_rsa" \
		'-- fixture: cpu=0.05'
	head_commit
	git config --global user.name "Secret Person"
	local deps_before repo_before
	deps_before=$(tree_state "$DEPS")
	repo_before=$(repo_state "$R")
	GITHUB_TOKEN=ghp_sphereceti_test_token AWS_SECRET_ACCESS_KEY=aws-secret-for-test profile
	kill "$listener" 2>/dev/null || true
	echo "$stderr"
	[ "$status" -eq 0 ]
	local log=$WS/head/.fixture-log
	cat "$log"
	# The attempts ran (so the test can fail) and found nothing.
	grep -qx 'read-env GITHUB_TOKEN -> unset' "$log"
	grep -qx 'read-env AWS_SECRET_ACCESS_KEY -> unset' "$log"
	grep -q "^connect 127.0.0.1:$port -> E" "$log"
	[ ! -e "$got" ]
	grep -q '^write /project/.lake/packages/tinylib/Tiny/Core.lean -> E' "$log"
	grep -q "^write $WS/raw/head-Demo.Basic.time -> E" "$log"
	grep -q "^read $HOME/.gitconfig -> E" "$log"
	grep -q '^print-counters -> printed' "$log"
	# Nothing forged reached the host: counters are the real ones.
	run ! grep -q 'forged' <<<"$output$stderr" # first: run replaces $output
	run ! grep -rq 'ghp_sphereceti_test_token\|aws-secret-for-test' "$WS"
	run ! grep -q 'forged\|user=0.01' "$WS/raw/head-Demo.Basic.time"
	jq -e '.files[0].head.cpu_s >= 0.04' "$WS/report.json"
	[ "$(tree_state "$DEPS")" = "$deps_before" ]
	[ "$(repo_state "$R")" = "$repo_before" ]
}

@test "failed elaboration is a measurement error with no verdict" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.05 fail'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 1 ]
	[ "$(jqr .status)" = error ]
	[ "$(file_field Demo/Basic.lean .head.error)" = failed ]
	[ "$(file_field Demo/Basic.lean .flagged)" != true ]
	[ "$(file_field Demo/Basic.lean .ratio)" = null ]
	# The other file still has its comparison.
	[ "$(file_field Demo/Ring.lean '.head.error // empty')" = "" ]
	[ ! -e "$WS/INCOMPLETE" ]
}

@test "a failed prebuild stops that side and is reported as such" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: build-fail'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Basic.lean .head.error)" = prebuild_failed ]
	[ "$(file_field Demo/Ring.lean .head.error)" = prebuild_failed ]
	[ "$(file_field Demo/Ring.lean '.base.error // empty')" = "" ]
	grep -q 'head prebuild.*FAILED' <<<"$stderr"
}

@test "a sample timeout ends the candidate, leaves nothing running" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: ignore-term orphan-hang hang'
	head_commit
	profile --sample-timeout 1
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Basic.lean .head.error)" = timeout ]
	no_process_left
}

@test "the phase timeout covers all samples: later samples are not run" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: hang'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile --sample-timeout 30 --phase-timeout 2
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Basic.lean .head.error)" = timeout ]
	[ "$(file_field Demo/Ring.lean .head.error)" = deadline_exceeded ]
	no_process_left
}

@test "an existing workspace is refused, never resumed or overwritten" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	mkdir "$WS"
	echo keep >"$WS/mine"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'workspace already exists' <<<"$stderr"
	[ "$(ls "$WS")" = mine ]
}

@test "a Lake configuration bump between T and H is rejected, not measured" {
	candidate
	printf 'leanprover/lean4:v4.35.0\n' >"$R/lean-toolchain"
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-plan
	[ ! -e "$WS/report.json" ]
	[ ! -e "$WS/head" ]
}

@test "a dependency at the wrong commit or with modified sources is refused" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	echo '-- edited' >>"$DEPS/tinylib/Tiny/Core.lean"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'modified tracked files' <<<"$stderr"
	[ ! -e "$WS/base" ]

	rm -rf "$WS"
	ex_commit "$DEPS/tinylib" moved >/dev/null
	profile
	[ "$status" -eq 2 ]
	grep -q 'dependency "tinylib" is at' <<<"$stderr"

	rm -rf "$WS" "$DEPS/tinylib"
	profile
	[ "$status" -eq 2 ]
	grep -q 'dependency "tinylib" is missing' <<<"$stderr"
}

@test "a toolchain whose version does not match lean-toolchain is refused" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	cp -a "$TC" "$BATS_TEST_TMPDIR/tc"
	echo 4.33.0 >"$BATS_TEST_TMPDIR/tc/lib/fixture-version"
	TC=$BATS_TEST_TMPDIR/tc profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'does not match lean-toolchain' <<<"$stderr"
	[ ! -e "$WS/base" ]
}

@test "a wrong bubblewrap pin is refused before anything runs" {
	sed -i 's/bwrapSha256 = .*/bwrapSha256 = 0000000000000000000000000000000000000000000000000000000000000000/' "$R/.sphereceti"
	T=$(ex_commit "$R" "wrong pin")
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"sc-sandbox-exec: error: "* ]]
	[ ! -e "$WS/base" ]
}

@test "a failing sandbox self-test is a precondition failure: its one line, exit 2, nothing run" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	# The self-test makes its folder under TMPDIR; one that does not exist
	# fails it while it runs beside the other checks and the materializing.
	[ -z "${SC_VALGRIND:-}" ] || skip "valgrind itself cannot start without TMPDIR"
	TMPDIR=$BATS_TEST_TMPDIR/no-such-dir profile
	echo "$stderr"
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"cannot create a self-test folder"* ]]
	[ -e "$WS/INCOMPLETE" ]
	[ ! -e "$WS/raw" ]
	[ ! -e "$WS/samples.jsonl" ]
	[ ! -e "$WS/report.json" ]
}

@test "no bubblewrap pin at all is refused" {
	sed -i '/^\[sandbox\]/,$d' "$R/.sphereceti"
	T=$(ex_commit "$R" "no pin")
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'no bubblewrap pin' <<<"$stderr"
}

@test "no_changes end to end" {
	candidate
	printf 'docs\n' >"$R/NOTES.md"
	head_commit
	profile
	[ "$status" -eq 0 ]
	[ "$(jqr .status)" = no_changes ]
	[ ! -e "$WS/base" ]
	[ ! -e "$WS/INCOMPLETE" ]
}

@test "bad usage: missing option, bad timeout" {
	H=$M
	run --separate-stderr "$SC_BIN/sphereceti" profile-run --repo "$R"
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	profile --sample-timeout -3
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[ ! -e "$WS" ]
}

@test "a workspace inside the toolchain or the dependencies is refused" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	cp -a "$TC" "$BATS_TEST_TMPDIR/tc"
	TC=$BATS_TEST_TMPDIR/tc WS=$BATS_TEST_TMPDIR/tc/ws profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'toolchain and workspace overlap' <<<"$stderr"
	WS=$DEPS/ws profile
	[ "$status" -eq 2 ]
	grep -q 'dependencies and workspace overlap' <<<"$stderr"
}

@test "a dependency that is a symlink, not a checkout of its own, is refused" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	mv "$DEPS/tinylib" "$BATS_TEST_TMPDIR/tinylib-real"
	ln -s "$BATS_TEST_TMPDIR/tinylib-real" "$DEPS/tinylib"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'not an ordinary directory' <<<"$stderr"
	rm -rf "$WS" "$DEPS/tinylib"
	mkdir -p "$DEPS/tinylib/Tiny"
	profile
	[ "$status" -eq 2 ]
	grep -q 'not a Git checkout of its own' <<<"$stderr"
}

@test "a lake-manifest.json outside the supported shape is refused" {
	jq '.packagesDir = "vendor"' "$R/lake-manifest.json" >"$R/m" && mv "$R/m" "$R/lake-manifest.json"
	M=$(ex_commit "$R" "packagesDir vendor")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'packagesDir is "vendor"' <<<"$stderr"
	[ ! -e "$WS/base" ]
}
