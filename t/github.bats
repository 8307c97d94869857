#!/usr/bin/env bats
# contrib/github/: the profile workflow (profile.yml) and its trusted saver
# (deps.yml).  Their shape, parsed as YAML (python3-yaml); the workflow
# lint (actionlint, shellcheck) finds nothing; and the profile job's run: blocks,
# replayed in order (t/lib/replay.py) against a local bare repository
# standing in for GitHub, end with report.md in the job summary, stop at
# the plan for a pull request that selects nothing, and name a cache miss.
load helpers
load lib/origin
# shellcheck source=../contrib/example/example.bash
. "$BATS_TEST_DIRNAME/../contrib/example/example.bash"

bats_require_minimum_version 1.5.0

setup() {
	/usr/bin/python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	YML=$BATS_TEST_DIRNAME/../contrib/github/profile.yml
	SAVER=$BATS_TEST_DIRNAME/../contrib/github/deps.yml
}

# check PYTHON: run an assertion script with the parsed workflow as `w`, its
# jobs as `gate`, `job` (the profile job) and `cjob` (the comment job), the
# profile job's steps as `steps`, every step's run text as `runs`; the
# saver's the same with an `s_` prefix.
check() {
	/usr/bin/python3 - "$YML" "$SAVER" "$1" <<'PY'
import re, sys, yaml
def load(p):
    w = yaml.safe_load(open(p))
    return w, w.get("on", w.get(True))
w, on = load(sys.argv[1])
s_w, s_on = load(sys.argv[2])
gate, job, cjob = w["jobs"]["gate"], w["jobs"]["profile"], w["jobs"]["comment"]
(s_job,) = s_w["jobs"].values()
steps, s_steps = job["steps"], s_job["steps"]
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

@test "the profile job runs the base branch's workflow (pull_request_target, or by hand with a number); each job holds only the permission it needs" {
	check '
assert sorted(on) == ["pull_request_target", "workflow_dispatch"], on
assert on["pull_request_target"]["types"] == ["opened", "synchronize", "reopened", "labeled"]
assert on["workflow_dispatch"]["inputs"]["pr"]["required"] is True
assert w["permissions"] == {}, w["permissions"]
assert gate["permissions"] == {}
assert job["permissions"] == {"contents": "read"}, job["permissions"]
assert cjob["permissions"] == {"pull-requests": "write"}, cjob["permissions"]
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
assert "+refs/pull/$PR_NUMBER/merge:" in r and "git merge-tree --write-tree" in r
assert "echo \"TOOLING_SHA=$base\"" in r and "echo \"BASE_SHA=$base\"" in r
all_runs = runs + "\n".join(s.get("run", "") for j in w["jobs"].values() for s in j["steps"])
assert not re.search(r"git (checkout|switch|worktree)", all_runs), "a job checks something out"
assert not any("checkout" in s.get("uses", "") for s in cjob["steps"] + gate["steps"])
'
}

@test "no expression inside a run: block; every action pinned by a full SHA; no secret, the token only in the comment job" {
	check '
for j in list(w["jobs"].values()) + [s_job]:
    for s in j["steps"]:
        assert "${{" not in s.get("run", ""), s["name"]
known = {"actions/checkout": "v4.2.2", "actions/cache/restore": "v4.2.0",
         "actions/cache/save": "v4.2.0", "actions/upload-artifact": "v4.6.2",
         "actions/download-artifact": "v4.1.8"}
for t in (text, s_text):
    for name, sha, ver in re.findall(r"uses: ([\w/-]+)@(\S+) # (\S+)", t):
        assert known[name] == ver, (name, ver)
        assert re.fullmatch(r"[0-9a-f]{40}", sha), sha
    assert len(re.findall(r"uses: ", t)) == len(re.findall(r"uses: [\w/-]+@[0-9a-f]{40} # v", t))
assert not any("actions/cache/save" in s.get("uses", "") or s.get("uses", "").startswith("actions/cache@") for s in steps)
for bad in ("secrets.", "GITHUB_TOKEN"):
    assert bad not in text + s_text, bad
assert text.count("github.token") == 1 and by_id("post", cjob["steps"])["env"]["GH_TOKEN"] == "${{ github.token }}"
assert "gh " not in runs and "gh " not in s_runs
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

@test "the saver runs only on pushes to the base branch: dependencies per manifest, the artifact cache per push, under the keys the profile job restores" {
	check '
assert sorted(s_on) == ["push", "workflow_dispatch"], s_on
assert s_w["permissions"] == {"contents": "read"}
restore = by_id("deps")
save = by_id("save-deps", s_steps)
assert restore["with"]["key"] == save["with"]["key"] == by_id("saved", s_steps)["with"]["key"]
assert restore["with"]["path"] == save["with"]["path"]
assert "steps.keys.outputs.toolchain" in save["with"]["key"] and "steps.keys.outputs.manifest" in save["with"]["key"]
assert save["if"] == "steps.saved.outputs.cache-hit != '"'"'true'"'"'"
assert by_id("keys")["run"] == by_id("keys", s_steps)["run"], "the key step differs"
assert "lake-manifest.json" in by_id("keys")["run"] and "lean-toolchain" in by_id("keys")["run"]
lc, sc = by_id("lakecache"), by_id("save-cache", s_steps)
assert "if" not in sc, "the artifact cache is saved on every push"
assert sc["with"]["key"].endswith("-${{ env.TOOLING_SHA }}") and lc["with"]["key"].endswith("-${{ env.BASE_SHA }}")
prefix = sc["with"]["key"][:-len("${{ env.TOOLING_SHA }}")]
assert lc["with"]["restore-keys"] == prefix, "only an entry of this very toolchain and manifest"
assert lc["with"]["path"] == sc["with"]["path"]
p = by_id("prepare", s_steps)["run"]
assert "lake build" in p and "lake exe cache get" in p and "LAKE_CACHE_DIR=\"$LAKE_CACHE\"" in p
assert "mv .lake/packages \"$DEPS/packages\"" in p
'
}

@test "one package list: the recipe installs with contrib/install-deps.sh run, which brings libseccomp-dev" {
	check '
i = by_id("install")["run"]
assert "bash \"$PROFILER_PATH/contrib/install-deps.sh\" run" in i, i
assert "apt-get install" not in i
for t in (runs, s_runs):
    for line in t.splitlines():
        if "apt-get install" in line:
            assert line.strip().endswith("apparmor-profiles"), line
'
	grep -q '^run_pkgs=(.*libseccomp-dev' "$BATS_TEST_DIRNAME/../contrib/install-deps.sh"
}

@test "profile-plan runs before any toolchain or cache; profile-run runs as root through sudo on the merge and keeps Lake's logs; the job's timeout follows the bounds" {
	check '
ids = [s.get("id") for s in steps]
assert ids.index("plan") < ids.index("elan") < ids.index("keys") < ids.index("deps") < ids.index("profile")
for i in ("elan", "keys", "deps", "profile"):
    assert "steps.plan.outputs.status == '"'"'changes'"'"'" in by_id(i)["if"], i
p = by_id("profile")["run"]
for flag in ("--tooling \"$TOOLING_SHA\"", "--base \"$BASE_SHA\"", "--head \"$MERGE_SHA\"",
             "--merge-of \"$HEAD_SHA\"", "--workspace \"$RUN\"", "--dependencies \"$DEPS/packages\"",
             "--keep-logs"):
    assert flag in p, flag
assert re.search(r"^\s*sudo env .*profile-run", p, re.M | re.S)
assert "--head \"$MERGE_SHA\" --merge-of \"$HEAD_SHA\"" in by_id("plan")["run"]
a = by_id("upload")
paths = [x.strip() for x in a["with"]["path"].split("\n") if x.strip()]
assert paths[0] == job["env"]["SC_ROOT"] + "/run", paths
assert sorted(x for x in paths if x.startswith("!")) == ["!" + paths[0] + "/base", "!" + paths[0] + "/head"], paths
# setup (15 minutes at most) + 2 x 900 s of prebuild + 1,800 s of samples
assert job["timeout-minutes"] == 15 + (2 * 900 + 1800) // 60, job["timeout-minutes"]
'
}

@test "who may start it: owners, members and collaborators at once; anyone else after the profile label or a dispatch" {
	check '
assert job["needs"] == "gate" and job["if"] == "needs.gate.outputs.allowed == '"'"'true'"'"'"
r = by_id("who", gate["steps"])["run"]
assert "OWNER | MEMBER | COLLABORATOR) allowed=true" in r
assert "[ \"$LABEL\" != profile ] || allowed=true" in r
assert cjob["needs"] == "profile"
assert "vars.SPHERECETI_COMMENT == '"'"'true'"'"'" in cjob["if"]
assert "env.FAIL_ON_FLAG == '"'"'true'"'"'" in by_id("fail-on-flag")["if"]
assert job["env"]["FAIL_ON_FLAG"] == "${{ vars.SPHERECETI_FAIL_ON_FLAG }}"
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

# --- the verdict where reviewers look (contrib/github/verdict.py) -----------

verdict() { run --separate-stderr /usr/bin/python3 "$BATS_TEST_DIRNAME/../contrib/github/verdict.py" "$@"; }

# a_report STATUS LEAN_VERSION: a report.json with one flagged, one clean file.
a_report() {
	jq -n --arg st "$1" --arg lean "$2" '{schema: "sphereceti.report/1", status: $st,
	    headline: "1 of 2 files got slower beyond the thresholds",
	    environment: {lean_version: $lean},
	    files: [{path: "Lib/Slow.lean", change: "modified", flagged: true, ratio: 1.5, delta_s: 30.0,
	             reason: "head ≥ 1.5× base", base: {cpu_s: 60.0}, head: {cpu_s: 90.0}},
	            {path: "Lib/New.lean", change: "added", flagged: true, head: {cpu_s: 150.0}, reason: "new"},
	            {path: "Lib/Fine.lean", change: "modified", flagged: false}]}' >"$BATS_TEST_TMPDIR/report.json"
}

@test "annotations: a warning on each flagged file with its figures, every value escaped; a hostile Lean version forges no command" {
	a_report ok $'Lean (version 4.34.0, x86_64)\n::error::forged 100%\r'
	verdict annotations "$BATS_TEST_TMPDIR/report.json"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = '::warning file=Lib/Slow.lean,title=sphereceti (Lean (version 4.34.0%2C x86_64)%0A%3A%3Aerror%3A%3Aforged 100%25%0D)%3A slower::Lib/Slow.lean: 60.00 → 90.00 s CPU (1.50×, +30.00 s). head ≥ 1.5× base Advisory.' ]
	[[ "${lines[1]}" == '::warning file=Lib/New.lean,'*'::Lib/New.lean: new file at 150.00 s CPU. new Advisory.' ]]
	run ! grep -q '^::error' <<<"$output"
	verdict flagged "$BATS_TEST_TMPDIR/report.json"
	[ "$output" = 2 ]
}

@test "annotations: no_changes is a notice, an incomplete measurement an error, a clean run a notice" {
	jq -n '{schema: "sphereceti.report/1", status: "no_changes", headline: "No changed Lean files", files: []}' >"$BATS_TEST_TMPDIR/r.json"
	verdict annotations "$BATS_TEST_TMPDIR/r.json"
	[ "$output" = '::notice title=sphereceti::No changed Lean files' ]
	jq -n '{schema: "sphereceti.report/1", status: "error", headline: "Measurement incomplete: 1 problem", files: []}' >"$BATS_TEST_TMPDIR/r.json"
	verdict annotations "$BATS_TEST_TMPDIR/r.json"
	[ "$output" = '::error title=sphereceti%3A not measured::Measurement incomplete: 1 problem' ]
	jq -n '{schema: "sphereceti.report/1", status: "ok", headline: "Nothing got slower", files: [{path: "A.lean", flagged: false}]}' >"$BATS_TEST_TMPDIR/r.json"
	verdict annotations "$BATS_TEST_TMPDIR/r.json"
	[ "$output" = '::notice title=sphereceti::Nothing got slower' ]
	verdict error $'sc-plan: error: x\n::warning::y'
	[ "$output" = '::error title=sphereceti%3A not measured::sc-plan: error: x%0A::warning::y' ]
	echo '{"schema": "other"}' >"$BATS_TEST_TMPDIR/r.json"
	verdict annotations "$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 2 ]
	[ "$stderr" = "verdict.py: error: not a sphereceti report (schema sphereceti.report/1) ($BATS_TEST_TMPDIR/r.json)" ]
}

@test "comment: the marker, then report.md whole; a longer one cut at a line under GitHub's 65,536 characters, with a link to the run" {
	printf '# report\n| a | b |\n' >"$BATS_TEST_TMPDIR/small.md"
	verdict comment "$BATS_TEST_TMPDIR/small.md" https://github.com/o/p/actions/runs/1
	[ "$output" = $'<!-- sphereceti-profile -->\n# report\n| a | b |' ]
	/usr/bin/python3 -c 'import sys; sys.stdout.write("".join("| `Lib/Γ%05d.lean` | modified | 1.00 |\n" % i for i in range(4000)))' >"$BATS_TEST_TMPDIR/big.md"
	/usr/bin/python3 "$BATS_TEST_DIRNAME/../contrib/github/verdict.py" comment "$BATS_TEST_TMPDIR/big.md" https://github.com/o/p/actions/runs/1 >"$BATS_TEST_TMPDIR/c.md"
	local n
	n=$(/usr/bin/python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()))' "$BATS_TEST_TMPDIR/c.md")
	[ "$n" -le 65536 ]
	[ "$n" -gt 60000 ]
	[ "$(head -n 1 "$BATS_TEST_TMPDIR/c.md")" = '<!-- sphereceti-profile -->' ]
	[ "$(tail -n 1 "$BATS_TEST_TMPDIR/c.md")" = '*Cut to fit a comment: the whole report is in the job summary and the artifact of [this run](https://github.com/o/p/actions/runs/1).*' ]
	# every table line kept is whole
	[ "$(grep -c '^| `Lib/Γ[0-9]*\.lean` | modified | 1\.00 |$' "$BATS_TEST_TMPDIR/c.md")" -eq "$(grep -c '^| `' "$BATS_TEST_TMPDIR/c.md")" ]
}

@test "timings: each step's wall time from the marks, the profile split into its prebuilds and samples" {
	printf '%s\n' '100 start' '130 setup' '131 plan' '160 toolchain and dependency restore' '400 profile' '401 report' >"$BATS_TEST_TMPDIR/marks"
	jq -n '{schema: "sphereceti.report/1", prebuild: {base: {wall_s: 50.4}, head: {wall_s: 60.0}},
	        files: [{base: {wall_s: 40.0}, head: {wall_s: 45.0}}, {base: null, head: {wall_s: 10.0}}]}' >"$BATS_TEST_TMPDIR/r.json"
	verdict timings "$BATS_TEST_TMPDIR/marks" "$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'| setup | 30 |\n| plan | 1 |\n| toolchain and dependency restore | 29 |\n| profile | 240 |\n| &nbsp;&nbsp;base prebuild | 50 |\n| &nbsp;&nbsp;head prebuild | 60 |\n| &nbsp;&nbsp;samples (3) | 95 |\n| report | 1 |\n| **total** | 301 |'* ]]
}

# --- replaying the profile job ---------------------------------------------

# The replay's repositories and the vendored profiler's build, once per file
# (setup_file): the example (git and lake) and the build (a full make, ~20 s
# of CPU) are the same for every replay, so each test copies what it
# changes instead of making it again.
setup_file() {
	/usr/bin/python3 -c 'import yaml' 2>/dev/null || return 0 # setup skips
	[ "$(id -u)" = 0 ] || return 0                            # replay_setup skips
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
	github_origin "$src" "$f" "$SC_FIXTURE/toolchain"
	local run=$f/runner
	mkdir -p "$run"
	/usr/bin/python3 - "$src/contrib/github/profile.yml" "$run" <<'PY'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))["jobs"]["profile"]
(step,) = [s for s in job["steps"] if s.get("id") == "build"]
open(sys.argv[2] + "/build.sh", "w").write(step["run"])
open(sys.argv[2] + "/profiler-path", "w").write(job["env"]["PROFILER_PATH"])
PY
	: >"$run/path"
	(cd "$f/origin.git" && RUNNER_TEMP=$run GITHUB_PATH=$run/path TOOLING_SHA=$B SC_ROOT=$run \
		MARKS=$run/marks PROFILER_PATH=$(cat "$run/profiler-path") bash --noprofile --norc -eo pipefail "$run/build.sh")
	[ -s "$run/path" ]
	sandbox_reach "$run"
	git -C "$f/origin.git" rev-parse "$B:$(cat "$run/profiler-path")" >"$run/tree"
	printf '%s %s %s\n' "$B" "$H" "$KEY" >"$f/ids"
}

# replay_setup: the test's own copy of the bare repository and the cache
# store, the runner's folders, and the stand-ins: the checkout, the build
# (the profiler replay_template built with the step's own script, once it is
# sure the step would build that same tree here), elan (the fixture
# toolchain in place of elan's), the caches (a local store), the uploads and
# the download, and gh (it records what it was asked).  Each replay runs in
# a mount namespace of its own with a fresh /opt (the workflow's SC_ROOT is
# below it), as root: the job's sudo steps are what they are on a runner.
replay_setup() {
	[ "$(id -u)" = 0 ] || skip "the replays run the job's sudo steps: make check as root"
	W=$BATS_TEST_TMPDIR
	sandbox_reach "$W"
	local f=$BATS_FILE_TMPDIR/replay
	read -r B H KEY <"$f/ids"
	cp -a "$f/origin.git" "$W/origin.git"
	STORE=$W/cache-store
	cp -a "$f/cache-store" "$STORE"

	export RUNNER_TEMP=$W/_temp GITHUB_WORKSPACE=$W/work/proj GITHUB_STEP_SUMMARY=$W/summary.md
	export HOME=$W/runner-home ORIGIN=$W/origin.git STORE SC_FIXTURE PREBUILT=$f/runner
	export GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=owner/proj GITHUB_RUN_ID=42
	mkdir -p "$RUNNER_TEMP" "$HOME"
	: >"$GITHUB_STEP_SUMMARY"
	S=$W/standins
	mkdir -p "$S" "$W/bin"
	cat >"$S/build.sh" <<'SH'
[ "$(git rev-parse "$TOOLING_SHA:$PROFILER_PATH")" = "$(cat "$PREBUILT/tree")" ]
cat "$PREBUILT/path" >> "$GITHUB_PATH"
echo "$(date +%s) setup" >> "$MARKS"
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
  mkdir -p "$WITH_PATH"
  cp -a "$STORE/$WITH_KEY/." "$WITH_PATH/"
  chmod -R o+rX "$WITH_PATH"
  echo cache-hit=true >> "$GITHUB_OUTPUT"
fi
SH
	: >"$S/lakecache.sh"
	printf '%s\n' 'printf "%s\n" "$WITH_PATH" > "$RUNNER_TEMP/uploaded"' >"$S/upload.sh"
	printf '%s\n' 'cp "$WITH_PATH" "$RUNNER_TEMP/comment-artifact.md"' >"$S/upload-comment.sh"
	printf '%s\n' 'mkdir -p "$WITH_PATH" && cp "$RUNNER_TEMP/comment-artifact.md" "$WITH_PATH/comment.md"' >"$S/download.sh"
	cat >"$W/bin/gh" <<'GH'
#!/bin/bash
# gh api, as the comment job calls it: the comments it lists come from
# $RUNNER_TEMP/gh-comments (one "ID BODY-FIRST-LINE" per line).
printf '%s\n' "$*" >> "$RUNNER_TEMP/gh-calls"
case "$*" in
"api --paginate "*) [ -f "$RUNNER_TEMP/gh-comments" ] && grep -F '<!-- sphereceti-profile -->' "$RUNNER_TEMP/gh-comments" | cut -d' ' -f1 ;;
esac
exit 0
GH
	chmod +x "$W/bin/gh"
	context MEMBER opened
}

# context ASSOCIATION ACTION [LABEL] [VARS_JSON] [NEEDS_JSON]: the event the replay sees.
context() {
	local vars=${4:-'{}'} needs=${5:-'{"gate": {"outputs": {"allowed": "true"}}}'}
	cat >"$W/context.json" <<JSON
{"github": {"event": {"action": "$2", "label": {"name": "${3:-}"},
                      "pull_request": {"number": 7, "author_association": "$1",
                                       "base": {"sha": "$B"}, "head": {"sha": "$H"}}},
            "sha": "$B", "event_name": "pull_request_target", "token": "t0ken",
            "repository": "owner/proj"},
 "inputs": {}, "runner": {"os": "Linux", "temp": "$RUNNER_TEMP"},
 "vars": $vars, "needs": $needs}
JSON
}

# replay_again: a fresh runner for the next replay of the same test.
replay_again() {
	rm -rf "$GITHUB_WORKSPACE" "$HOME/.elan"
	find "$RUNNER_TEMP" -mindepth 1 -maxdepth 1 ! -name 'comment-artifact.md' -exec rm -rf {} +
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

# replay [JOB]: one job of the profile workflow (default profile), in a
# mount namespace of its own; its outputs in $W/outputs-JOB.json.
replay() {
	run --separate-stderr unshare --mount --propagation private \
		env PATH="$W/bin:$PATH" REPLAY_TMPFS=/opt REPLAY_OUTPUTS="$W/outputs-${1:-profile}.json" \
		/usr/bin/python3 "$BATS_TEST_DIRNAME/lib/replay.py" "$YML" "${1:-profile}" "$W/context.json" "$S"
	echo "$output"
	echo "$stderr" | tail -n 30
}

@test "replay: the profile job's run: blocks, in order, end with report.md in the job summary, its annotations and the comment" {
	replay_setup
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"plan: success"* ]]
	[[ "$output" == *"profile: success"* ]]
	[[ "$output" == *"verdict: success"* ]]
	[[ "$output" == *"fail-on-flag: skipped"* ]]
	local run=$RUNNER_TEMP/ws-copy
	# the workspace lived on the replay's /opt: the upload's path is what is left
	[ "$(head -n 1 "$RUNNER_TEMP/uploaded")" = /opt/sphereceti/run ]
	grep -q '^| \*\*total\*\* |' "$GITHUB_STEP_SUMMARY"
	grep -q '^### Time to result' "$GITHUB_STEP_SUMMARY"
	grep -q '^| &nbsp;&nbsp;head prebuild |' "$GITHUB_STEP_SUMMARY"
	# the head side is the merge of H into B; the report links H, not the merge
	grep -q "(base tip … the merge of the pull request's head into it)" "$GITHUB_STEP_SUMMARY"
	grep -q "^| pull request head | \`${H:0:7}\` | \`$H\` |" "$GITHUB_STEP_SUMMARY"
	[[ "$stderr$output" == *"::notice title=sphereceti"* ]]
	head -n 1 "$RUNNER_TEMP/comment-artifact.md" | grep -qx '<!-- sphereceti-profile -->'
	[ "$(jq -r .comment "$W/outputs-profile.json")" = true ]
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
	# without the merge this pull request is refused
	run --separate-stderr "$(cat "$PREBUILT/path")/sc-plan" --repo "$ORIGIN" --tooling "$B" --base "$B" --head "$H"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"profile the merge of the pull request into --base (--merge-of)"* ]]
	KEY=sphereceti-deps-v2-Linux-$(git -C "$r" rev-parse "$B:lean-toolchain")-$(git -C "$r" rev-parse "$B:lake-manifest.json")
	mkdir -p "$STORE/$KEY/packages"
	cp -a "$newdep" "$STORE/$KEY/packages/tinylib"
	context MEMBER synchronize
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"profile: success"* ]]
	grep -q "^| pull request head | \`${H:0:7}\` | \`$H\` |" "$GITHUB_STEP_SUMMARY"
	grep -q "^| base tip | \`${B:0:7}\` | \`$B\` |" "$GITHUB_STEP_SUMMARY"
	grep -q '^| \*\*total\*\* |' "$GITHUB_STEP_SUMMARY"
}

@test "replay: a pull request that conflicts with the base gets one line and no error" {
	replay_setup
	on_top "$B" "$BATS_TEST_TMPDIR/main"
	printf 'def conflicting := 1\n' >"$WC/Demo/Ring.lean"
	B=$(ex_commit "$WC" "main edits Ring")
	push_to refs/heads/main "$B"
	context MEMBER synchronize
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"revs: success"* ]]
	[[ "$output" == *"build: skipped"* ]]
	[[ "$output" == *"plan: skipped"* ]]
	[ "$(wc -l <"$GITHUB_STEP_SUMMARY")" -eq 1 ]
	grep -q "^sphereceti: pull request #7 does not merge cleanly into $B: nothing was measured" "$GITHUB_STEP_SUMMARY"
}

@test "replay: a pull request that selects no file ends at the plan with no_changes, before elan or the cache" {
	replay_setup
	# the pull request touches only the README: no selected Lean file
	on_top "$B" "$BATS_TEST_TMPDIR/pr"
	printf 'more\n' >>"$WC/README.md"
	H=$(ex_commit "$WC" "README only")
	push_to refs/pull/7/head "$H"
	context MEMBER synchronize
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"plan: success"* ]]
	[[ "$output" == *"elan: skipped"* ]]
	[[ "$output" == *"deps: skipped"* ]]
	[[ "$output" == *"profile: skipped"* ]]
	grep -q '^sphereceti: no_changes: ' "$GITHUB_STEP_SUMMARY"
	[[ "$output" == *"::notice title=sphereceti::no_changes"* ]]
	[ ! -e "$HOME/.elan" ]
}

@test "replay: a pull request that bumps Lake itself is refused at the plan: one summary line, an error annotation, nothing installed after it" {
	replay_setup
	on_top "$H" "$BATS_TEST_TMPDIR/pr"
	printf 'leanprover/lean4:v4.35.0\n' >"$WC/lean-toolchain"
	H=$(ex_commit "$WC" "bump the toolchain")
	push_to refs/pull/7/head "$H"
	context MEMBER synchronize
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"plan: failure"* ]]
	[[ "$output" == *"elan: skipped"* ]]
	[ "$(wc -l <"$GITHUB_STEP_SUMMARY")" -eq 1 ]
	grep -q '^sphereceti: the plan was refused, nothing was measured: sc-plan: error: Lake configuration differs from the tooling commit: lean-toolchain changed; the pull request changes it' "$GITHUB_STEP_SUMMARY"
	[[ "$output" == *"::error title=sphereceti%3A not measured::the plan was refused: sc-plan: error: "* ]]
}

@test "replay: a cache miss is one clear line in the job summary naming the key and the saver, and nothing runs" {
	replay_setup
	rm -rf "${STORE:?}/$KEY"
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"miss: failure"* ]]
	[[ "$output" == *"profile: skipped"* ]]
	[[ "$output" == *"verdict: skipped"* ]]
	grep -q "^sphereceti: no prepared dependencies in the cache .*(key $KEY): run the workflow 'sphereceti dependencies'" "$GITHUB_STEP_SUMMARY"
	[ "$(wc -l <"$GITHUB_STEP_SUMMARY")" -eq 1 ]
}

@test "replay: a pull request that moved on since its event says so and stops" {
	replay_setup
	sed -i "s/\"head\": {\"sha\": \"[0-9a-f]*\"}/\"head\": {\"sha\": \"$B\"}/" "$W/context.json"
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"revs: failure"* ]]
	grep -q "^sphereceti: pull request #7 moved on since this event" "$GITHUB_STEP_SUMMARY"
}

@test "replay: a run profile-run refuses puts its error line in the job summary and an error annotation" {
	replay_setup
	# the saved dependencies lack the manifest's package
	rm -rf "${STORE:?}/$KEY/packages/tinylib"
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"profile: failure"* ]]
	[[ "$output" == *"verdict: success"* ]]
	grep -qx 'sphereceti: profile-run wrote no report:' "$GITHUB_STEP_SUMMARY"
	grep -q '^    sc-profile-run: error: .*tinylib' "$GITHUB_STEP_SUMMARY"
	[[ "$output" == *"::error title=sphereceti%3A not measured::sc-profile-run: error: "*tinylib* ]]
}

@test "replay: who may start it: a member at once; an outsider gets one line until the profile label" {
	replay_setup
	context MEMBER opened
	replay gate
	[ "$status" -eq 0 ]
	[ "$(jq -r .allowed "$W/outputs-gate.json")" = true ]
	[ ! -s "$GITHUB_STEP_SUMMARY" ]
	context CONTRIBUTOR opened
	replay gate
	[ "$(jq -r .allowed "$W/outputs-gate.json")" = false ]
	[ "$(wc -l <"$GITHUB_STEP_SUMMARY")" -eq 1 ]
	grep -q "^sphereceti: pull request #7 is by a contributor from outside the project (CONTRIBUTOR): it is profiled once a maintainer adds the label 'profile'" "$GITHUB_STEP_SUMMARY"
	context NONE labeled documentation
	replay gate
	[ "$(jq -r .allowed "$W/outputs-gate.json")" = false ]
	context NONE labeled profile
	replay gate
	[ "$(jq -r .allowed "$W/outputs-gate.json")" = true ]
	context NONE opened '' '{}' '{"gate": {"outputs": {"allowed": "false"}}}'
	replay profile
	[ "$output" = "job: skipped" ]
}

@test "replay: fail-on-flag: a flagged file fails the job only when SPHERECETI_FAIL_ON_FLAG is true" {
	replay_setup
	# the profile step stands in with a report whose one file is flagged
	cat >"$S/profile.sh" <<'SH'
mkdir -p "$RUN"
jq -n '{schema: "sphereceti.report/1", status: "ok", headline: "1 of 1 files got slower",
        environment: {lean_version: "Lean (version 4.34.0-rc1, x86_64)"},
        files: [{path: "Demo/Ring.lean", change: "modified", flagged: true, ratio: 2.0, delta_s: 60.0,
                 reason: "head >= 1.5x base and >= +30 s", base: {cpu_s: 60.0}, head: {cpu_s: 120.0}}]}' > "$RUN/report.json"
printf '# sphereceti profile\n' > "$RUN/report.md"
echo "$(date +%s) profile" >> "$MARKS"
SH
	replay
	[ "$status" -eq 0 ]
	[[ "$output" == *"fail-on-flag: skipped"* ]]
	[[ "$output" == *"::warning file=Demo/Ring.lean,title=sphereceti (Lean (version 4.34.0-rc1%2C x86_64))%3A slower::Demo/Ring.lean: 60.00 → 120.00 s CPU (2.00×, +60.00 s)"* ]]
	replay_again
	context MEMBER opened '' '{"SPHERECETI_FAIL_ON_FLAG": "true"}'
	replay
	[ "$status" -eq 1 ]
	[[ "$output" == *"fail-on-flag: failure"* ]]
	grep -q '^sphereceti: 1 file(s) got slower beyond the thresholds, and this repository fails the check' "$GITHUB_STEP_SUMMARY"
}

@test "replay: the comment job creates one comment, then updates the one its marker finds" {
	replay_setup
	printf '<!-- sphereceti-profile -->\nreport\n' >"$RUNNER_TEMP/comment-artifact.md"
	context MEMBER opened '' '{}' '{"profile": {"outputs": {"comment": "true"}}}'
	replay comment
	[ "$output" = "job: skipped" ]
	context MEMBER opened '' '{"SPHERECETI_COMMENT": "true"}' '{"profile": {"outputs": {"comment": "true"}}}'
	replay comment
	[ "$status" -eq 0 ]
	[[ "$output" == *"post: success"* ]]
	grep -q '^api --method POST repos/owner/proj/issues/7/comments -F body=@' "$RUNNER_TEMP/gh-calls"
	printf '%s\n' '11 a reviewer' '12 <!-- sphereceti-profile -->' >"$RUNNER_TEMP/gh-comments"
	: >"$RUNNER_TEMP/gh-calls"
	replay comment
	[ "$status" -eq 0 ]
	grep -q '^api --method PATCH repos/owner/proj/issues/comments/12 -F body=@' "$RUNNER_TEMP/gh-calls"
	run ! grep -q POST "$RUNNER_TEMP/gh-calls"
}
