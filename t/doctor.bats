#!/usr/bin/env bats
# sphereceti doctor (sc-doctor): profile-run's preconditions, one line each,
# every failure with its fix, all of them whatever fails; then the fix it
# names, applied, makes the line ok.

bats_require_minimum_version 1.5.0
load helpers
load lib/project

setup_file() { project_template; }

setup() {
	project_base
	WS=$BATS_TEST_TMPDIR/runs/ws
	mkdir -p "$BATS_TEST_TMPDIR/runs"
}

doctor() {
	run --separate-stderr sc-doctor --repo "$R" --tooling "$T" --toolchain "$TC" \
		--dependencies "$DEPS" --workspace "$WS" "$@"
}

# check NAME: that check's line.
check() { grep "^[a-zA-Z]*  *$1: " <<<"$output"; }

@test "doctor on a prepared machine: every check ok, exit 0, nothing created" {
	doctor
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	for c in host repository configuration bubblewrap toolchain dependencies workspace; do
		check "$c" | grep -q '^ok '
	done
	check sandbox | grep -qE '^(ok|warn) +sandbox: self-test ok'
	[ ! -e "$WS" ]
	# what no option names is skipped, not failed
	run --separate-stderr sc-doctor --workspace "$WS"
	[ "$status" -eq 0 ]
	check toolchain | grep -qx 'skip  toolchain: no --toolchain'
	check bubblewrap | grep -q '^skip  bubblewrap: .*bwrapPin = '
}

@test "doctor: every failing check is a line of its own with its fix, the others still run; exit 2, one error line" {
	sed -i '/bwrap/d' "$R/.sphereceti"
	T=$(ex_commit "$R" "no pin")
	mv "$DEPS/tinylib/.lake" "$BATS_TEST_TMPDIR/lake"
	WS=$BATS_TEST_TMPDIR/missing/ws
	TC=$TC/bin doctor
	[ "$status" -eq 2 ]

	[ "$stderr" = "sc-doctor: error: 4 of 9 checks failed; each FAIL line above says what to do (stdout)" ]
	check bubblewrap | grep -q "^FAIL  bubblewrap: T's .sphereceti pins no bubblewrap: after reviewing this host's, commit this line under \[sandbox\] on the base branch: bwrapPin = "
	check toolchain | grep -qxF "FAIL  toolchain: toolchain lacks executable bin/lean or bin/lake: this is its bin folder; pass the folder above it, $TC ($TC/bin)"
	check dependencies | grep -qF "FAIL  dependencies: dependency \"tinylib\" was never built: its .lake/build holds no module; prepare the dependencies folder with \`lake build\` in a trusted checkout of T"
	check workspace | grep -qF "FAIL  workspace: the folder that would hold the workspace is missing: create it first (mkdir -p $BATS_TEST_TMPDIR/missing)"
	check host | grep -q '^ok '
	check sandbox | grep -qE '^(ok|warn) '
	# each fix, as the lines say: all ok
	printf '[sandbox]\n\t%s\n' "$(check bubblewrap | grep -o 'bwrapPin = [0-9.]* [0-9a-f]*')" >>"$R/.sphereceti"
	T=$(ex_commit "$R" "the pin doctor named")
	mv "$BATS_TEST_TMPDIR/lake" "$DEPS/tinylib/.lake"
	mkdir -p "$BATS_TEST_TMPDIR/missing"
	doctor
	[ "$status" -eq 0 ]
}

@test "doctor with no options checks nothing: exit 2, one line saying what to pass" {
	run --separate-stderr sc-doctor
	[ "$status" -eq 2 ]
	assert_error_line sc-doctor
	[[ "$stderr" == "sc-doctor: error: nothing to check: name what profile-run will be given, --repo DIR --tooling T, "* ]]
	[ -z "$output" ]
}

@test "doctor: the repository's own failures: another user's (Git's ownership check, named), a revision it lacks, no .sphereceti at T" {
	sandbox_reach "$R"
	mkdir -m 0777 "$BATS_TEST_TMPDIR/nobody-home"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$BATS_TEST_TMPDIR/nobody-home" \
		"$SC_BIN/sc-doctor" --repo "$R" --tooling "$T"
	[ "$status" -eq 2 ]
	check repository | grep -qxF "FAIL  repository: Git refuses the repository: another user owns it (Git's safe.directory check); run as its owner, or mark it safe for this user with git config --global --add safe.directory $R ($R)"
	run --separate-stderr sc-doctor --repo "$R" --tooling no-such-branch
	[ "$status" -eq 2 ]
	check repository | grep -qxF "FAIL  repository: no commit no-such-branch in the repository: fetch it, or name the base branch's tip (no-such-branch)"
	git -C "$R" rm -q .sphereceti
	T=$(ex_commit "$R" "no configuration")
	run --separate-stderr sc-doctor --repo "$R" --tooling "$T"
	[ "$status" -eq 2 ]
	check configuration | grep -qxF 'FAIL  configuration: T has no .sphereceti: write it with `sphereceti init` in a checkout, and commit it to the base branch'
	# right after init: the checkout has one, no commit does yet
	git -C "$R" show HEAD~1:.sphereceti >"$R/.sphereceti"
	run --separate-stderr sc-doctor --repo "$R" --tooling "$T"
	[ "$status" -eq 2 ]
	check configuration | grep -qxF 'FAIL  configuration: T has no .sphereceti, the checkout has one: commit .sphereceti (and the workflows init wrote) to the base branch, then name that commit'
	rm "$R/.sphereceti"
	# any revision git resolves names T
	run --separate-stderr sc-doctor --repo "$R" --tooling HEAD~1
	check repository | grep -q "^ok    repository: $R at T ${M:0:12}"
}

@test "doctor: a pin that is not this bubblewrap's is the pin check's own line; a toolchain of another version, a dependency at another revision or edited: each named with its fix" {
	sed -i 's/bwrapSha256 = .*/bwrapSha256 = 0000000000000000000000000000000000000000000000000000000000000000/' "$R/.sphereceti"
	T=$(ex_commit "$R" "wrong pin")
	cp -a "$TC" "$BATS_TEST_TMPDIR/tc"
	echo 4.33.0 >"$BATS_TEST_TMPDIR/tc/lib/fixture-version"
	echo '-- edited' >>"$DEPS/tinylib/Tiny/Core.lean"
	TC=$BATS_TEST_TMPDIR/tc doctor
	[ "$status" -eq 2 ]

	check bubblewrap | grep -q "^FAIL  bubblewrap: sc-sandbox-exec: error: bubblewrap's SHA-256 is [0-9a-f]*, no pin says it .*commit this line under \[sandbox\]"
	check toolchain | grep -q '^FAIL  toolchain: toolchain version "Lean (version 4.33.0,.*" does not match lean-toolchain'
	check dependencies | grep -qF "FAIL  dependencies: dependency \"tinylib\" has modified tracked files (Tiny/Core.lean: content differs): restore them (git -C $DEPS/tinylib checkout -- .) or prepare it again"
	git -C "$DEPS/tinylib" checkout -q -- .
	git -C "$DEPS/tinylib" commit -q --allow-empty -m later
	doctor
	check dependencies | grep -qF "FAIL  dependencies: dependency \"tinylib\" is at $(git -C "$DEPS/tinylib" rev-parse --short=12 HEAD), manifest wants ${DEP_REV:0:12}: prepare it again at T's manifest (git -C $DEPS/tinylib checkout $DEP_REV"
}

@test "doctor: the workspace that exists already, and a folder the sandbox's user cannot pass (run as root)" {
	mkdir "$WS"
	doctor
	[ "$status" -eq 2 ]
	check workspace | grep -qxF "FAIL  workspace: workspace already exists; runs are never resumed or overwritten ($WS)"
	rmdir "$WS"
	[ "$(id -u)" = 0 ] || skip "only a root operator's sandbox runs as a user of its own"
	chmod 0700 "$BATS_TEST_TMPDIR/runs"
	doctor
	[ "$status" -eq 2 ]
	check reach | grep -q "^FAIL  reach: .*$BATS_TEST_TMPDIR/runs.*: give it search permission (the workspace)$"
	chmod 0711 "$BATS_TEST_TMPDIR/runs"
	doctor
	[ "$status" -eq 0 ]
}

@test "doctor: a bubblewrap that cannot make the sandbox fails the self-test, with its line" {
	printf '#!/bin/sh\necho "bubblewrap 0.8.0"\nexit 1\n' >"$BATS_TEST_TMPDIR/bwrap"
	chmod 0755 "$BATS_TEST_TMPDIR/bwrap"
	sandbox_reach "$BATS_TEST_TMPDIR/bwrap"
	doctor --bwrap "$BATS_TEST_TMPDIR/bwrap"
	[ "$status" -eq 2 ]
	check sandbox | grep -q '^FAIL  sandbox: '
	check bubblewrap | grep -q '^FAIL  bubblewrap: '
}

@test "doctor: a missing toolchain, dependencies or Lake cache folder, and a toolchain of another version, each say what to do; the cache on a line of its own" {
	doctor --cache "$BATS_TEST_TMPDIR/nocache"
	[ "$status" -eq 2 ]
	check cache | grep -qxF "FAIL  cache: the Lake cache folder is missing: fill it with a trusted build of T (LAKE_CACHE_DIR), or run without one ($BATS_TEST_TMPDIR/nocache)"
	check dependencies | grep -q '^ok '
	doctor
	check cache | grep -qx 'skip  cache: no --cache: the prebuilds elaborate their cones'
	TC=$BATS_TEST_TMPDIR/notc DEPS=$BATS_TEST_TMPDIR/nodeps doctor
	[ "$status" -eq 2 ]
	check toolchain | grep -qxF "FAIL  toolchain: toolchain folder is missing: install T's toolchain (elan toolchain install, with the name in T's lean-toolchain) and pass its folder, which elan keeps under ~/.elan/toolchains/ ($BATS_TEST_TMPDIR/notc)"
	check dependencies | grep -qxF "FAIL  dependencies: dependencies folder is missing: prepare it with \`lake build\` in a trusted checkout of T and pass its packages folder, .lake/packages ($BATS_TEST_TMPDIR/nodeps)"
	printf 'leanprover/lean4:v4.99.0\n' >"$R/lean-toolchain"
	T=$(ex_commit "$R" "another toolchain")
	doctor
	check toolchain | grep -q '^FAIL  toolchain: toolchain version ".*" does not match lean-toolchain "leanprover/lean4:v4.99.0": install that toolchain (elan toolchain install leanprover/lean4:v4.99.0) and pass its folder$'
}

@test "doctor and profile-run from a build the sandbox user cannot enter: install it, or build where every user can enter" {
	lake_kept || skip "the sandbox user differs from the operator only as root"
	closed=$BATS_TEST_TMPDIR/closed
	mkdir -p "$closed/bin"
	chmod 0700 "$closed"
	cp -a "$SC_BIN"/sc-* "$SC_BIN/sphereceti" "$closed/bin/"
	run --separate-stderr "$closed/bin/sc-doctor" --toolchain "$TC"
	[ "$status" -eq 2 ]
	check programs | grep -q "^FAIL  programs: the sandbox user [0-9]*:[0-9]* cannot search $closed (mode 700, owner 0:0), so bubblewrap cannot mount sphereceti's own programs into the sandbox: install sphereceti (make install), or build it where every user can enter ($closed/bin)$"
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	run --separate-stderr "$closed/bin/sphereceti" profile-run --repo "$R" --tooling "$T" --base "$B" \
		--head "$H" --workspace "$WS" --toolchain "$TC" --dependencies "$DEPS"
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"so bubblewrap cannot mount sphereceti's own programs into the sandbox: install sphereceti (make install), or build it where every user can enter ($closed/bin)" ]]
}
