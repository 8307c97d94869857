#!/usr/bin/env bats
# sphereceti profile-run end to end: real git, real bwrap, real GNU time, the
# fixture toolchain.  Verdicts in the complete run use the report's test
# knobs (--threshold-delta 1 --threshold-added 2, recorded in report.json):
# real thresholds (+30 s, 150 s) would need minutes of CPU per test.

bats_require_minimum_version 1.5.0
load helpers
load lib/project

# The project repositories once per file; setup copies them (t/lib/project.bash).
setup_file() { project_template; }

setup() {
	project_base
}

# manifest_commit JQ_FILTER MESSAGE [JQ ARGS...]: edit lake-manifest.json and
# commit it as the new M (= T = B).
manifest_commit() {
	local filter=$1 msg=$2
	shift 2
	jq "$@" "$filter" "$R/lake-manifest.json" >"$R/m" && mv "$R/m" "$R/lake-manifest.json"
	M=$(ex_commit "$R" "$msg")
	T=$M B=$M
}

# dependency_commit MSG: commit tinylib's working tree, and the manifest at
# that rev (T = B = M).
dependency_commit() {
	ex_commit "$DEPS/tinylib" "$1" >/dev/null
	DEP_REV=$(ex_git -C "$DEPS/tinylib" rev-parse HEAD)
	manifest_commit '.packages[0].rev = $r' "dep rev" --arg r "$DEP_REV"
}

# failing_import_change: Demo/Basic.lean now imports Demo/Helper.lean, whose
# build fails (the prebuild builds imports only: +Mod:deps).
failing_import_change() {
	candidate
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-fail'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper'
	head_commit
}

# basic_change: a candidate whose only change is a cheap Demo/Basic.lean.
basic_change() {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
}


@test "complete run: modified, added, removed and roadmap files, verdicts, workspace layout" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- reworded' '-- fixture: cpu=0.06'
	ex_lean "$R" Demo/Ring.lean '-- heavy' '-- fixture: cpu=1.20'
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
	jq -e '.files[] | select(.path == "Demo/Ring.lean") | .head.cpu_s >= 1.1 and .head.cpu_s < 4' "$WS/report.json"
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
	# The terminal gets the report's headline in plain text, no markdown.
	[ "$(head -1 <<<"$output")" = "$(jqr .headline)" ]
	[[ "$output" == "1 of 5 files got slower beyond the thresholds: Demo/Ring.lean "*" s CPU ("*"×, +"* ]]
	[[ "$output" != *'**'* ]]
	[[ "$output" != *'<code>'* ]]
	# One figure everywhere: each progress line's CPU is the report's compared
	# CPU, truncated as the report truncates it
	local side path shown want compared=0
	while read -r side path want; do
		shown=$(sed -n "s|^\[[0-9]*/10\] $side $path: \([0-9.]*\) s CPU, .*|\1|p" <<<"$stderr")
		[ "$shown" = "$want" ] || { echo "$side $path: progress $shown, report $want"; false; }
		compared=$((compared + 1))
	done < <(jq -r '.files[] | . as $f | ("base", "head") | . as $s | $f[$s] | select(.status == "ok")
		| "\($s) \($f.path) \((.cpu_s * 1000 | round) / 10 | floor)"' "$WS/report.json" |
		awk '{ printf "%s %s %d.%02d\n", $1, $2, int($3 / 100), $3 % 100 }')
	[ "$compared" -eq 8 ]
	# Each side's prebuild: CPU, wall and peak memory, in both reports.
	jq -e '.prebuild | .base.status == "ok" and .head.status == "ok"
		and (.head.cpu_s | type) == "number" and .head.wall_s > 0 and .head.max_rss_kib > 0' "$WS/report.json"
	grep -qE '^\| head \| [0-9]+\.[0-9]{2} \| [0-9]+\.[0-9] \| [0-9]+ \|$' "$WS/report.md"
	# The source repository was only read.
	[ "$(repo_state "$R")" = "$before" ]
	no_process_left
}

@test "--quiet prints no progress; the dispatcher and sc-profile-run agree" {
	basic_change
	profile --quiet
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(jqr .status)" = ok ]
	[ "$(file_field Demo/Basic.lean .flagged)" = false ]
}

@test "hostile candidate: no credentials, no network, no forged counters, deps and raw untouched" {
	local port_file=$BATS_TEST_TMPDIR/port got=$BATS_TEST_TMPDIR/got
	# A loopback listener that records any connection.
	/usr/bin/python3 -c '
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
	[ ! -e "$got" ]
	if lake_kept; then
		local log=$WS/head/.lake/.fixture-log # the tree is read-only in the sandbox but for .lake
		cat "$log"
		# The attempts ran (so the test can fail) and found nothing.
		grep -qx 'read-env GITHUB_TOKEN -> unset' "$log"
		grep -qx 'read-env AWS_SECRET_ACCESS_KEY -> unset' "$log"
		grep -q "^connect 127.0.0.1:$port -> E" "$log"
		grep -q '^write /project/.lake/packages/tinylib/Tiny/Core.lean -> E' "$log"
		grep -q "^write $WS/raw/head-Demo.Basic.time -> E" "$log"
		grep -q "^read $HOME/.gitconfig -> E" "$log"
		grep -q '^print-counters -> printed' "$log"
	fi
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

@test "a failed prebuild stops the modules of its layer and after, and is reported as such; each step, each layer, is counted once" {
	candidate
	# the prebuild builds only the import cone (+Mod:deps): the failure is in an import
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-fail'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Basic.lean .head.error)" = prebuild_failed ]
	# Helper and Ring need nothing selected: their layer came first and was sampled
	[ "$(file_field Demo/Ring.lean '.head.error // empty')" = "" ]
	[ "$(file_field Demo/Ring.lean '.base.error // empty')" = "" ]
	grep -q 'head prebuild, layer 2 of 2 (1 module): FAILED' <<<"$stderr"
	grep -q "rerun with --keep-logs to keep Lake's output" <<<"$stderr"
	# every step counted once, each layer too: [1/N] .. [N/N], N the steps
	# (base: prebuild, 2 files; head: 2 layers, 3 files)
	local counted
	counted=$(grep -o '^\[[0-9]*/[0-9]*\]' <<<"$stderr" | tr -d '[]' | tr '\n' ' ')
	[ "$counted" = "1/8 2/8 3/8 4/8 5/8 6/8 7/8 8/8 " ]
	# The prebuild's own sample says so; the report names no runner's path.
	[ "$(jqr .prebuild.head.error)" = failed ]
	jqr '.errors[] | select(.sample == "head:@prebuild") | .source' | grep -qx 'samples\.jsonl:[0-9]*' 
	[[ "$output" == "Measurement incomplete — "*" problems with the samples (listed in report.md); "* ]]
	run ! grep -qF "$WS" "$WS/report.md"
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
	basic_change
	mkdir "$WS"
	echo keep >"$WS/mine"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'workspace already exists' <<<"$stderr"
	[ "$(ls "$WS")" = mine ]
}

@test "a Lake configuration bump between T and H is not measured (exit 4), nothing run" {
	candidate
	printf 'leanprover/lean4:v4.35.0\n' >"$R/lean-toolchain"
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 4 ]
	[[ "$stderr" == "sc-plan: error: not measured: Lake configuration differs from the tooling commit: lean-toolchain changed; the pull request changes it"* ]]
	assert_error_line sc-plan
	[ ! -e "$WS/report.json" ]
	[ ! -e "$WS/head" ]
}

@test "a dependency at the wrong commit or with modified sources is refused" {
	basic_change
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
	basic_change
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
	basic_change
	profile
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"sc-sandbox-exec: error: "* ]]
	[ ! -e "$WS/base" ]
}

@test "a failing sandbox self-test is a precondition failure: its one line, exit 2, nothing run" {
	basic_change
	# The self-test makes its folder under TMPDIR; one that does not exist
	# fails it while it runs beside the other checks and the materializing.
	[ -z "${SC_VALGRIND:-}" ] || skip "valgrind itself cannot start without TMPDIR"
	TMPDIR=$BATS_TEST_TMPDIR/no-such-dir profile
	echo "$stderr"
	[ "$status" -eq 2 ]
	# It fails while the trees are written: the workspace exists by then,
	# and the one line says so.
	assert_error_line sc-profile-run
	[[ "$stderr" == *"the sandbox self-test failed: sc-sandbox-exec: error: "*"no-such-dir"* ]]
	[[ "$stderr" == *"the workspace stays: remove $WS to retry"* ]]
	[ -e "$WS/INCOMPLETE" ]
	[ ! -e "$WS/raw" ]
	[ ! -e "$WS/samples.jsonl" ]
	[ ! -e "$WS/report.json" ]
}

@test "several bubblewrap pins in .sphereceti (bwrapPin, one per host image): the binary must match one" {
	local sha ver
	sha=$(sha256sum "$(readlink -f /usr/bin/bwrap)" | cut -d' ' -f1)
	ver=$(bwrap --version | sed -n 's/^bubblewrap //p')
	sed -i '/^\[sandbox\]/,$d' "$R/.sphereceti"
	printf '[sandbox]\n\tbwrapPin = 0.9.1 %s # another image\n\tbwrapPin = %s %s\n' \
		"$(printf 'e%.0s' {1..64})" "$ver" "$sha" >>"$R/.sphereceti"
	T=$(ex_commit "$R" "two pins")
	basic_change
	profile
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(jq -c '.config.bwrap_pins | map(.version)' "$WS/plan.json")" = "[\"0.9.1\",\"$ver\"]" ]
	# none of the pins is this host's: the line to paste is printed
	rm -rf "$WS"
	ex_git -C "$R" checkout -q "$T"
	sed -i "/bwrapPin = $ver/d" "$R/.sphereceti"
	T=$(ex_commit "$R" "only the other image")
	basic_change
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"commit this line under [sandbox] in .sphereceti on the base branch: bwrapPin = $ver $sha ("* ]]
	[ ! -e "$WS" ]
}

@test "no bubblewrap pin at all is refused" {
	sed -i '/^\[sandbox\]/,$d' "$R/.sphereceti"
	T=$(ex_commit "$R" "no pin")
	basic_change
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'no bubblewrap pin' <<<"$stderr"
	local sha ver
	sha=$(sha256sum "$(readlink -f /usr/bin/bwrap)" | cut -d' ' -f1)
	ver=$(bwrap --version | sed -n 's/^bubblewrap //p')
	[[ "$stderr" == *"commit this line under [sandbox] in .sphereceti on the base branch, after reviewing this host's bubblewrap: bwrapPin = $ver $sha (.sphereceti at ${T:0:12})" ]]
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

@test "in GitHub Actions the report links to the run on its server; a bad GITHUB_* value is refused before anything runs" {
	candidate
	printf 'docs\n' >"$R/NOTES.md"
	head_commit
	GITHUB_SERVER_URL=https://ghe.example.com GITHUB_REPOSITORY=owner/proj GITHUB_RUN_ID=42 profile
	[ "$status" -eq 0 ]
	grep -qx -- '- CI run: \[owner/proj run 42\](https://ghe.example.com/owner/proj/actions/runs/42)' "$WS/report.md"
	[ "$(jqr .environment.server_url)" = https://ghe.example.com ]
	rm -rf "$WS"
	GITHUB_SERVER_URL='https://x.example/a)[b](c' GITHUB_REPOSITORY=owner/proj GITHUB_RUN_ID=42 profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"GITHUB_SERVER_URL is not an http(s) URL"* ]]
	[ ! -e "$WS" ]
	GITHUB_REPOSITORY=owner/proj profile
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"GITHUB_REPOSITORY and GITHUB_RUN_ID go together (GITHUB_REPOSITORY)"* ]]
	[ ! -e "$WS" ]
}

@test "--base and --head swapped: still no_changes, and stderr and report.md say the head is already in the base" {
	basic_change
	local cand=$H
	B=$cand H=$M
	profile
	[ "$status" -eq 0 ]
	[ "$(jqr .status)" = no_changes ]
	[[ "$stderr" == *"sc-plan: warning: the head is already in the base (merged, or base and head swapped): nothing to measure (--head)"* ]]
	[[ "$stderr" != *"no changed library or roadmap Lean files"* ]]
	# the line under the title
	[ "$(grep -v -e '^# ' -e '^$' "$WS/report.md" | head -n1)" = "**The head is already in the base** (merged, or base and head swapped): nothing was measured." ]
	[[ "$output" == "The head is already in the base (merged, or base and head swapped): nothing was measured."* ]]
	# a real no_changes (no selected file changed) keeps its own words
	rm -rf "$WS"
	candidate
	printf 'docs\n' >"$R/NOTES.md"
	head_commit
	B=$M
	profile
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"no changed library or roadmap Lean files: nothing to measure"* ]]
	[[ "$stderr" != *"already in the base"* ]]
}

@test "bad usage: missing option, bad timeout, an option given twice; --help and --version" {
	H=$M
	run --separate-stderr "$SC_BIN/sphereceti" profile-run --repo "$R"
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"(--tooling, --base, --head, --workspace, --toolchain, --dependencies)" ]]
	profile --sample-timeout -3
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"--sample-timeout wants seconds above 0, at most 86400"* ]]
	profile --phase-timeout 86401
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	profile --sample-timeout=5 --sample-timeout 6
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"option given twice (--sample-timeout)" ]]
	profile --tmp-size 12
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[ ! -e "$WS" ]
	# thresholds are refused before anything runs, with sc-report's words
	profile --threshold-ratio abc
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"--threshold-ratio wants a decimal number"* ]]
	[ ! -e "$WS" ]
	profile --threshold-delta=-1
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[ ! -e "$WS" ]
	run --separate-stderr "$SC_BIN/sphereceti" profile-run --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^sc-profile-run\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	run --separate-stderr "$SC_BIN/sphereceti" profile-run -h
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: sphereceti profile-run --repo DIR"* ]]
	[[ "$output" == *"-q, --quiet"* ]]
	[ -z "$stderr" ]
}

@test "a workspace inside the toolchain or the dependencies is refused" {
	basic_change
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
	basic_change
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
	manifest_commit '.packagesDir = "vendor"' "packagesDir vendor"
	basic_change
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'packagesDir is "vendor"' <<<"$stderr"
	[ ! -e "$WS/base" ]
}

# ---- attacks on the measured source ----

# hostile_toolchain PYTHON: a copy of the fixture toolchain whose `lake`,
# after every `lake build`, runs PYTHON with /usr/bin/python3 in the
# package root (a real program, as a Lean initializer or #eval could).
hostile_toolchain() {
	local ht=$BATS_TEST_TMPDIR/hostile-toolchain
	cp -a "$TC" "$ht"
	mv "$ht/bin/lake" "$ht/bin/lake.real"
	printf '%s\n' "$1" > "$ht/after-build.py"
	cat > "$ht/bin/lake" <<'SH'
#!/usr/bin/bash
"${0%/*}/lake.real" "$@" || exit
if [ "$1" = build ]; then /usr/bin/python3 "${0%/*}/../after-build.py"; fi
SH
	chmod 755 "$ht/bin/lake"
	TC=$ht
}

@test "attack: a prebuild cannot rewrite the selected source: the tree is read-only, the file measured as planned" {
	candidate
	ex_lean "$R" Demo/Ring.lean '-- heavy' '-- fixture: cpu=1.20'
	head_commit
	hostile_toolchain 'p = "Demo/Ring.lean"
try:
    if "heavy" in open(p).read():
        open(p, "w").write("-- fixture: cpu=0.05\n")
except OSError as e:
    open(".lake/attack", "a").write("rewrite %s\n" % e.__class__.__name__)'
	profile --threshold-delta 1
	echo "$stderr"
	[ "$status" -eq 0 ]
	if lake_kept; then grep -qxE 'rewrite (PermissionError|OSError)' "$WS/head/.lake/attack"; fi
	[ "$(file_field Demo/Ring.lean '.head.error // empty')" = "" ]
	[ "$(file_field Demo/Ring.lean .flagged)" = true ]
	cmp "$WS/head/Demo/Ring.lean" <(git -C "$R" show "$H:Demo/Ring.lean")
	[ "$(id -u)" -eq 0 ] || return 0
	# as root, a uid/gid of the run's own (61184-65519), one for both sides
	local su
	su=$(jqr .environment.sandbox_user)
	[ "$su" = "${su%%:*}:${su%%:*}" ]
	[ "${su%%:*}" -ge 61184 ]
	[ "${su%%:*}" -le 65519 ]
}

@test "attack: a hostile long path plus a changed source cannot cost the report" {
	candidate
	# five 190-character folders: a 980-character path, whose source_changed
	# detail is longer than any bound a detail gets
	local dir=Demo c
	for c in A B C D E; do dir+=/$c$(printf 'x%.0s' {1..189}); done
	waiting_script
	ex_lean "$R" "$dir/Long.lean" '-- fixture: run=./wait.py cpu=0.05'
	head_commit
	change_during_sample "$dir/Long.lean"
	[ "$rc" -eq 1 ]
	[ "$(file_field "$dir/Long.lean" .head.error)" = source_changed ]
	[ "$(jqr .status)" = error ]
	[ -f "$WS/report.md" ]
	[ ! -e "$WS/INCOMPLETE" ]
	# the detail is cut at the sample model's bound, and says so
	detail=$(jq -r 'select(.error == "source_changed") | .detail' "$WS/samples.jsonl")
	[ "$(printf '%s' "$detail" | wc -c)" -le 1024 ]
	[[ "$detail" == *" [cut]" ]]
}

@test "attack: a FIFO or a link cannot be planted at a selected path; both files measured as planned" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- reworded' '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/Ring.lean '-- reworded' '-- fixture: cpu=0.05'
	head_commit
	hostile_toolchain 'import os
def attempt(what, f):
    try:
        f()
        open(".lake/attack", "a").write("%s ok\n" % what)
    except OSError as e:
        open(".lake/attack", "a").write("%s %s\n" % (what, e.__class__.__name__))
if "reworded" in open("Demo/Ring.lean").read():
    attempt("unlink", lambda: os.unlink("Demo/Ring.lean"))
    attempt("mkfifo", lambda: os.mkfifo("Demo/Ring.lean"))
    attempt("rename", lambda: os.rename("Demo/Basic.lean", "Demo/Basic.copy"))
    attempt("symlink", lambda: os.symlink("Basic.copy", "Demo/Basic.lean"))'
	run --separate-stderr timeout 300 "$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$T" \
		--base "$B" --head "$H" --workspace "$WS" --toolchain "$TC" --dependencies "$DEPS" --sample-timeout 10
	echo "$stderr"
	[ "$status" -eq 0 ]
	if lake_kept; then
		cat "$WS/head/.lake/attack"
		run ! grep -q ' ok$' "$WS/head/.lake/attack"
		[ "$(grep -c . "$WS/head/.lake/attack")" -eq 4 ]
	fi
	[ "$(file_field Demo/Ring.lean '.head.error // empty')" = "" ]
	[ "$(file_field Demo/Basic.lean '.head.error // empty')" = "" ]
}

@test "the tree is the operator's, only its .lake the sandbox user's while candidate code runs, and closed to the operator after; workspace 0700" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator"
	candidate
	ex_lean "$R" Demo/Ring.lean '-- reworded' '-- fixture: cpu=0.05' '-- fixture: run=./owner.sh'
	printf '#!/usr/bin/bash\nstat -c "%%u %%n" /project /project/Demo/Ring.lean /project/.lake > /project/.lake/owners\n' > "$R/owner.sh"
	chmod 755 "$R/owner.sh"
	head_commit
	profile --sandbox-user 65534:65534
	echo "$stderr"
	[ "$status" -eq 0 ]
	# seen from inside during the sample: the sandbox maps only its own uid (65534 = the
	# overflow uid too), so the host's root shows as 65534 as well; the host side:
	grep -q ' /project/.lake$' "$WS/head/.lake/owners"
	[ "$(stat -c %u "$WS/head")" -eq 0 ]
	[ "$(find "$WS/base" "$WS/head" -path '*/.lake' -prune -o ! -uid 0 -print | wc -l)" -eq 0 ]
	[ "$(find "$WS/base" "$WS/head" -path '*/.lake' -prune -o ! -gid 0 -print | wc -l)" -eq 0 ]
	[ "$(stat -c %u:%a "$WS/head/.lake")" = 65534:0 ]
	[ "$(stat -c %u:%a "$WS")" = 0:700 ]
	[ "$(stat -c %u "$WS/raw")" -eq 0 ]
	[ "$(stat -c %u "$WS/plan.json")" -eq 0 ]
	[ "$(jqr .environment.sandbox_user)" = "65534:65534" ]
	run --separate-stderr "$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$T" --base "$B" \
		--head "$H" --workspace "$WS.2" --toolchain "$TC" --dependencies "$DEPS" --sandbox-user root
	assert_error_line sc-profile-run
	[[ "$stderr" == *"never runs as root"* ]]
	[ ! -e "$WS.2" ]
}

@test "a non-root operator: the whole run as uid 65534 works, the sandbox runs as that uid" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to become another user"
	candidate
	ex_lean "$R" Demo/Ring.lean '-- reworded' '-- fixture: cpu=0.05'
	head_commit
	local home=$BATS_TEST_TMPDIR/nobody
	profile_as_nobody --workspace "$home/ws"
	echo "$stderr"
	[ "$status" -eq 0 ]
	WS=$home/ws
	[ "$(jqr .status)" = ok ]
	[ "$(jqr .environment.sandbox_user)" = "65534:65534" ]
	[ "$(stat -c %u "$WS/report.json")" -eq 65534 ]
	# a non-root operator cannot pick another sandbox user
	profile_as_nobody --workspace "$home/ws2" --sandbox-user 1000:1000
	assert_error_line sc-profile-run
	[[ "$stderr" == *"only root"* ]]
}

@test "a workspace the sandbox user cannot reach is a precondition failure" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator"
	candidate
	ex_lean "$R" Demo/Ring.lean '-- reworded' '-- fixture: cpu=0.05'
	head_commit
	mkdir -m 0700 "$BATS_TEST_TMPDIR/private"
	WS=$BATS_TEST_TMPDIR/private/ws
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"cannot search $BATS_TEST_TMPDIR/private "*"(the workspace)" ]]
	[ ! -e "$WS/raw" ]
}

# ---- measured the way Lake builds (t/fixture models real Lake) ----

@test "the sample is lake lean PATH -- -j1: the package's leanOptions apply (warningAsError fails a warning)" {
	printf 'leanOptions = { warningAsError = true }\n' | cat - "$R/lakefile.toml" >"$R/lf" && mv "$R/lf" "$R/lakefile.toml"
	M=$(ex_commit "$R" "warningAsError")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: warn'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Basic.lean .head.error)" = failed ]
	[ "$(file_field Demo/Ring.lean '.head.error // empty')" = "" ]
	# the report names the commands
	grep -qF '`lake lean FILE -- -j1`' "$WS/report.md"
	jqr .limits.text | grep -qF 'lake build +Mod:deps'
}

@test "the prebuild builds the import cone but not the selected module (+Mod:deps): its cost is paid once, in the sample" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: build-cpu=3 cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 0 ]
	if lake_kept; then [ ! -e "$WS/head/.lake/build/lib/lean/Demo/Basic.olean" ]; fi
	grep -q 'head prebuild (1 module): 0\.[0-9] s wall' <<<"$stderr"
}

@test "never silent: a prebuild longer than --progress-every says it is still running, with its layer and time, at least every interval" {
	ex_lean "$R" Demo/Util.lean '-- fixture: build-cpu=1.5'
	M=$(ex_commit "$R" "util")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Field.lean 'import Demo.Util' '-- fixture: cpu=0.01'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Field' '-- fixture: cpu=0.01'
	head_commit
	profile --progress-every 0.4
	[ "$status" -eq 0 ]
	# the head builds Util (1.5 s of CPU) in its first layer: ticks at 0.4,
	# 0.8, 1.2 s at least, numbered as the step they belong to
	[ "$(grep -c '^\[3/6\] head prebuild, layer 1 of 2: running for [0-9.]* s$' <<<"$stderr")" -ge 3 ]
	run ! grep -q 'head Demo/Field.lean: running for' <<<"$stderr"
	# 0 and words are no interval
	profile --progress-every 0
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-profile-run: error: --progress-every wants seconds above 0, at most 86400 (--progress-every 0)" ]
}

@test "a prebuild in two layers is one sample: every layer's CPU summed" {
	ex_lean "$R" Demo/Util.lean '-- fixture: build-cpu=0.4'
	M=$(ex_commit "$R" "util")
	T=$M B=$M
	candidate
	# layer 1 builds Field's cone (Util); Field is sampled; layer 2
	# builds Basic's cone (Field itself)
	ex_lean "$R" Demo/Field.lean 'import Demo.Util' '-- fixture: build-cpu=0.4 cpu=0.01'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Field' '-- fixture: cpu=0.05'
	head_commit
	profile
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -q 'head prebuild, layer 2 of 2 (1 module)' <<<"$stderr"
	[ "$(jqr .prebuild.head.status)" = ok ]
	jq -e '.prebuild.head.cpu_s >= 0.7' "$WS/report.json"
}

@test "a prebuild that ran out of time is prebuild_timeout, distinct from prebuild_failed" {
	candidate
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-cpu=30'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper'
	head_commit
	profile --prebuild-timeout 1
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Basic.lean .head.error)" = prebuild_timeout ]
	grep -q 'head prebuild, layer 2 of 2 (1 module): FAILED (prebuild_timeout; rerun with --keep-logs' <<<"$stderr"
	grep -q 'head Demo/Basic.lean: not run (prebuild_timeout)' <<<"$stderr"
}

# util_project: Demo/Basic.lean imports Demo/Util.lean (a 0.5 s build) at M.
util_project() {
	ex_lean "$R" Demo/Util.lean '-- fixture: build-cpu=0.5'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Util' '-- fixture: cpu=0.05'
	M=$(ex_commit "$R" "util")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean 'import Demo.Util' '-- fixture: cpu=0.06' \
		'-- fixture: write=/lake-cache/artifacts/evil write=/lake-cache/outputs/demo/evil.json'
	head_commit
}

@test "--cache: each prebuild restores the unchanged cone from the operator's cache (nothing elaborated); the cache keeps every byte, mode and owner after a hostile run" {
	util_project
	C=$BATS_TEST_TMPDIR/cache
	EX_TOOLCHAIN=$TC ex_trusted_build "$R" "$M" "$DEPS" "$BATS_TEST_TMPDIR/trusted" "$C"
	chmod -R o+rX "$C"
	sandbox_reach "$C"
	before=$(cd "$C" && find . -printf '%p %m %s %u %g\n' | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort)
	[ "$(find "$C/outputs/demo" -name '*.json' | wc -l)" -ge 3 ]
	profile --cache "$C" --keep-logs
	[ "$status" -eq 0 ]
	grep -qx 'Restored Demo.Util' "$WS/logs/base-prebuild.log"
	grep -qx 'Restored Demo.Util' "$WS/logs/head-prebuild.log"
	run ! grep -q '^Built ' "$WS/logs/base-prebuild.log" "$WS/logs/head-prebuild.log"
	if lake_kept; then
		grep -qxE 'write /lake-cache/artifacts/evil -> (EROFS|EACCES)' "$WS/head/.lake/.fixture-log"
		grep -qxE 'write /lake-cache/outputs/demo/evil.json -> (EROFS|EACCES)' "$WS/head/.lake/.fixture-log"
	fi
	after=$(cd "$C" && find . -printf '%p %m %s %u %g\n' | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort)
	[ "$before" = "$after" ]
	[ "$(jqr .environment.lake_artifact_cache)" = "operator prepared, read-only" ]
	grep -q '^- Lake artifact cache: operator prepared, read-only' "$WS/report.md"
}

@test "without --cache each prebuild elaborates the cone; the report says no cache" {
	util_project
	profile --keep-logs
	[ "$status" -eq 0 ]
	grep -qx 'Built Demo.Util' "$WS/logs/base-prebuild.log"
	grep -qx 'Built Demo.Util' "$WS/logs/head-prebuild.log"
	[ "$(jqr .environment.lake_artifact_cache)" = none ]
}

@test "--cache must exist and lie apart from the workspace, toolchain and dependencies (exit 2, nothing created)" {
	basic_change
	profile --cache "$BATS_TEST_TMPDIR/nocache"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the Lake cache folder is missing: fill it with a trusted build of T (LAKE_CACHE_DIR), or run without one ($BATS_TEST_TMPDIR/nocache)"* ]]
	profile --cache "$DEPS"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the Lake cache and dependencies overlap"* ]]
	mkdir -p "$BATS_TEST_TMPDIR/around"
	WS=$BATS_TEST_TMPDIR/around/ws
	profile --cache "$BATS_TEST_TMPDIR/around"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the Lake cache and workspace overlap"* ]]
	[ ! -e "$WS" ]
}

@test "preflight: a dependency whose prepared build is stale (Lake would rebuild it into the read-only mount) is named, exit 2, before any prebuild; prepared, all are checked in one Lake run" {
	# its options changed after the operator's build: every trace of it is stale
	printf 'name = "tinylib"\nleanOptions = { autoImplicit = false }\n[[lean_lib]]\nname = "Tiny"\n' >"$DEPS/tinylib/lakefile.toml"
	dependency_commit "options"
	basic_change
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'dependency "tinylib" was not prepared for this toolchain and workspace' <<<"$stderr"
	grep -q 'lake build. in a trusted checkout of T' <<<"$stderr"
	[ ! -e "$WS/raw/base-prebuild.time" ]
	# prepared again as the error says: it runs
	(cd "$DEPS/tinylib" && "$TC/bin/lake" build Tiny.Core >/dev/null)
	rm -rf "$WS"
	profile
	[ "$status" -eq 0 ]
	# all prepared: one Lake run checks every dependency, none alone
	ls "$WS/raw"
	[ -e "$WS/raw/base-dependencies-preflight.time" ]
	[ ! -e "$WS/raw/base-preflight-tinylib.time" ]
}

@test "preflight: Lake failing to load the workspace read-only is a precondition error (exit 2) before any build, naming the dependency" {
	# Lean 4.30 keeps a lakefile.lean's config cache in the dependency's own
	# .lake (Load/Lean/Elab.lean): missing there, Lake writes it -> read-only mount.
	rm -rf "$R" "$DEPS"
	cp -a "$SC_FIXTURE/toolchain" "$BATS_TEST_TMPDIR/tc30"
	echo 4.30.0 >"$BATS_TEST_TMPDIR/tc30/lib/fixture-version"
	TC=$BATS_TEST_TMPDIR/tc30 EX_LEAN_VERSION=4.30.0
	project_base
	printf 'import Lake\nopen Lake DSL\npackage tinylib\nlean_lib Tiny\n' >"$DEPS/tinylib/lakefile.lean"
	dependency_commit "lakefile.lean"
	basic_change
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'Lake could not load the base workspace in the sandbox' <<<"$stderr"
	# The dependency is named, and what is wrong with it.
	grep -qF 'dependency "tinylib" has no compiled lakefile.lean configuration (.lake/lakefile.olean and its .trace)' <<<"$stderr"
	grep -qF "run \`lake build\` (or \`lake env true\`) in $DEPS/tinylib with this toolchain" <<<"$stderr"
	[ ! -e "$WS/raw/base-prebuild.time" ]
	# prepared as the error says (Lake run once in the dependency): it runs
	(cd "$DEPS/tinylib" && "$TC/bin/lake" env true)
	rm -rf "$WS"
	profile
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
}

@test "preflight: a dependency's stale compiled lakefile.lean configuration (Lean 4.30) is named" {
	rm -rf "$R" "$DEPS"
	cp -a "$SC_FIXTURE/toolchain" "$BATS_TEST_TMPDIR/tc30"
	echo 4.30.0 >"$BATS_TEST_TMPDIR/tc30/lib/fixture-version"
	TC=$BATS_TEST_TMPDIR/tc30 EX_LEAN_VERSION=4.30.0
	project_base
	echo '-- config' >"$DEPS/tinylib/lakefile.lean"
	(cd "$DEPS/tinylib" && "$TC/bin/lake" env true)
	# The checkout moved on (a new lakefile.lean), nothing was rebuilt.
	echo '-- config, edited' >"$DEPS/tinylib/lakefile.lean"
	touch -d '+1 minute' "$DEPS/tinylib/lakefile.lean"
	dependency_commit "lakefile.lean"
	basic_change
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -qF 'dependency "tinylib" has a lakefile.lean newer than its compiled configuration' <<<"$stderr"
	[ ! -e "$WS/raw/base-prebuild.time" ]
}

@test "host dependency check runs git as the sandbox will: another owner is not 'not a Git checkout of its own'" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown"
	basic_change
	chown -R nobody: "$DEPS/tinylib"
	profile
	[[ "$stderr" != *"not a Git checkout of its own"* ]]
	[[ "$stderr" != *"has no HEAD commit"* ]]
}

@test "host dependency check: a dependency the sandbox's unprivileged user cannot read is refused (operator root)" {
	[ "$(id -u)" -eq 0 ] || skip "only root's sandbox drops to another uid"
	basic_change
	chmod 700 "$DEPS/tinylib"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q "dependency \"tinylib\" is not readable by the sandbox's unprivileged user" <<<"$stderr"
	[ ! -e "$WS/base" ]
}

@test "manifest: an escaped name «tinylib» is the folder tinylib; a subDir must exist in the checkout" {
	manifest_commit '.packages[0].name = "«tinylib»"' "escaped name"
	basic_change
	profile
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	manifest_commit '.packages[0].subDir = "inner"' "subDir"
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.07'
	head_commit
	rm -rf "$WS"
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'dependency "tinylib" has no package folder inner (its manifest subDir)' <<<"$stderr"
}

@test "contrib/real-lean-smoke.sh: one clear line for a missing toolchain; runs end to end (here with the fixture toolchain)" {
	run --separate-stderr bash "$BATS_TEST_DIRNAME/../contrib/real-lean-smoke.sh" "$BATS_TEST_TMPDIR/none"
	[ "$status" -eq 2 ]
	[ "$stderr" = "real-lean-smoke: error: no such toolchain folder ($BATS_TEST_TMPDIR/none)" ]
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr bash "$BATS_TEST_DIRNAME/../contrib/real-lean-smoke.sh" "$BATS_TEST_TMPDIR/empty"
	[ "$status" -eq 2 ]
	[ "${#stderr}" -gt 0 ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	SPHERECETI=$SC_BIN/sphereceti run --separate-stderr bash "$BATS_TEST_DIRNAME/../contrib/real-lean-smoke.sh" "$TC"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ "$output" == "real-lean-smoke: ok: Lean 4.34.0-rc1, "* ]]
}

@test "--keep-logs: each sandboxed invocation's output in logs/, never printed; the failure line and the report point to it" {
	failing_import_change
	profile --keep-logs
	[ "$status" -eq 1 ]
	grep -q 'fixture: build failing as asked' "$WS/logs/head-prebuild-2.log"
	[ -f "$WS/logs/base-preflight.log" ]
	[ -f "$WS/logs/base-prebuild.log" ]
	[ -f "$WS/logs/base-Demo.Basic.log" ]
	grep -qF "head prebuild, layer 2 of 2 (1 module): FAILED (lake build failed; Lake's output: logs/head-prebuild-2.log)" <<<"$stderr"
	[[ "$stderr$output" != *"failing as asked"* ]]
	[ "$(file_field Demo/Basic.lean .head.detail)" = "lake build of this side's selected modules failed (Lake's output: logs/head-prebuild-2.log)" ]
	[ -z "$(find "$WS/raw" -name '*.log')" ]
}

@test "without --keep-logs there is no logs/ and the failure line says how to keep Lake's output" {
	failing_import_change
	profile
	[ "$status" -eq 1 ]
	[ ! -e "$WS/logs" ]
	grep -qF "head prebuild, layer 2 of 2 (1 module): FAILED (lake build failed; rerun with --keep-logs to keep Lake's output)" <<<"$stderr"
	[ "$(file_field Demo/Basic.lean .head.detail)" = "lake build of this side's selected modules failed (rerun with --keep-logs to keep Lake's output)" ]
}

@test "profile.sourceDir: a library under src/ (package srcDir) is measured end to end; the plan sc-plan writes is the plan profile-run reads" {
	# Profile-run's reading of the plan refused module Demo.Basic
	# for src/Demo/Basic.lean (exit 3, "sc-plan wrote an invalid plan").
	ex_git -C "$R" checkout -q main
	mkdir -p "$R/src"
	ex_git -C "$R" mv Demo Roadmap src/
	sed -i '1i srcDir = "src"' "$R/lakefile.toml"
	printf '[profile]\n\tsourceDir = src\n' >>"$R/.sphereceti"
	M=$(ex_commit "$R" "sources under src")
	T=$M B=$M
	candidate
	ex_lean "$R" src/Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(file_field src/Demo/Basic.lean .module)" = Demo.Basic ]
	[ "$(file_field src/Demo/Basic.lean .head.status)" = ok ]
	[ "$(file_field src/Demo/Basic.lean .base.status)" = ok ]
}

@test "a selected file no lean_lib of lakefile.toml builds is not measured (exit 4, the file named) before any sandboxed run" {
	# .sphereceti selects roadmap = Roadmap, the lakefile has no
	# Roadmap lean_lib: every prebuild failed ("unknown module"), exit 1.
	ex_git -C "$R" checkout -q main
	printf 'name = "demo"\ndefaultTargets = ["Demo"]\n\n[[require]]\nname = "tinylib"\n\n[[lean_lib]]\nname = "Demo"\n' >"$R/lakefile.toml"
	M=$(ex_commit "$R" "no Roadmap library")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	ex_lean "$R" Roadmap/Goals.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 4 ]
	assert_error_line sc-plan
	[[ "$stderr" == *"no lean_lib of lakefile.toml builds module Roadmap.Goals from ., so Roadmap/Goals.lean cannot be measured"* ]]
	[ ! -e "$WS" ]
	# profile-plan says the same, from Git objects alone.
	run --separate-stderr "$SC_BIN/sphereceti" profile-plan --repo "$R" --tooling "$T" --base "$B" --head "$H"
	[ "$status" -eq 4 ]
	[[ "$stderr" == "sc-plan: error: not measured: no lean_lib of lakefile.toml builds module Roadmap.Goals"* ]]
}

@test "a selected file no lean_lib of lakefile.lean builds: Lake says so in the preflight, exit 4 naming the file, before any prebuild" {
	# With a lakefile.lean the host cannot read the libraries; the
	# run went through every prebuild ("unknown module") and exited 1.
	ex_git -C "$R" checkout -q main
	ex_git -C "$R" rm -q lakefile.toml
	printf 'import Lake\nopen Lake DSL\npackage demo\nlean_lib Demo\n' >"$R/lakefile.lean"
	M=$(ex_commit "$R" "lakefile.lean without Roadmap")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	ex_lean "$R" Roadmap/Added.lean '-- fixture: cpu=0.06'
	head_commit
	profile --keep-logs
	[ "$status" -eq 4 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"not measured: no lean_lib of T's configuration builds module Roadmap.Added, so Roadmap/Added.lean cannot be measured"* ]]
	[ ! -e "$WS/raw/base-prebuild.time" ]
	[ ! -e "$WS/raw/head-prebuild.time" ]
	# one check, in the first side's tree, for both sides' modules (Lake
	# resolves names; the added file exists only in the head tree)
	[ -e "$WS/logs/base-lake-targets.log" ]
	[ ! -e "$WS/raw/head-preflight.time" ]
	# with a lean_lib for it the run measures it; the check ran in the base
	# tree, where the added file is missing (a build error, not "unknown")
	ex_git -C "$R" checkout -q main
	printf 'import Lake\nopen Lake DSL\npackage demo\nlean_lib Demo\nlean_lib Roadmap\n' >"$R/lakefile.lean"
	M=$(ex_commit "$R" "Roadmap library")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	ex_lean "$R" Roadmap/Added.lean '-- fixture: cpu=0.06'
	head_commit
	rm -rf "$WS"
	profile
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(file_field Roadmap/Added.lean .head.status)" = ok ]
	[ "$(file_field Demo/Basic.lean .base.status)" = ok ]
	[ ! -e "$WS/raw/base-lake-targets.log" ]
}

# ---- importers (--importers N) ----

# slow_instance_change: at M, Demo/Inst.lean is cheap and two unchanged
# files import it (Demo/Use1.lean, Demo/Use2.lean, 0.10 s each); the
# candidate adds an instance to Demo/Inst.lean that costs each importer
# 0.9 s more (importer-cpu), and leaves its own file as fast as before.
slow_instance_change() {
	ex_lean "$R" Demo/Inst.lean '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/Use1.lean 'import Demo.Inst' '-- fixture: cpu=0.10'
	ex_lean "$R" Demo/Use2.lean 'import Demo.Inst' '-- fixture: cpu=0.10'
	M=$(ex_commit "$R" "instances and their users")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Inst.lean '-- a slow instance' '-- fixture: cpu=0.05 importer-cpu=0.9'
	head_commit
}

@test "--importers: an unchanged importer made 10x slower by a changed module is flagged; the changed module is not; absent without --importers" {
	slow_instance_change
	profile --importers 4 --threshold-delta 0.5
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(jqr '.importers | "\(.limit) \(.qualified) \(.measured)"')" = "4 2 2" ]
	[ "$(file_field Demo/Use1.lean .change)" = importer ]
	[ "$(file_field Demo/Use1.lean .flagged)" = true ]
	[ "$(file_field Demo/Use2.lean .flagged)" = true ]
	[ "$(file_field Demo/Use1.lean '.imports | join(",")')" = Demo.Inst ]
	[ "$(file_field Demo/Inst.lean .flagged)" = false ]
	jq -e '.files[] | select(.path == "Demo/Use1.lean") | .head.cpu_s >= 10 * .base.cpu_s * 0.5' "$WS/report.json"
	grep -q '^## Unchanged files that import a changed file$' "$WS/report.md"
	grep -qF -- '- <code>Demo/Use1.lean</code> imports `Demo.Inst`' "$WS/report.md" ||
		grep -qF -- '- Demo/Use1.lean imports `Demo.Inst`' "$WS/report.md" ||
		grep -qF 'Demo/Use1.lean' "$WS/report.md"
	[[ "$(jqr .headline)" == "0 of 1 changed file and 2 of 2 importers got slower beyond the thresholds: "* ]]
	# without --importers: today's run, the importers unseen
	rm -rf "$WS"
	profile --threshold-delta 0.5
	[ "$status" -eq 0 ]
	[ "$(jqr '.files | length')" -eq 1 ]
	[ "$(jqr '.importers // "none"')" = none ]
	[ "$(jqr .summary.flagged)" -eq 0 ]
}

@test "--importers: an importer the pull request breaks is an error sample naming it" {
	slow_instance_change
	ex_lean "$R" Demo/Inst.lean '-- a declaration its users need, removed' '-- fixture: cpu=0.05 importer-fail'
	head_commit
	profile --importers 4
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Use1.lean .change)" = importer ]
	[ "$(file_field Demo/Use1.lean .head.error)" = failed ]
	[ "$(file_field Demo/Use1.lean '.base.error // empty')" = "" ]
	jqr '.errors[].sample' | grep -qx 'head:Demo.Use1'
	grep -q 'head Demo/Use1.lean: FAILED' <<<"$stderr"
}

# ---- --confirm: repeats of a file near a threshold ----

@test "--confirm 2: a file near a threshold gets 2 more samples a side, the sides taking turns; the median decides; every sample kept" {
	candidate
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.6'
	ex_lean "$R" Demo/Basic.lean '-- reworded' '-- fixture: cpu=0.05'
	head_commit
	profile --confirm 2 --threshold-delta 0.1
	[ "$status" -eq 0 ]
	# Ring (0.05 -> 0.6) is repeated, Basic (unchanged cost) is not
	[ "$(file_field Demo/Ring.lean '.confirmation.base.cpu_s | length')" = 3 ]
	[ "$(file_field Demo/Ring.lean '.confirmation.head.cpu_s | length')" = 3 ]
	[ "$(file_field Demo/Basic.lean '.confirmation // "none"')" = none ]
	[ "$(file_field Demo/Ring.lean .verdict)" = flagged ]
	[ "$(file_field Demo/Ring.lean .confirmation.overturned)" = false ]
	# the figure compared is the median of the three
	local med
	med=$(file_field Demo/Ring.lean '.confirmation.head.cpu_s | sort | .[1]')
	[ "$(file_field Demo/Ring.lean .head.cpu_s)" = "$med" ]
	# base, head, base, head, in that order, each bound with its number
	[ "$(jq -r 'select(.sample | test("Demo.Ring$")) | "\(.sample) \(.repeat // 0)"' "$WS/samples.jsonl" | tr '\n' ,)" = "base:Demo.Ring 0,head:Demo.Ring 0,base:Demo.Ring 1,head:Demo.Ring 1,base:Demo.Ring 2,head:Demo.Ring 2," ]
	[ -f "$WS/raw/head-Demo.Ring@2.time" ]
	grep -q '^| <code>Demo/Ring.lean</code> | [0-9.]*, [0-9.]*, [0-9.]* | [0-9.]*, [0-9.]*, [0-9.]* | confirmed: flagged |$' "$WS/report.md"
	grep -q '^\[[0-9]*/[0-9]*\] confirming Demo/Ring.lean: 2 more samples a side$' <<<"$stderr"
}

@test "--confirm: a noisy file near the threshold is confirmed or overturned as the median of its samples says" {
	candidate
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.2 cpu-noise=0.05'
	head_commit
	local base_rev=$H
	git -C "$R" checkout -q -b noisy "$M"
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.2 cpu-noise=0.05'
	B=$(ex_commit "$R" "noisy base") T=$B
	ex_lean "$R" Demo/Ring.lean '-- a heavier proof' '-- fixture: cpu=0.34 cpu-noise=0.06'
	head_commit
	profile --confirm 2 --threshold-delta 0.01
	[ "$status" -eq 0 ]
	# near by construction: head 10 % dearer is always >= 1.5x base
	[ "$(file_field Demo/Ring.lean '.confirmation.head.cpu_s | length')" = 3 ]
	# the verdict is the median's, at 1.5x and +0.01 s, whatever the first samples said
	local want
	want=$(file_field Demo/Ring.lean '(.confirmation.base.cpu_s | sort | .[1]) as $b
		| (.confirmation.head.cpu_s | sort | .[1]) as $h
		| if ($h * 1000 | round) * 1000 >= ($b * 1000 | round) * 1500 and (($h - $b) * 1000 | round) >= 10
		  then "flagged" else "not_flagged" end')
	[ "$(file_field Demo/Ring.lean .verdict)" = "$want" ]
	[ "$(file_field Demo/Ring.lean '.confirmation.overturned')" = "$(file_field Demo/Ring.lean '.confirmation.first_verdict != .verdict')" ]
	[ "$base_rev" != "$H" ]
}

@test "--confirm: samples leave nothing in .lake for the next (read-only there); without it a sample may write" {
	candidate
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.6 write=/project/.lake/memo'
	head_commit
	profile --confirm 1 --threshold-delta 0.1 --keep-logs
	[ "$status" -eq 0 ]
	[ "$(file_field Demo/Ring.lean .verdict)" = flagged ]
	if lake_kept; then [ ! -e "$WS/head/.lake/memo" ]; fi
	[ "$(file_field Demo/Ring.lean '.confirmation.head.cpu_s | length')" = 2 ]
}

@test "--confirm 0 is the run without it: no repeat, no confirmation member, no raw file of a repeat; 5 is refused" {
	candidate
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.6'
	head_commit
	profile --confirm 0 --threshold-delta 0.1
	[ "$status" -eq 0 ]
	[ "$(file_field Demo/Ring.lean .verdict)" = flagged ]
	run ! grep -q '"repeat"' "$WS/samples.jsonl"
	[ "$(jq '[.files[] | select(.confirmation)] | length' "$WS/report.json")" = 0 ]
	[ "$(jqr '.attribution // "none"')" = none ]
	[ ! -e "$WS/attribution.json" ]
	[ -z "$(find "$WS/raw" -name '*@*')" ]
	rm -rf "$WS"
	profile --confirm 5
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-profile-run: error: --confirm wants a count of repeats from 0 to 4 (--confirm 5)" ]
}

# ---- --attribute: where a flagged file's time went, by Lean's own profile ----

@test "--attribute: the declaration whose cost grew comes first, then new and removed ones; categories summed; its runs are no samples" {
	candidate
	ex_lean "$R" Demo/Ring.lean '-- fixture: decl=Ring.cheap:0.05 decl=Ring.moved:0.05 decl=Ring.gone:0.05 decl=Ring.big:0.5'
	head_commit
	B=$H T=$H M=$H
	# the most expensive declaration is not the one that grew most
	ex_lean "$R" Demo/Ring.lean '-- fixture: decl=Ring.cheap:0.05 decl=Ring.moved:0.6 decl=Ring.fresh:0.2 decl=Ring.big:0.55'
	ex_lean "$R" Demo/Basic.lean '-- reworded, not flagged'
	head_commit
	profile --attribute --threshold-delta 0.1
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(file_field Demo/Ring.lean .verdict)" = flagged ]
	local a='.attribution.files[] | select(.path == "Demo/Ring.lean")'
	[ "$(jqr "$a | .declarations[0].name")" = Ring.moved ]
	[ "$(jqr "$a | .declarations[0].change")" = grown ]
	[ "$(jqr "$a | .declarations[1].name")" = Ring.fresh ]
	[ "$(jqr "$a | .declarations[1].change")" = new ]
	[ "$(jqr "$a | .declarations[2].name")" = Ring.big ]
	[ "$(jqr "$a | [.declarations[] | select(.change == \"removed\") | .name] | join(\",\")")" = Ring.gone ]
	[ "$(jqr "$a | [.declarations[] | .name] | index(\"Ring.cheap\")")" = null ]
	# three quarters of a declaration's time in its command, a quarter in Meta
	jq -e "$a | .declarations[0].head_ms > 500 and .declarations[0].base_ms < 100" "$WS/report.json"
	jq -e "$a | [.categories[] | select(.name == \"Meta\")][0].head_ms > 150" "$WS/report.json"
	jq -e "$a | .head.cpu_s > 0.8 and .base.cpu_s > 0.1" "$WS/report.json"
	# its runs are no samples: one sample a side, the verdict's figures theirs
	[ "$(jq -r 'select(.sample == "head:Demo.Ring") | .sample' "$WS/samples.jsonl" | wc -l)" = 1 ]
	run ! grep -q attribution "$WS/samples.jsonl"
	# one section, saying whose figures these are
	grep -q "^## Where the time went (Lean's own profiler)$" "$WS/report.md"
	grep -q 'a hostile head can forge them' "$WS/report.md"
	grep -q '^| <code>Ring.moved</code> | 0.05 | 0.60 | grew |$' "$WS/report.md"
	grep -q '^| <code>Ring.gone</code> | 0.05 | — | removed |$' "$WS/report.md"
	# Basic was not flagged: no attribution run
	[ "$(jqr '.attribution.files | length')" = 1 ]
	grep -q 'head Demo/Ring.lean, attribution: [0-9.]* s CPU (Lean.s profiler on; not a sample)$' <<<"$stderr"
}

@test "--attribute: reading Lean's profiles has a time limit; past it each profile is a note and the report is whole" {
	candidate
	ex_lean "$R" Demo/Ring.lean '-- fixture: decl=Ring.big:0.6'
	head_commit
	profile --attribute --threshold-delta 0.1
	[ "$status" -eq 0 ]
	local a='.attribution.files[] | select(.path == "Demo/Ring.lean")'
	[ "$(jqr "$a | .head.note")" = null ]
	# sc-report again on the same workspace, its reading time spent at once
	mkdir "$R/again"
	run --separate-stderr sc-report --plan "$WS/plan.json" --samples "$WS/samples.jsonl" \
		--out-dir "$R/again" --run-id "$(jqr .run_id)" --threshold-delta 0.1 \
		--attribution "$WS/attribution.json" --attribution-seconds 0.000001
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(jq -r "$a | .head.note" "$R/again/report.json")" = "Lean's profile was not read: the time for reading Lean's profiles was spent" ]
	[ "$(jq -r .status "$R/again/report.json")" = ok ]
	[ "$(jq -r "$a | .head.cpu_s > 0" "$R/again/report.json")" = true ]
	# a bad limit, or one without --attribution, is refused before anything is read or written
	mkdir "$R/refused"
	run --separate-stderr sc-report --plan "$WS/plan.json" --samples "$WS/samples.jsonl" \
		--out-dir "$R/refused" --attribution "$WS/attribution.json" --attribution-seconds 0
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-report: error: --attribution-seconds wants seconds above 0, at most 86400 (--attribution-seconds 0)" ]
	run --separate-stderr sc-report --plan /nonexistent/plan.json --samples "$WS/samples.jsonl" \
		--out-dir "$R/refused" --attribution-seconds 5
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sc-report: error: --attribution-seconds goes with --attribution"* ]]
	[ -z "$(ls -A "$R/refused")" ]
}
