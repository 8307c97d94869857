#!/usr/bin/env bats
# profile-run checks every precondition that needs no workspace before it
# creates one: a refused run leaves nothing behind, and the same command
# works once the cause is fixed.  (A failure after the workspace exists
# names the folder to remove: the self-test test in profile-run.bats.)

bats_require_minimum_version 1.5.0
load helpers
load lib/project

# The project repositories once per file; setup copies them (t/lib/project.bash).
setup_file() { project_template; }

setup() {
	project_base
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
}

@test "a refused precondition leaves no workspace; the same command then works" {
	# Dependency with modified sources.
	echo '-- edited' >>"$DEPS/tinylib/Tiny/Core.lean"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"modified tracked files"* ]]
	[ ! -e "$WS" ]
	git -C "$DEPS/tinylib" checkout -q -- .
	# Toolchain of another version.
	cp -a "$TC" "$BATS_TEST_TMPDIR/tc"
	echo 4.33.0 >"$BATS_TEST_TMPDIR/tc/lib/fixture-version"
	TC=$BATS_TEST_TMPDIR/tc profile
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"does not match lean-toolchain"* ]]
	[ ! -e "$WS" ]
	# Missing dependencies folder, bad revision.
	DEPS=$BATS_TEST_TMPDIR/nodeps profile
	[ "$status" -eq 2 ]
	[ ! -e "$WS" ]
	H=${H:0:7} profile
	[ "$status" -eq 2 ]
	assert_error_line sc-plan
	[ ! -e "$WS" ]
	# Fixed: the very same workspace path is fresh.
	profile
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ -f "$WS/report.json" ]
}

@test "a wrong bubblewrap pin and a workspace inside the toolchain leave no workspace" {
	cp -a "$TC" "$BATS_TEST_TMPDIR/tc"
	TC=$BATS_TEST_TMPDIR/tc WS=$BATS_TEST_TMPDIR/tc/ws profile
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"toolchain and workspace overlap"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/tc/ws" ]
	sed -i 's/bwrapSha256 = .*/bwrapSha256 = 0000000000000000000000000000000000000000000000000000000000000000/' "$R/.sphereceti"
	T=$(ex_commit "$R" "wrong pin")
	profile
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"sc-sandbox-exec: error: "* ]]
	[ ! -e "$WS" ]
}
