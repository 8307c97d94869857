#!/usr/bin/env bats
# contrib/github/: the profile workflow (profile.yml) and its trusted saver
# (deps.yml).  Their shape, parsed as YAML (python3-yaml); the workflow
# lint (actionlint, shellcheck) finds nothing; and the profile job's run: blocks,
# replayed in order (t/lib/replay.py) against a local bare repository
# standing in for GitHub, end with report.md in the job summary, stop at
# the plan for a pull request that selects nothing, and name a cache miss.
load helpers
# shellcheck source=../contrib/example/example.bash
. "$BATS_TEST_DIRNAME/../contrib/example/example.bash"

bats_require_minimum_version 1.5.0

setup() {
	/usr/bin/python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	YML=$BATS_TEST_DIRNAME/../contrib/github/profile.yml
	SAVER=$BATS_TEST_DIRNAME/../contrib/github/deps.yml
}

# check PYTHON: run an assertion script with the parsed workflow as `w`, its
# one job as `job`, its steps as `steps`, every step's run text as `runs`;
# the saver's the same with an `s_` prefix.
check() {
	/usr/bin/python3 - "$YML" "$SAVER" "$1" <<'PY'
import re, sys, yaml
def load(p):
    w = yaml.safe_load(open(p))
    (job,) = w["jobs"].values()
    return w, w.get("on", w.get(True)), job, job["steps"]
w, on, job, steps = load(sys.argv[1])
s_w, s_on, s_job, s_steps = load(sys.argv[2])
text, s_text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
runs = "\n".join(s.get("run", "") for s in steps)
s_runs = "\n".join(s.get("run", "") for s in s_steps)
def step(pred, steps=steps):
    hits = [s for s in steps if pred(s)]
    assert len(hits) == 1, hits
    return hits[0]
def by_id(i, steps=steps):
    return step(lambda s: s.get("id") == i, steps)
exec(sys.argv[3])
PY
}

@test "the profile job runs the base branch's workflow (pull_request_target, or by hand with a number) with a read-only token" {
	check '
assert sorted(on) == ["pull_request_target", "workflow_dispatch"], on
assert on["workflow_dispatch"]["inputs"]["pr"]["required"] is True
assert w["permissions"] == {"contents": "read"}, w["permissions"]
assert "permissions" not in job
for why in ("never checked out", "read-only", "inside bubblewrap", "never saves one"):
    assert why in text, why
'
}

@test "the head is never checked out: objects fetched, T and B the base tip, the token not kept" {
	check '
co = by_id("checkout")
assert co["with"]["ref"] == "${{ github.event.pull_request.base.sha || github.sha }}"
assert co["with"]["fetch-depth"] == 0
assert co["with"]["persist-credentials"] is False
assert job["env"]["EVENT_HEAD_SHA"] == "${{ github.event.pull_request.head.sha }}"
r = by_id("revs")["run"]
assert "git fetch --no-tags --quiet origin \"+refs/pull/$PR_NUMBER/head:" in r
assert "echo \"TOOLING_SHA=$base\"" in r and "echo \"BASE_SHA=$base\"" in r
assert not re.search(r"git (checkout|switch|worktree)", runs), "the profile job checks something out"
'
}

@test "no expression inside a run: block; every action pinned by a full SHA; nothing published but summary and artifact" {
	check '
for s in steps + s_steps:
    assert "${{" not in s.get("run", ""), s["name"]
known = {"actions/checkout": "v4.2.2", "actions/cache/restore": "v4.2.0",
         "actions/cache/save": "v4.2.0", "actions/upload-artifact": "v4.6.2"}
for t in (text, s_text):
    for name, sha, ver in re.findall(r"uses: ([\w/-]+)@(\S+) # (\S+)", t):
        assert known[name] == ver, (name, ver)
        assert re.fullmatch(r"[0-9a-f]{40}", sha), sha
    assert len(re.findall(r"uses: ", t)) == len(re.findall(r"uses: [\w/-]+@[0-9a-f]{40} # v", t))
assert not any("actions/cache/save" in s.get("uses", "") or s.get("uses", "").startswith("actions/cache@") for s in steps)
for bad in ("gh pr", "gh api", "/statuses", "/comments", "GITHUB_TOKEN", "secrets."):
    assert bad not in text + s_text, bad
'
}

@test "elan is a pinned release checked against its SHA-256, the same pin in both workflows" {
	check '
for j, st in ((job, steps), (s_job, s_steps)):
    assert re.fullmatch(r"v\d+\.\d+\.\d+", j["env"]["ELAN_VERSION"])
    assert re.fullmatch(r"[0-9a-f]{64}", j["env"]["ELAN_SHA256"])
    e = by_id("elan", st)["run"]
    assert "releases/download/$ELAN_VERSION/" in e
    assert "echo \"$ELAN_SHA256  $tgz\" | sha256sum -c -" in e
    assert "elan-init.sh" not in e and not re.search(r"\| *(ba)?sh\b", e)
assert job["env"]["ELAN_SHA256"] == s_job["env"]["ELAN_SHA256"]
'
}

@test "the saver runs only on pushes to the base branch and saves with the key and path the profile job restores" {
	check '
assert sorted(s_on) == ["push", "workflow_dispatch"], s_on
assert s_w["permissions"] == {"contents": "read"}
restore = by_id("deps")
save = step(lambda s: s.get("uses", "").startswith("actions/cache/save@"), s_steps)
assert restore["with"]["key"] == save["with"]["key"] == by_id("saved", s_steps)["with"]["key"]
assert restore["with"]["path"] == save["with"]["path"]
assert "steps.keys.outputs.toolchain" in save["with"]["key"] and "steps.keys.outputs.manifest" in save["with"]["key"]
assert by_id("keys")["run"] == by_id("keys", s_steps)["run"], "the key step differs"
assert "lake-manifest.json" in by_id("keys")["run"] and "lean-toolchain" in by_id("keys")["run"]
p = by_id("prepare", s_steps)["run"]
assert "lake build" in p and "lake exe cache get" in p and "LAKE_CACHE_DIR=\"$DEPS/lake-cache\"" in p
assert "mv .lake/packages \"$DEPS/packages\"" in p
'
}

@test "profile-plan runs before any toolchain or cache; profile-run keeps Lake's logs for the artifact" {
	check '
ids = [s.get("id") for s in steps]
assert ids.index("plan") < ids.index("elan") < ids.index("keys") < ids.index("deps") < ids.index("profile")
for i in ("elan", "keys", "deps", "profile"):
    assert "steps.plan.outputs.status == '"'"'changes'"'"'" in by_id(i)["if"], i
p = by_id("profile")["run"]
for flag in ("--tooling \"$TOOLING_SHA\"", "--base \"$BASE_SHA\"", "--head \"$HEAD_SHA\"",
             "--workspace \"$RUN\"", "--dependencies \"$DEPS/packages\"", "--keep-logs"):
    assert flag in p, flag
a = step(lambda s: s.get("uses", "").startswith("actions/upload-artifact@"))
paths = [x.strip() for x in a["with"]["path"].split("\n") if x.strip()]
assert paths[0] == "${{ runner.temp }}/sphereceti-run", paths
assert sorted(x for x in paths if x.startswith("!")) == ["!" + paths[0] + "/base", "!" + paths[0] + "/head"], paths
'
}

@test "actionlint and shellcheck find nothing in either workflow" {
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/lint/workflows.py"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the workflow lint fails on the old recipe's runner context in a job env and on an unquoted run: variable" {
	local bad=$BATS_TEST_TMPDIR/bad.yml
	cat >"$bad" <<'YML'
on: pull_request
jobs:
  j:
    runs-on: ubuntu-24.04
    env:
      RUN: ${{ runner.temp }}/run
    steps:
      - run: cat $RUN/report.md
YML
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/lint/workflows.py" "$bad"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *'context "runner" is not allowed here'* ]]
	[[ "$output" == *SC2086* ]]
}

# --- replaying the profile job ---------------------------------------------

# The replay's repositories and the vendored profiler's build, once per file
# (setup_file): the example (git and lake) and the build (a full make, ~20 s
# of CPU) are the same for every replay, so each test copies what it
# changes instead of making it again.
setup_file() {
	/usr/bin/python3 -c 'import yaml' 2>/dev/null || return 0 # setup skips
	replay_template
}

# replay_template: in $BATS_FILE_TMPDIR/replay, a bare repository standing in
# for GitHub (main = B = T with the profiler vendored at tools/sphereceti,
# refs/pull/7/head = H), the cache store holding the prepared dependencies
# under the job's key, and the profiler built by the job's own build step
# (its run: block and the job's PROFILER_PATH, read from the workflow) in a
# runner folder of its own.
replay_template() {
	local f=$BATS_FILE_TMPDIR/replay src=$BATS_TEST_DIRNAME/..
	local ex=$f/example
	mkdir -p "$f"
	bash "$src/contrib/example/make-example.sh" "$ex" "$SC_FIXTURE/toolchain" >/dev/null
	# shellcheck disable=SC1091
	. "$ex/revs"
	local r=$ex/repo
	mkdir -p "$r/tools/sphereceti"
	(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$r/tools/sphereceti")
	printf '\ttooling = tools/sphereceti\n' >"$f/tooling"
	sed -i "/^\\[profile\\]/r $f/tooling" "$r/.sphereceti"
	B=$(ex_commit "$r" "vendor sphereceti")
	git clone -q --bare "$r" "$f/origin.git"
	git -C "$f/origin.git" update-ref refs/pull/7/head "$H"
	KEY=sphereceti-deps-v1-Linux-$(git -C "$r" rev-parse "$B:lean-toolchain")-$(git -C "$r" rev-parse "$B:lake-manifest.json")
	mkdir -p "$f/cache-store/$KEY/packages"
	cp -a "$ex/deps/tinylib" "$f/cache-store/$KEY/packages/"
	local run=$f/runner
	mkdir -p "$run"
	/usr/bin/python3 - "$src/contrib/github/profile.yml" "$run" <<'PY'
import sys, yaml
(job,) = yaml.safe_load(open(sys.argv[1]))["jobs"].values()
(step,) = [s for s in job["steps"] if s.get("id") == "build"]
open(sys.argv[2] + "/build.sh", "w").write(step["run"])
open(sys.argv[2] + "/profiler-path", "w").write(job["env"]["PROFILER_PATH"])
PY
	: >"$run/path"
	(cd "$f/origin.git" && RUNNER_TEMP=$run GITHUB_PATH=$run/path TOOLING_SHA=$B \
		PROFILER_PATH=$(cat "$run/profiler-path") bash --noprofile --norc -eo pipefail "$run/build.sh")
	[ -s "$run/path" ]
	sandbox_reach "$run"
	git -C "$f/origin.git" rev-parse "$B:$(cat "$run/profiler-path")" >"$run/tree"
	printf '%s %s %s\n' "$B" "$H" "$KEY" >"$f/ids"
}

# replay_setup: the test's own copy of the bare repository and the cache
# store, the runner's folders, and the stand-ins: the checkout, the build
# (the profiler replay_template built with the step's own script, once it is
# sure the step would build that same tree here), elan (the fixture
# toolchain in place of elan's), the cache (a local store), the upload.
replay_setup() {
	W=$BATS_TEST_TMPDIR
	sandbox_reach "$W"
	local f=$BATS_FILE_TMPDIR/replay
	read -r B H KEY <"$f/ids"
	cp -a "$f/origin.git" "$W/origin.git"
	STORE=$W/cache-store
	cp -a "$f/cache-store" "$STORE"

	export RUNNER_TEMP=$W/_temp GITHUB_WORKSPACE=$W/work/proj GITHUB_STEP_SUMMARY=$W/summary.md
	export HOME=$W/runner-home ORIGIN=$W/origin.git STORE SC_FIXTURE PREBUILT=$f/runner
	mkdir -p "$RUNNER_TEMP" "$HOME"
	: >"$GITHUB_STEP_SUMMARY"
	S=$W/standins
	mkdir -p "$S"
	cat >"$S/build.sh" <<'SH'
[ "$(git rev-parse "$TOOLING_SHA:$PROFILER_PATH")" = "$(cat "$PREBUILT/tree")" ]
cat "$PREBUILT/path" >> "$GITHUB_PATH"
SH
	cat >"$S/checkout.sh" <<'SH'
git clone -q "$ORIGIN" "$GITHUB_WORKSPACE"
git -C "$GITHUB_WORKSPACE" checkout -q --detach "$WITH_REF"
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
  cp -a "$STORE/$WITH_KEY" "$WITH_PATH"
  chmod -R o+rX "$WITH_PATH"
  echo cache-hit=true >> "$GITHUB_OUTPUT"
fi
SH
	printf '%s\n' 'printf "%s\n" "$WITH_PATH" > "$RUNNER_TEMP/uploaded"' >"$S/upload.sh"
	cat >"$W/context.json" <<JSON
{"github": {"event": {"pull_request": {"number": 7, "base": {"sha": "$B"}, "head": {"sha": "$H"}}},
            "sha": "$B", "event_name": "pull_request_target"},
 "inputs": {}, "runner": {"os": "Linux", "temp": "$RUNNER_TEMP"}}
JSON
}

replay() {
	run --separate-stderr /usr/bin/python3 "$BATS_TEST_DIRNAME/lib/replay.py" "$YML" profile "$W/context.json" "$S"
	echo "$output"
	echo "$stderr" | tail -n 30
}

@test "replay: the profile job's run: blocks, in order, end with report.md in the job summary" {
	replay_setup
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"plan: success"* ]]
	[[ "$output" == *"profile: success"* ]]
	local run=$RUNNER_TEMP/sphereceti-run
	[ -f "$run/report.md" ]
	[ -f "$run/logs/head-prebuild.log" ]
	grep -qF "$(head -n 1 "$run/report.md")" "$GITHUB_STEP_SUMMARY"
	cmp <(tail -c "$(stat -c %s "$run/report.md")" "$GITHUB_STEP_SUMMARY") "$run/report.md"
	grep -q '"head": "'"$H"'"' "$run/plan.json"
	grep -q '"tooling": "'"$B"'"' "$run/plan.json"
	[ "$(git -C "$GITHUB_WORKSPACE" rev-parse HEAD)" = "$B" ]
}

@test "replay: a pull request that selects no file ends at the plan with no_changes, before elan or the cache" {
	replay_setup
	# the pull request touches only the README: no selected Lean file
	local r=$BATS_TEST_TMPDIR/pr
	git clone -q "$ORIGIN" "$r"
	git -C "$r" checkout -q --detach "$B"
	printf 'more\n' >>"$r/README.md"
	H=$(ex_commit "$r" "README only")
	git -C "$r" push -q "$ORIGIN" "+$H:refs/pull/7/head"
	sed -i "s/\"head\": {\"sha\": \"[0-9a-f]*\"}/\"head\": {\"sha\": \"$H\"}/" "$W/context.json"
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"plan: success"* ]]
	[[ "$output" == *"elan: skipped"* ]]
	[[ "$output" == *"deps: skipped"* ]]
	[[ "$output" == *"profile: skipped"* ]]
	grep -q '^sphereceti: no_changes: ' "$GITHUB_STEP_SUMMARY"
	[ ! -e "$HOME/.elan" ]
	[ ! -e "$RUNNER_TEMP/sphereceti-deps" ]
	[ ! -e "$RUNNER_TEMP/sphereceti-run" ]
}

@test "replay: a cache miss is one clear line in the job summary naming the key and the saver, and nothing runs" {
	replay_setup
	rm -rf "${STORE:?}/$KEY"
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"miss: failure"* ]]
	[[ "$output" == *"profile: skipped"* ]]
	[[ "$output" == *"summary: skipped"* ]]
	grep -q "^sphereceti: no prepared dependencies in the cache .*(key $KEY): run the workflow 'sphereceti dependencies'" "$GITHUB_STEP_SUMMARY"
	[ "$(wc -l <"$GITHUB_STEP_SUMMARY")" -eq 1 ]
	[ ! -e "$RUNNER_TEMP/sphereceti-run" ]
}

@test "replay: a pull request that moved on since its event says so and stops" {
	replay_setup
	sed -i "s/\"head\": {\"sha\": \"[0-9a-f]*\"}/\"head\": {\"sha\": \"$B\"}/" "$W/context.json"
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"revs: failure"* ]]
	grep -q "^sphereceti: pull request #7 moved on since this event" "$GITHUB_STEP_SUMMARY"
}

@test "replay: a run profile-run refuses puts its error line in the job summary, not only in the log" {
	replay_setup
	# the saved dependencies lack the manifest's package
	rm -rf "${STORE:?}/$KEY/packages/tinylib"
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"profile: failure"* ]]
	[[ "$output" == *"summary: success"* ]]
	grep -qx 'sphereceti: profile-run wrote no report:' "$GITHUB_STEP_SUMMARY"
	grep -q '^    sc-profile-run: error: .*tinylib' "$GITHUB_STEP_SUMMARY"
}
