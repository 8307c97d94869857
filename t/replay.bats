#!/usr/bin/env bats
# contrib/github/profile.yml's profile job, its run: blocks replayed in
# order (t/lib/replay.py) against a local bare repository standing in for
# GitHub: each outcome ends in a check document.  Apart from github.bats,
# whose tests need none of this file's setup (a repository and a build).
load helpers
load lib/origin
load lib/project
# shellcheck source=../contrib/example/example.bash
. "$BATS_TEST_DIRNAME/../contrib/example/example.bash"

bats_require_minimum_version 1.5.0

setup() {
	/usr/bin/python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
}

# --- replaying the profile job ---------------------------------------------

# The replay's repositories and the profiler's build, once per file
# (setup_file): the example (git and lake), sphereceti's own repository at
# one commit, and the build (a full make, ~20 s of CPU) by the job's own
# build step, so each test copies what it changes instead of making it again.
setup_file() {
	/usr/bin/python3 -c 'import yaml' 2>/dev/null || return 0 # setup skips
	[ "$(id -u)" = 0 ] || return 0                            # replay_setup skips
	replay_template
}

# replay_template: in $BATS_FILE_TMPDIR/replay, the bare repositories
# standing in for GitHub (t/lib/origin.bash github_origin) and the
# profiler built from sphereceti's commit by the job's own build step (its
# run: block, read from the workflow the base branch holds), in a runner
# folder of its own.
replay_template() {
	local f=$BATS_FILE_TMPDIR/replay src=$BATS_TEST_DIRNAME/..
	export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.invalid
	github_origin "$src" "$f" "$SC_FIXTURE/toolchain" "$SC_BIN"
	git -C "$f/origin.git" show "$B:.github/workflows/sphereceti-profile.yml" >"$f/profile.yml"
	local run=$f/runner
	mkdir -p "$run"
	git clone -q "$f/sphereceti.git" "$run/sphereceti"
	git -C "$run/sphereceti" checkout -q --detach "$SC_COMMIT"
	/usr/bin/python3 - "$f/profile.yml" "$run" <<'PY'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))["jobs"]["profile"]
(step,) = [s for s in job["steps"] if s.get("id") == "build"]
open(sys.argv[2] + "/build.sh", "w").write(step["run"])
PY
	: >"$run/path"
	(RUNNER_TEMP=$run GITHUB_PATH=$run/path SC_SRC=$run/sphereceti SC_ROOT=$run \
		MARKS=$run/marks bash --noprofile --norc -eo pipefail "$run/build.sh")
	[ -s "$run/path" ]
	sandbox_reach "$run"
	printf '%s %s %s %s %s\n' "$B" "$H" "$KEY" "$SC_COMMIT" "$H9" >"$f/ids"
}

# replay_setup: the test's own copy of the bare repository and the cache
# store, the runner's folders, and the stand-ins: the checkouts, the build
# (the profiler replay_template built with the step's own script), elan
# (the fixture toolchain), the caches (a local store), the uploads.  Each
# replay runs in a mount namespace of its own with a fresh /opt (the
# workflow's SC_ROOT is below it), as root: the job's sudo steps are what
# they are on a runner.
replay_setup() {
	[ "$(id -u)" = 0 ] || skip "the replays run the job's sudo steps: make check as root"
	W=$BATS_TEST_TMPDIR
	sandbox_reach "$W"
	local f=$BATS_FILE_TMPDIR/replay
	read -r B H KEY SC_COMMIT H9 <"$f/ids"
	cp -a "$f/origin.git" "$W/origin.git"
	STORE=$W/cache-store
	cp -a "$f/cache-store" "$STORE"
	WF=$f/profile.yml

	export RUNNER_TEMP=$W/_temp GITHUB_WORKSPACE=$W/work GITHUB_STEP_SUMMARY=$W/summary.md
	export HOME=$W/runner-home ORIGIN=$W/origin.git STORE SC_FIXTURE PREBUILT=$f/runner
	export GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=owner/proj GITHUB_RUN_ID=42
	export REPLAY_ARTIFACTS=$W/artifacts
	mkdir -p "$RUNNER_TEMP" "$HOME" "$GITHUB_WORKSPACE" "$REPLAY_ARTIFACTS"
	: >"$GITHUB_STEP_SUMMARY"
	S=$W/standins
	mkdir -p "$S"
	cat >"$S/build.sh" <<'SH'
[ "$(git -C "$SC_SRC" rev-parse HEAD)" = "$(git -C "$PREBUILT/sphereceti" rev-parse HEAD)" ]
cat "$PREBUILT/path" >> "$GITHUB_PATH"
echo "$(date +%s) setup" >> "$MARKS"
SH
	cat >"$S/checkout.sh" <<'SH'
git clone -q "$ORIGIN" "$GITHUB_WORKSPACE/$WITH_PATH"
git -C "$GITHUB_WORKSPACE/$WITH_PATH" checkout -q --detach "$WITH_REF"
SH
	cat >"$S/sphereceti.sh" <<'SH'
git clone -q "$PREBUILT/sphereceti" "$GITHUB_WORKSPACE/$WITH_PATH"
git -C "$GITHUB_WORKSPACE/$WITH_PATH" checkout -q --detach "$WITH_REF"
SH
	cat >"$S/elan.sh" <<'SH'
mkdir -p "$HOME/.elan/bin"
cat >"$HOME/.elan/bin/elan" <<'ELAN'
#!/bin/bash
# elan's two calls the workflow makes, answered with the fixture toolchain.
case "$*" in
"toolchain install leanprover/lean4:v"*) exit 0 ;;
"run leanprover/lean4:v"*" lean --print-prefix") echo "$SC_FIXTURE/toolchain" ;;
*) echo "elan stand-in: unexpected call: $*" >&2; exit 2 ;;
esac
ELAN
chmod +x "$HOME/.elan/bin/elan"
echo "$HOME/.elan/bin" >> "$GITHUB_PATH"
SH
	cat >"$S/deps.sh" <<'SH'
if [ -d "$STORE/$WITH_KEY" ]; then
  mkdir -p "$WITH_PATH"
  cp -a "$STORE/$WITH_KEY/." "$WITH_PATH/"
  chmod -R o+rX "$WITH_PATH"
  echo cache-hit=true >> "$GITHUB_OUTPUT"
fi
SH
	: >"$S/lakecache.sh"
	printf '%s\n' 'printf "%s\n" "$WITH_PATH" > "$RUNNER_TEMP/uploaded"' >"$S/upload.sh"
	printf '%s\n' 'mkdir -p "$REPLAY_ARTIFACTS/$WITH_NAME" && cp "$WITH_PATH" "$REPLAY_ARTIFACTS/$WITH_NAME/"' >"$S/upload-check.sh"
	context '{}'
}

# context [VARS_JSON]: pull request 7's approved head H, as the gate bound it.
context() {
	jq -n --arg b "$B" --arg h "$H" --arg tmp "$RUNNER_TEMP" --argjson v "${1:-{\}}" \
		'{github: {event: {}, sha: $b, event_name: "pull_request_target", token: "t0ken", repository: "owner/proj"},
		  inputs: {}, runner: {os: "Linux", temp: $tmp}, vars: $v,
		  needs: {gate: {result: "success", outputs: {measure: "true", publish: "true", pr: "7", head: $h,
		                                              group: "sphereceti-profile-7"}}}}' >"$W/context.json"
}

# replay_again: a fresh runner for the next replay of the same test.
replay_again() {
	rm -rf "$GITHUB_WORKSPACE" "$HOME/.elan" "$REPLAY_ARTIFACTS"
	mkdir -p "$GITHUB_WORKSPACE" "$REPLAY_ARTIFACTS"
	find "$RUNNER_TEMP" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
	: >"$GITHUB_STEP_SUMMARY"
}

# on_top REV DIR: a working clone of GitHub's stand-in at REV in DIR (WC),
# for a test to commit on; push_to REF REV: that commit becomes REF there
# (refs/heads/main: the base moved; refs/pull/7/head: the pull request).
on_top() {
	WC=$2
	git clone -q "$ORIGIN" "$WC"
	git -C "$WC" checkout -q --detach "$1"
}
push_to() { git -C "$WC" push -q "$ORIGIN" "+$2:$1"; }

# replay: the profile job, in a mount namespace of its own; its result and
# outputs in $W/outputs.json, the check document it made in $DOC.
replay() {
	run --separate-stderr unshare --mount --propagation private \
		env REPLAY_TMPFS=/opt REPLAY_OUTPUTS="$W/outputs.json" \
		/usr/bin/python3 "$BATS_TEST_DIRNAME/lib/replay.py" "$WF" profile "$W/context.json" "$S"
	echo "$output"
	echo "$stderr" | tail -n 30
	DOC=$REPLAY_ARTIFACTS/sphereceti-check/check.json
}
doc() { jq -r "$1" "$DOC"; }

@test "replay: the profile job's run: blocks, in order, end with report.md in the job summary and a check document from report.json" {
	replay_setup
	context '{"SPHERECETI_THRESHOLD_DELTA": "1", "SPHERECETI_THRESHOLD_ADDED": "5"}'
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"concurrency: sphereceti-profile-7"* ]]
	[[ "$output" == *"plan: success"* ]]
	[[ "$output" == *"profile: success"* ]]
	[[ "$output" == *"verdict: success"* ]]
	[[ "$output" == *"upload-check: success"* ]]
	[[ "$output" == *"fail-on-flag: skipped"* ]]
	# the workspace lived on the replay's /opt: the upload's path is what is left
	[ "$(head -n 1 "$RUNNER_TEMP/uploaded")" = /opt/sphereceti/run ]
	grep -q '^| \*\*total\*\* |' "$GITHUB_STEP_SUMMARY"
	grep -q '^### Time to result' "$GITHUB_STEP_SUMMARY"
	# the head side is the merge of H into B; the report links H, not the merge
	grep -q "(base tip … the merge of the pull request's head into it)" "$GITHUB_STEP_SUMMARY"
	grep -q "^| pull request head | \`${H:0:7}\` | \`$H\` |" "$GITHUB_STEP_SUMMARY"
	grep -q "^| profiler (sphereceti, pinned) | \`${SC_COMMIT:0:7}\` | \`$SC_COMMIT\` |" "$GITHUB_STEP_SUMMARY"
	[ "$(doc .head_sha)" = "$H" ]
	[ "$(doc .conclusion)" = neutral ]
	[ "$(doc '.annotations[0].path')" = Demo/Ring.lean ]
	[ "$(jq -r .outputs.flagged "$W/outputs.json")" = 1 ]
}

@test "replay: a pull request opened before a Lake bump on the base branch gets a report (its merge is measured)" {
	replay_setup
	# the base branch bumps the dependency after the pull request branched off
	local dep=$BATS_FILE_TMPDIR/replay/example/deps/tinylib newdep rev
	on_top "$B" "$BATS_TEST_TMPDIR/main"
	local r=$WC
	newdep=$BATS_TEST_TMPDIR/tinylib
	cp -a "$dep" "$newdep"
	printf -- '-- bumped\n' >>"$newdep/Tiny/Core.lean"
	rev=$(ex_commit "$newdep" bump)
	(cd "$newdep" && "$SC_FIXTURE/toolchain/bin/lake" build +Tiny.Core >/dev/null)
	jq --arg r "$rev" '.packages[0].rev = $r' "$r/lake-manifest.json" >"$r/m" && mv "$r/m" "$r/lake-manifest.json"
	B=$(ex_commit "$r" "bump tinylib")
	push_to refs/heads/main "$B"
	# without the merge this pull request is not measured
	run --separate-stderr "$(cat "$PREBUILT/path")/sc-plan" --repo "$ORIGIN" --tooling "$B" --base "$B" --head "$H"
	[ "$status" -eq 4 ]
	[[ "$stderr" == *"profile the merge of the pull request into --base (--merge-of)"* ]]
	KEY=sphereceti-deps-v2-Linux-$(git -C "$r" rev-parse "$B:lean-toolchain")-$(git -C "$r" rev-parse "$B:lake-manifest.json")
	mkdir -p "$STORE/$KEY/packages"
	cp -a "$newdep" "$STORE/$KEY/packages/tinylib"
	context
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"profile: success"* ]]
	grep -q "^| pull request head | \`${H:0:7}\` | \`$H\` |" "$GITHUB_STEP_SUMMARY"
	grep -q "^| base tip | \`${B:0:7}\` | \`$B\` |" "$GITHUB_STEP_SUMMARY"
	[ "$(doc .conclusion)" = success ]
}

@test "replay: a pull request that conflicts with the base: one line, a neutral document, a green job" {
	replay_setup
	on_top "$B" "$BATS_TEST_TMPDIR/main"
	printf 'def conflicting := 1\n' >"$WC/Demo/Ring.lean"
	B=$(ex_commit "$WC" "main edits Ring")
	push_to refs/heads/main "$B"
	context
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"revs: success"* ]]
	[[ "$output" == *"build: skipped"* ]]
	[[ "$output" == *"plan: skipped"* ]]
	[ "$(wc -l <"$GITHUB_STEP_SUMMARY")" -eq 1 ]
	grep -q "^sphereceti: Not measured: pull request #7 does not merge cleanly into ${B:0:12}. It is measured once" "$GITHUB_STEP_SUMMARY"
	[ "$(doc .conclusion)" = neutral ]
	[ "$(doc .title)" = "Not measured: pull request #7 does not merge cleanly into ${B:0:12}" ]
}

@test "replay: no selected file ends at the plan, neutral, before elan or the cache; a bump likewise, with its reason" {
	replay_setup
	on_top "$B" "$BATS_TEST_TMPDIR/pr"
	printf 'more\n' >>"$WC/README.md"
	H=$(ex_commit "$WC" "README only")
	push_to refs/pull/7/head "$H"
	context
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"plan: success"* ]]
	[[ "$output" == *"elan: skipped"* ]]
	[[ "$output" == *"deps: skipped"* ]]
	[[ "$output" == *"profile: skipped"* ]]
	[ "$(doc .conclusion)" = neutral ]
	[ "$(doc .title)" = "Not measured: the pull request changes no library or roadmap Lean file" ]
	[ ! -e "$HOME/.elan" ]
	replay_again
	H=$H9
	git --git-dir="$ORIGIN" update-ref refs/pull/7/head "$H"
	context
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"plan: success"* ]]
	[[ "$output" == *"elan: skipped"* ]]
	[ "$(wc -l <"$GITHUB_STEP_SUMMARY")" -eq 1 ]
	grep -q '^sphereceti: Not measured: Lake configuration differs from the tooling commit: lean-toolchain changed; the pull request changes it' "$GITHUB_STEP_SUMMARY"
	[ "$(doc .conclusion)" = neutral ]
}

@test "replay: dependencies not yet prepared for this manifest: one line naming the key and the saver, neutral, a green job, nothing runs" {
	replay_setup
	rm -rf "${STORE:?}/$KEY"
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"miss: success"* ]]
	[[ "$output" == *"profile: skipped"* ]]
	grep -q "^sphereceti: Not measured yet: no prepared dependencies for T's lean-toolchain and lake-manifest.json. Cache key $KEY: the saver (sphereceti-deps.yml)" "$GITHUB_STEP_SUMMARY"
	[ "$(wc -l <"$GITHUB_STEP_SUMMARY")" -eq 1 ]
	[ "$(doc .conclusion)" = neutral ]
}

@test "replay: a pull request that moved on since its approval is not measured: one line, neutral" {
	replay_setup
	on_top "$H" "$BATS_TEST_TMPDIR/pr"
	printf -- '-- more\n' >>"$WC/Demo/Field.lean"
	local moved
	moved=$(ex_commit "$WC" "moved on")
	push_to refs/pull/7/head "$moved"
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"revs: success"* ]]
	[[ "$output" == *"build: skipped"* ]]
	[ "$(cat "$GITHUB_STEP_SUMMARY")" = "sphereceti: Not measured: pull request #7 moved on to ${moved:0:12} since ${H:0:12} was approved. An approval binds to the head its approver saw; the run for the new head measures it." ]
	[ "$(doc .conclusion)" = neutral ]
}

@test "replay: a run profile-run refuses is a failure document with its error line, and a red job" {
	replay_setup
	# the saved dependencies lack the manifest's package
	rm -rf "${STORE:?}/$KEY/packages/tinylib"
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"profile: failure"* ]]
	[[ "$output" == *"verdict: success"* ]]
	grep -q '^sphereceti: sphereceti failed: sc-profile-run: error: .*tinylib' "$GITHUB_STEP_SUMMARY"
	[ "$(doc .conclusion)" = failure ]
	[[ "$(doc .title)" == "sphereceti failed: sc-profile-run: error: "*tinylib* ]]
}

@test "replay: fail-on-flag: a flagged file fails the job and the check only when SPHERECETI_FAIL_ON_FLAG is true" {
	replay_setup
	context '{"SPHERECETI_THRESHOLD_DELTA": "1", "SPHERECETI_THRESHOLD_ADDED": "5"}'
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"fail-on-flag: skipped"* ]]
	[ "$(doc .conclusion)" = neutral ]
	replay_again
	context '{"SPHERECETI_THRESHOLD_DELTA": "1", "SPHERECETI_THRESHOLD_ADDED": "5", "SPHERECETI_FAIL_ON_FLAG": "true"}'
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"fail-on-flag: failure"* ]]
	grep -q '^sphereceti: 1 file(s) got slower beyond the thresholds, and this repository fails the check' "$GITHUB_STEP_SUMMARY"
	[ "$(doc .conclusion)" = failure ]
}
