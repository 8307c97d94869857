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

# with_manifest JQ_FILTER: T = B = M with lake-manifest.json so edited, H a
# cheap change on top of it.
with_manifest() {
	ex_git -C "$R" checkout -q main
	jq "$1" "$R/lake-manifest.json" >"$R/m"
	mv "$R/m" "$R/lake-manifest.json"
	M=$(ex_commit "$R" "manifest: $1")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	rm -rf "$WS"
}

@test "lake-manifest.json versions as Lake's getVersion reads them: 1.3.0, a suffix, schemaVersion run; 2.0.0 and 1.3 are one line, no workspace" {
	with_manifest '.version = "1.3.0"'
	profile
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	with_manifest 'del(.version) | .schemaVersion = "1.3.0-rc2"'
	profile
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	with_manifest '.version = "2.0.0"'
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"lake-manifest.json has schema version 2.0.0; Lake reads 0.5.0 (5) to 1.x.y (lake-manifest.json at "* ]]
	[ ! -e "$WS" ]
	with_manifest '.version = "1.3"'
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"lake-manifest.json has a schema version that is not x.y.z[-suffix] (lake-manifest.json at "* ]]
	[ ! -e "$WS" ]
}

# elan_home DIR: elan's folder as elan-init leaves it: bin/elan, its proxies
# (hard links) that fail without a configured toolchain, toolchains/.
elan_home() {
	mkdir -p "$1/bin" "$1/toolchains"
	printf '#!/bin/sh\necho "error: no default toolchain configured" >&2\nexit 1\n' >"$1/bin/elan"
	chmod +x "$1/bin/elan"
	ln "$1/bin/elan" "$1/bin/lean"
	ln "$1/bin/elan" "$1/bin/lake"
}

@test "elan's folder as --toolchain says what to pass instead" {
	elan_home "$BATS_TEST_TMPDIR/elan"
	TC=$BATS_TEST_TMPDIR/elan profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"the toolchain is elan's folder, whose bin/lean is elan's proxy, not a toolchain; pass the folder of an unpacked Lean release, which holds bin/lean and bin/lake: run 'elan toolchain install leanprover/lean4:v4.34.0-rc1', then pass the folder 'lean --print-prefix' prints in the project (usually $BATS_TEST_TMPDIR/elan/toolchains/leanprover--lean4---v4.34.0-rc1) ($BATS_TEST_TMPDIR/elan)" ]]
	[ ! -e "$WS" ]
}

@test "each refused input names its fix, and the fix it names works: the toolchain's bin folder, a missing dependency, one never built, a missing workspace parent" {
	# the toolchain's bin/ given for the toolchain
	TC=$TC/bin profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[ "$stderr" = "sc-profile-run: error: toolchain lacks executable bin/lean or bin/lake: this is its bin folder; pass the folder above it, $TC ($TC/bin)" ]
	[ ! -e "$WS" ]
	# a dependency never prepared
	mv "$DEPS/tinylib" "$BATS_TEST_TMPDIR/tinylib"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	local rev
	rev=$(git -C "$BATS_TEST_TMPDIR/tinylib" rev-parse HEAD)
	[ "$stderr" = "sc-profile-run: error: dependency \"tinylib\" is missing or not an ordinary directory: prepare the dependencies folder as T's .lake/packages after \`lake build\` in a trusted checkout of T (README \"Running it for real\", step 4), so that it holds tinylib at ${rev:0:12} ($DEPS/tinylib)" ]
	mv "$BATS_TEST_TMPDIR/tinylib" "$DEPS/tinylib"
	# a dependency checked out but never built (its prebuild would fail on a
	# read-only mount, every module of it)
	mv "$DEPS/tinylib/.lake" "$BATS_TEST_TMPDIR/tinylib-lake"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[ "$stderr" = "sc-profile-run: error: dependency \"tinylib\" was never built: its .lake/build holds no module; prepare the dependencies folder with \`lake build\` in a trusted checkout of T (README \"Running it for real\", step 4) ($DEPS/tinylib)" ]
	[ ! -e "$WS" ]
	mv "$BATS_TEST_TMPDIR/tinylib-lake" "$DEPS/tinylib/.lake"
	# the workspace's folder missing
	WS=$BATS_TEST_TMPDIR/not/yet/ws profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[ "$stderr" = "sc-profile-run: error: the folder that would hold the workspace is missing: create it first (mkdir -p $BATS_TEST_TMPDIR/not/yet), or name a workspace in a folder that exists ($BATS_TEST_TMPDIR/not/yet/ws)" ]
	[ ! -e "$BATS_TEST_TMPDIR/not" ]
	mkdir -p "$BATS_TEST_TMPDIR/not/yet"
	WS=$BATS_TEST_TMPDIR/not/yet/ws profile
	[ "$status" -eq 0 ]
}

@test "a file as --toolchain (e.g. bin/lean) says to pass the folder" {
	TC=$TC/bin/lean profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"the toolchain is a file, not a toolchain folder; pass the folder of an unpacked Lean release, which holds bin/lean and bin/lake: run 'elan toolchain install \$(cat lean-toolchain)', then pass the folder 'lean --print-prefix' prints in the project ($TC/bin/lean)" ]]
	[[ "$stderr" != *"is missing"* ]]
	[ ! -e "$WS" ]
}

# A dependency folder is data: in CI it comes back from a cache.  Each of
# these real Git features makes `git status` there start a program of the
# folder's choosing; the dependency check must start none of them, and the
# run goes on (the tracked files are clean).
# hook_program NAME: a program that leaves $BATS_TEST_TMPDIR/ran-NAME.
hook_program() {
	printf '#!/bin/bash\ntouch %q\ncat\n' "$BATS_TEST_TMPDIR/ran-$1" >"$BATS_TEST_TMPDIR/$1"
	chmod 755 "$BATS_TEST_TMPDIR/$1"
	echo "$BATS_TEST_TMPDIR/$1"
}

@test "no code from data folders: a dependency's core.fsmonitor hook never runs on the host" {
	git -C "$DEPS/tinylib" config core.fsmonitor "$(hook_program fsmonitor)"
	# git status runs it (what the check used to call)
	git -C "$DEPS/tinylib" status --porcelain >/dev/null
	[ -e "$BATS_TEST_TMPDIR/ran-fsmonitor" ]
	rm "$BATS_TEST_TMPDIR/ran-fsmonitor"
	profile
	[ "$status" -eq 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/ran-fsmonitor" ]
}

@test "no code from data folders: a dependency's filter driver never runs on the host" {
	printf '* filter=evil\n' >"$DEPS/tinylib/.git/info/attributes"
	git -C "$DEPS/tinylib" config filter.evil.clean "$(hook_program clean)"
	touch -d '2020-01-01' "$DEPS/tinylib/Tiny/Core.lean"
	git -C "$DEPS/tinylib" status --porcelain >/dev/null
	[ -e "$BATS_TEST_TMPDIR/ran-clean" ]
	rm "$BATS_TEST_TMPDIR/ran-clean"
	touch -d '2021-01-01' "$DEPS/tinylib/Tiny/Core.lean"
	profile
	[ "$status" -eq 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/ran-clean" ]
}

@test "no code from data folders: a replace ref cannot make a modified dependency look clean" {
	local dep=$DEPS/tinylib head fake
	head=$(git -C "$dep" rev-parse HEAD)
	echo '-- edited' >>"$dep/Tiny/Core.lean"
	# a commit whose tree holds the edit, standing in for HEAD
	git -C "$dep" add -A
	fake=$(git -C "$dep" commit-tree "$(git -C "$dep" write-tree)" -p "$head" -m fake)
	git -C "$dep" reset -q "$head"
	git -C "$dep" replace "$head" "$fake"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *'dependency "tinylib" has modified tracked files (Tiny/Core.lean: content differs)'* ]]
	[ ! -e "$WS" ]
}
