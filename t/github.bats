#!/usr/bin/env bats
# contrib/github/: the profile workflow (profile.yml), its trusted saver
# (deps.yml), what its jobs run (verdict.py: the check document, no
# network; github.py: the calls to GitHub's API).  Their shape, parsed as
# YAML (python3-yaml); the workflow lint (actionlint, shellcheck) finds
# nothing; verdict.py's figures are report.md's; github.py against a double
# of the API on loopback (t/lib/apidouble.py): the gate's decisions, the
# check run created, updated, batched, a refusal in one line.  The profile
# job's run: blocks replayed are t/replay.bats; make check-recipe replays
# the whole workflow, event after event, on a runner-shaped root
# (t/recipe/check.sh).
load helpers
load lib/origin
load lib/project
# shellcheck source=../contrib/example/example.bash
. "$BATS_TEST_DIRNAME/../contrib/example/example.bash"

bats_require_minimum_version 1.5.0

setup() {
	/usr/bin/python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	YML=$BATS_TEST_DIRNAME/../contrib/github/profile.yml
	SAVER=$BATS_TEST_DIRNAME/../contrib/github/deps.yml
	GH=$BATS_TEST_DIRNAME/../contrib/github
}

teardown() {
	[ -z "${DOUBLE:-}" ] || kill "$DOUBLE" 2>/dev/null || true
}

# check PYTHON: run an assertion script with the parsed workflow as `w`, its
# jobs as `gate`, `start`, `job` (the profile job), `pub` (publish) and
# `cjob` (comment), the profile job's steps as `steps`, every step's run
# text as `runs`; the saver's the same with an `s_` prefix.
check() {
	/usr/bin/python3 - "$YML" "$SAVER" "$1" <<'PY'
import re, sys, yaml
def load(p):
    w = yaml.safe_load(open(p))
    return w, w.get("on", w.get(True))
w, on = load(sys.argv[1])
s_w, s_on = load(sys.argv[2])
J = w["jobs"]
gate, start, job, pub, cjob = J["gate"], J["start"], J["profile"], J["publish"], J["comment"]
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

@test "the workflow runs the base branch's copy (pull_request_target, /profile comments, a dispatch with the head); each job holds one permission or none" {
	check '
assert sorted(on) == ["issue_comment", "merge_group", "pull_request_target", "workflow_dispatch"], on
assert on["merge_group"]["types"] == ["checks_requested"]
assert on["pull_request_target"]["types"] == ["opened", "synchronize", "reopened", "labeled"]
assert on["issue_comment"]["types"] == ["created"]
inputs = on["workflow_dispatch"]["inputs"]
assert inputs["pr"]["required"] is True and inputs["head"]["required"] is True
assert w["permissions"] == {}, w["permissions"]
assert "concurrency" not in w, "a workflow-wide group: any label would cancel a running profile"
assert gate["permissions"] == {"pull-requests": "read"}
assert start["permissions"] == pub["permissions"] == {"checks": "write"}
assert job["permissions"] == {"contents": "read"}, job["permissions"]
assert cjob["permissions"] == {"pull-requests": "write"}, cjob["permissions"]
for why in ("never checked out", "read-only", "inside bubblewrap", "never saves one", "never turns red"):
    assert why in text, why
'
}

@test "the head is never checked out: objects fetched; T and B the commit the workflow runs from; H the head the gate bound; the token not kept" {
	check '
co = by_id("checkout")
assert co["with"]["ref"] == "${{ github.sha }}"
assert co["with"]["fetch-depth"] == 0 and co["with"]["persist-credentials"] is False
assert job["env"]["BASE_SHA"] == job["env"]["TOOLING_SHA"] == "${{ github.sha }}"
assert job["env"]["HEAD_SHA"] == "${{ needs.gate.outputs.head }}"
assert "github.event.pull_request.base.sha" not in text and "github.event.pull_request.head.sha" not in text
r = by_id("revs")["run"]
assert "git fetch --no-tags --quiet origin \"+refs/pull/$PR_NUMBER/head:" in r
assert "+refs/pull/$PR_NUMBER/merge:" in r and "git merge-tree --write-tree" in r
assert "if [ \"$now\" != \"$HEAD_SHA\" ]; then" in r
all_runs = "\n".join(s.get("run", "") for j in J.values() for s in j["steps"])
assert not re.search(r"git (checkout|switch|worktree)", all_runs), "a job checks something out"
for j in J.values():
    for s in j["steps"]:
        if "actions/checkout" in s.get("uses", ""):
            assert s["with"]["persist-credentials"] is False
            assert s["with"].get("repository") in (None, "${{ env.SPHERECETI_REPOSITORY }}")
'
}

@test "the profiler is sphereceti's own repository at a pinned full commit: no vendored tree, checked by profile-run, recorded in the report" {
	check '
assert w["env"]["SPHERECETI_REPOSITORY"] == "sphereceti/sphereceti"
assert re.fullmatch(r"[0-9a-f]{40}", w["env"]["SPHERECETI_COMMIT"])
for j in (gate, start, job, pub, cjob):
    s = by_id("sphereceti", j["steps"])
    assert s["with"] == {"repository": "${{ env.SPHERECETI_REPOSITORY }}", "ref": "${{ env.SPHERECETI_COMMIT }}",
                         "path": "sphereceti", "persist-credentials": False}, s["with"]
assert "PROFILER_PATH" not in text and "tools/sphereceti" not in text
assert "make -C \"$SC_SRC\"" in by_id("build")["run"]
for i in ("plan", "profile"):
    assert "--profiler-commit \"$SPHERECETI_COMMIT\"" in by_id(i)["run"], i
'
}

@test "no expression inside a run: block; every action pinned by a full SHA; no secret; the token only where a job calls GitHub" {
	check '
for j in list(J.values()) + [s_job]:
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
holders = sorted((name, s["id"]) for name, j in J.items() for s in j["steps"]
                 if "github.token" in str(s.get("env", {})))
assert holders == [("comment", "post"), ("gate", "gate"), ("publish", "publish"), ("start", "start")], holders
assert "github.token" not in str(job) and "gh " not in runs and "gh " not in s_runs
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

@test "the saver runs only on pushes to the base branch: dependencies per manifest, the artifact cache per push built on the last one, under the keys the profile job restores" {
	check '
assert sorted(s_on) == ["push", "workflow_dispatch"], s_on
assert s_w["permissions"] == {"contents": "read"}
restore = by_id("deps")
save = by_id("save-deps", s_steps)
assert restore["with"]["key"] == save["with"]["key"] == by_id("saved", s_steps)["with"]["key"]
assert restore["with"]["path"] == save["with"]["path"]
assert "steps.keys.outputs.toolchain" in save["with"]["key"] and "steps.keys.outputs.manifest" in save["with"]["key"]
assert save["if"] == "steps.saved.outputs.cache-hit != '"'"'true'"'"'"
keys = by_id("keys")["run"]
assert keys.replace("cd \"$REPO\" || exit 1\n", "") == by_id("keys", s_steps)["run"], "the key step differs"
assert "lake-manifest.json" in keys and "lean-toolchain" in keys
lc, sc, prev = by_id("lakecache"), by_id("save-cache", s_steps), by_id("previous", s_steps)
assert sc["with"]["key"].endswith("-${{ env.TOOLING_SHA }}") and lc["with"]["key"].endswith("-${{ env.BASE_SHA }}")
prefix = sc["with"]["key"][:-len("${{ env.TOOLING_SHA }}")]
assert lc["with"]["restore-keys"] == prev["with"]["restore-keys"] == prefix, "only an entry of this very toolchain and manifest"
assert prev["with"]["key"] == sc["with"]["key"] and sc["if"] == "steps.previous.outputs.cache-hit != '"'"'true'"'"'"
ids = [s.get("id") for s in s_steps]
assert ids.index("previous") < ids.index("prepare") < ids.index("save-cache")
assert lc["with"]["path"] == sc["with"]["path"] == prev["with"]["path"]
p = by_id("prepare", s_steps)["run"]
assert "lake build" in p and "lake exe cache get" in p and "LAKE_CACHE_DIR=\"$LAKE_CACHE\"" in p
assert "LAKE_ARTIFACT_CACHE=true" in p and "mv .lake/packages \"$DEPS/packages\"" in p
'
}

@test "one package list: the recipe installs with sphereceti's contrib/install-deps.sh run, which brings libseccomp-dev" {
	check '
i = by_id("install")["run"]
assert "bash \"$SC_SRC/contrib/install-deps.sh\" run" in i, i
assert "apt-get install" not in i
for t in (runs, s_runs):
    for line in t.splitlines():
        if "apt-get install" in line:
            assert line.strip().endswith("apparmor-profiles"), line
'
	grep -q '^run_pkgs=(.*libseccomp-dev' "$BATS_TEST_DIRNAME/../contrib/install-deps.sh"
}

@test "profile-plan runs before any toolchain or cache; profile-run runs as root through sudo on the merge; the job's timeout follows the bounds" {
	check '
ids = [s.get("id") for s in steps]
assert ids.index("plan") < ids.index("elan") < ids.index("keys") < ids.index("deps") < ids.index("profile")
for i in ("elan", "keys", "deps"):
    assert by_id(i)["if"] == "steps.plan.outputs.status == '"'"'changes'"'"'", i
assert "steps.deps.outputs.cache-hit == '"'"'true'"'"'" in by_id("profile")["if"]
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

@test "who may start it, and what it cancels: the gate decides; only an approved profile shares its pull request's concurrency group" {
	check '
assert gate["if"] == "github.event_name != '"'"'issue_comment'"'"' || (github.event.issue.pull_request && startsWith(github.event.comment.body, '"'"'/profile'"'"'))"
assert by_id("gate", gate["steps"])["run"].endswith("github.py\" gate")
assert job["needs"] == ["gate", "plan"] and job["if"] == "needs.gate.outputs.measure == '"'"'true'"'"'"
# a runner a shard: each cancels the runner of its own shard of an older run
assert job["concurrency"] == {"group": "${{ needs.gate.outputs.group }}-${{ matrix.shard }}", "cancel-in-progress": True}
assert job["strategy"] == {"fail-fast": False, "matrix": {"shard": "${{ fromJSON(needs.plan.outputs.matrix) }}"}}
assert start["needs"] == "gate" and start["if"] == job["if"] == J["plan"]["if"]
assert pub["needs"] == ["gate", "start", "plan", "profile", "merge"]
assert pub["if"] == "always() && needs.gate.outputs.publish == '"'"'true'"'"'"
assert cjob["needs"] == ["gate", "plan", "profile", "merge"]
# the merged report is the document when there were shards, else that of the profile job
for j in (pub, cjob):
    (s,) = [s for s in j["steps"] if "RESULT" in s.get("env", {})]
    assert s["env"]["RESULT"] == "${{ needs.merge.result != '"'"'skipped'"'"' && needs.merge.result || needs.profile.result }}"
mj = J["merge"]
assert mj["needs"] == ["gate", "plan", "profile"] and mj["if"].startswith("always() && ")
assert "needs.plan.outputs.shards != '"'"'1'"'"'" in mj["if"]
assert mj["permissions"] == J["plan"]["permissions"] == {"contents": "read"}
assert "sphereceti merge --out-dir" in by_id("merge", mj["steps"])["run"]
assert "--shards auto" in by_id("count", J["plan"]["steps"])["run"]
assert "--shard \"$SHARD/$SHARDS\"" in by_id("profile")["run"]
assert "vars.SPHERECETI_COMMENT == '"'"'true'"'"'" in cjob["if"] and "needs.gate.outputs.publish" in cjob["if"]
assert "env.FAIL_ON_FLAG == '"'"'true'"'"'" in by_id("fail-on-flag")["if"]
assert job["env"]["FAIL_ON_FLAG"] == "${{ vars.SPHERECETI_FAIL_ON_FLAG }}"
assert by_id("verdict")["if"] == "!cancelled()"
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

# --- the check document (contrib/github/verdict.py) -------------------------

verdict() { run --separate-stderr /usr/bin/python3 "$GH/verdict.py" "$@"; }

@test "verdict.py quotes every line it prints: CR, LF, ESC, :: and % from its input start no line and steer no terminal" {
	local evil=$'x\r::warning::forged 100%\n::error::again\x1b[2J'
	verdict note "$BATS_TEST_TMPDIR/note.json" --conclusion neutral --title "$evil" --details "$evil"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = 'sphereceti: x ::warning::forged 100% ::error::again\x1b[2J. x ::warning::forged 100% ::error::again\x1b[2J' ]
	verdict note "$BATS_TEST_TMPDIR/$evil/note.json" --conclusion neutral --title t
	[ "$status" -eq 2 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == 'verdict.py: error: cannot write the note: '*' ::warning::forged 100% ::error::again\x1b[2J/note.json)' ]]
}
H40=0123456789abcdef0123456789abcdef01234567
URL=https://github.com/o/p/actions/runs/1

# a_report STATUS: a report.json with one flagged modified, one flagged
# added and one clean file, its report.md beside it.
a_report() {
	jq -n --arg st "$1" '{schema: "sphereceti.report/1", status: $st,
	    headline: "2 of 3 files got slower beyond the thresholds: Lib/Slow.lean 60.00 → 90.00 s CPU (1.50×, +30.00 s); Lib/New.lean new, 150.00 s CPU. Flags are advisory.",
	    thresholds: {ratio: 1.5, delta_s: 30, added_s: 150, default: true},
	    files: [{path: "Lib/Slow.lean", change: "modified", flagged: true, ratio: 1.5, delta_s: 30.0,
	             reason: "head ≥ 1.5× base and ≥ +30 s", base: {cpu_s: 60.0}, head: {cpu_s: 90.0}},
	            {path: "Lib/New.lean", change: "added", flagged: true, head: {cpu_s: 150.0}, reason: "new file at ≥ 150 s"},
	            {path: "Lib/Fine.lean", change: "modified", flagged: false}]}' >"$BATS_TEST_TMPDIR/report.json"
	printf '# sphereceti profile\n\n**2 of 3 files got slower**\n' >"$BATS_TEST_TMPDIR/report.md"
}

@test "check: a flagged run is neutral (failure only with --fail-on-flag), its title the report's verdict, an annotation on each flagged file" {
	a_report ok
	verdict check "$BATS_TEST_TMPDIR/report.json" "$BATS_TEST_TMPDIR/report.md" --head "$H40" --run-url "$URL"
	[ "$status" -eq 0 ]
	[ "$(jq -r .conclusion <<<"$output")" = neutral ]
	[ "$(jq -r .head_sha <<<"$output")" = "$H40" ]
	[ "$(jq -r .title <<<"$output")" = "$(jq -r .headline "$BATS_TEST_TMPDIR/report.json")" ]
	[ "$(jq -r .summary <<<"$output")" = "$(cat "$BATS_TEST_TMPDIR/report.md")" ]
	[ "$(jq -r .flagged <<<"$output")" = 2 ]
	[ "$(jq -r '.annotations | map(.path + "@" + (.start_line | tostring) + " " + .annotation_level) | join(",")' <<<"$output")" = "Lib/Slow.lean@1 warning,Lib/New.lean@1 warning" ]
	[[ "$(jq -r '.annotations[0].message' <<<"$output")" == "Lib/Slow.lean: 60.00 → 90.00 s CPU (1.50×, +30.00 s); head ≥ 1.5× base and ≥ +30 s."* ]]
	[[ "$(jq -r '.annotations[1].message' <<<"$output")" == "Lib/New.lean: new, 150.00 s CPU; new file at ≥ 150 s."* ]]
	verdict check "$BATS_TEST_TMPDIR/report.json" "$BATS_TEST_TMPDIR/report.md" --head "$H40" --run-url "$URL" --fail-on-flag
	[ "$(jq -r .conclusion <<<"$output")" = failure ]
	# Figures are truncated as report.md truncates them, never rounded.
	jq '.thresholds = {ratio: 1.5, delta_s: 0.1, added_s: 5} | .files[0].base.cpu_s = 0.426 | .files[0].head.cpu_s = 0.638' \
		"$BATS_TEST_TMPDIR/report.json" >"$BATS_TEST_TMPDIR/r2.json"
	verdict check "$BATS_TEST_TMPDIR/r2.json" "$BATS_TEST_TMPDIR/report.md" --head "$H40" --run-url "$URL"
	[[ "$(jq -r '.annotations[0].message' <<<"$output")" == "Lib/Slow.lean: 0.42 → 0.63 s CPU (1.49×, +0.21 s);"* ]]
}

@test "check: nothing flagged is success, an incomplete measurement failure, no_changes neutral" {
	a_report ok
	jq '.files |= map(.flagged = false) | .headline = "Nothing got slower beyond the thresholds (3 files compared)."' \
		"$BATS_TEST_TMPDIR/report.json" >"$BATS_TEST_TMPDIR/clean.json"
	verdict check "$BATS_TEST_TMPDIR/clean.json" "$BATS_TEST_TMPDIR/report.md" --head "$H40" --run-url "$URL"
	[ "$(jq -r '.conclusion + " " + (.annotations | length | tostring)' <<<"$output")" = "success 0" ]
	jq '.status = "error" | .files |= map(.flagged = false)' "$BATS_TEST_TMPDIR/report.json" >"$BATS_TEST_TMPDIR/err.json"
	verdict check "$BATS_TEST_TMPDIR/err.json" "$BATS_TEST_TMPDIR/report.md" --head "$H40" --run-url "$URL"
	[ "$(jq -r .conclusion <<<"$output")" = failure ]
	jq '.status = "no_changes" | .files = []' "$BATS_TEST_TMPDIR/report.json" >"$BATS_TEST_TMPDIR/none.json"
	verdict check "$BATS_TEST_TMPDIR/none.json" "$BATS_TEST_TMPDIR/report.md" --head "$H40" --run-url "$URL"
	[ "$(jq -r .conclusion <<<"$output")" = neutral ]
}

@test "one figure everywhere: each annotation's figures are the report headline's, truncated alike (non-default thresholds too)" {
	TC=$SC_FIXTURE/toolchain
	project_base
	candidate
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.61'
	ex_lean "$R" Demo/Field.lean '-- fixture: cpu=0.337'
	head_commit
	profile --threshold-delta 0.015 --threshold-added 0.3 --quiet
	[ "$status" -eq 0 ]
	verdict check "$WS/report.json" "$WS/report.md" --head "$H40" --run-url "$URL"
	[ "$status" -eq 0 ]
	local headline n i path figures
	headline=$(jq -r .headline "$WS/report.json")
	n=$(jq '.annotations | length' <<<"$output")
	[ "$n" -eq 2 ]
	for ((i = 0; i < n; i++)); do
		path=$(jq -r ".annotations[$i].path" <<<"$output")
		figures=$(jq -r ".annotations[$i].message" <<<"$output" | sed "s|^$path: ||; s/; .*//")
		echo "annotation: $path $figures; headline: $headline"
		[[ "$headline" == *"$path $figures"* ]]
	done
}

@test "outcome and note: a run that made no report gets one line and what to do; the comment names the head; bad input is one line, exit 2, never a traceback" {
	verdict note "$BATS_TEST_TMPDIR/note.json" --conclusion neutral --title "Not measured: a bump" --details "Nothing is wrong."
	[ "$output" = "sphereceti: Not measured: a bump. Nothing is wrong." ]
	verdict outcome --head "$H40" --run-url "$URL" --from "$BATS_TEST_TMPDIR/note.json"
	[ "$status" -eq 0 ]
	[ "$(jq -r '.conclusion + ": " + .title' <<<"$output")" = "neutral: Not measured: a bump" ]
	[[ "$(jq -r .summary <<<"$output")" == *"Nothing is wrong."*"Head: \`$H40\`. [The run]($URL)."* ]]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/check.json"
	verdict comment "$BATS_TEST_TMPDIR/check.json"
	[ "${lines[0]}" = '<!-- sphereceti-profile -->' ]
	[ "${lines[1]}" = "**sphereceti** on \`${H40:0:12}\`: <code>Not measured&#58; a bump</code>" ]
	# Whatever it is handed, one line and exit 2.
	local bad
	for bad in '{"schema": "other"}' '[]' '{"schema": "sphereceti.report/1", "status": "ok", "headline": "x", "files": [{"flagged": true}]}' \
		'{"schema": "sphereceti.report/1", "status": "ok", "headline": "x", "thresholds": {"ratio": 1.5, "delta_s": 30, "added_s": 150}, "files": [{"path": "A.lean", "flagged": true, "base": {}, "head": "x"}]}' \
		'not json' ''; do
		printf '%s' "$bad" >"$BATS_TEST_TMPDIR/r.json"
		verdict check "$BATS_TEST_TMPDIR/r.json" "$BATS_TEST_TMPDIR/check.json" --head "$H40" --run-url "$URL"
		echo "$bad -> $status: $stderr"
		[ "$status" -eq 2 ]
		[[ "$stderr" == "verdict.py: error: "*"($BATS_TEST_TMPDIR/r.json)" ]]
		[ "$(grep -c . <<<"$stderr")" -eq 1 ]
	done
	verdict check "$BATS_TEST_TMPDIR/missing.json" x --head "$H40" --run-url "$URL"
	[ "$status" -eq 2 ]
	[ "$(grep -c . <<<"$stderr")" -eq 1 ]
	verdict outcome --head "$H40" --run-url "$URL" --conclusion success --title x
	[ "$status" -eq 2 ]
	[ "$stderr" = "verdict.py: error: unknown conclusion 'success' (--conclusion)" ]
	verdict frobnicate
	[ "$status" -eq 2 ]
	[[ "$stderr" == "verdict.py: error: usage: verdict.py check "* ]]
}

@test "the summary and the comment: report.md whole, or cut at a line under GitHub's limits in UTF-8 bytes with a link to the run; the title under 256 bytes" {
	a_report ok
	# rows of 3-byte characters: 51,000 characters, 81,000 bytes, which
	# GitHub counts as bytes
	/usr/bin/python3 -c 'import sys; sys.stdout.write("".join("| `Lib/%05d.lean` | ≥≥≥≥≥≥≥≥≥≥ |\n" % i for i in range(1500)))' >"$BATS_TEST_TMPDIR/report.md"
	jq --arg h "$(printf 'slöw %.0s' $(seq 100))" '.headline = $h' "$BATS_TEST_TMPDIR/report.json" >"$BATS_TEST_TMPDIR/long.json"
	/usr/bin/python3 "$GH/verdict.py" check "$BATS_TEST_TMPDIR/long.json" "$BATS_TEST_TMPDIR/report.md" --head "$H40" --run-url "$URL" >"$BATS_TEST_TMPDIR/check.json"
	local n
	n=$(jq -j .summary "$BATS_TEST_TMPDIR/check.json" | wc -c)
	[ "$n" -le 65535 ]
	[ "$n" -gt 60000 ]
	jq -j .summary "$BATS_TEST_TMPDIR/check.json" >"$BATS_TEST_TMPDIR/s.md"
	[ "$(tail -n 1 "$BATS_TEST_TMPDIR/s.md")" = "*Cut to fit: the whole report is in the job summary and the artifact of [this run]($URL).*" ]
	[ "$(grep -c '^| `Lib/[0-9]*\.lean` | ≥≥≥≥≥≥≥≥≥≥ |$' "$BATS_TEST_TMPDIR/s.md")" -eq "$(grep -c '^| `' "$BATS_TEST_TMPDIR/s.md")" ]
	[ "$(jq -j .title "$BATS_TEST_TMPDIR/check.json" | wc -c)" -le 255 ]
	[[ "$(jq -r .title "$BATS_TEST_TMPDIR/check.json")" == "slöw slöw "*"slöw…" ]]
	/usr/bin/python3 "$GH/verdict.py" comment "$BATS_TEST_TMPDIR/check.json" >"$BATS_TEST_TMPDIR/c.md"
	n=$(wc -c <"$BATS_TEST_TMPDIR/c.md")
	[ "$n" -le 65536 ]
	[ "$(head -n 1 "$BATS_TEST_TMPDIR/c.md")" = '<!-- sphereceti-profile -->' ]
}

@test "nothing the pull request chose renders: a refused path with Markdown, HTML and a mention is inert in the check run's summary and the comment" {
	local evil='Not measured: unsupported module name: Lib/![x](https://evil.example/i.png) @org/admins <img src=x onerror=alert(1)> | **b** [l](https://evil.example) www.evil.example #12 `c`.lean'
	/usr/bin/python3 "$GH/verdict.py" outcome --head "$H40" --run-url "$URL" --conclusion neutral --title "$evil" >"$BATS_TEST_TMPDIR/doc.json"
	jq -j .summary "$BATS_TEST_TMPDIR/doc.json" >"$BATS_TEST_TMPDIR/s.md"
	/usr/bin/python3 "$GH/verdict.py" comment "$BATS_TEST_TMPDIR/doc.json" >"$BATS_TEST_TMPDIR/c.md"
	local f html
	for f in s c; do
		cmark-gfm --unsafe -e table -e autolink -e strikethrough "$BATS_TEST_TMPDIR/$f.md" >"$BATS_TEST_TMPDIR/$f.html"
		html=$(cat "$BATS_TEST_TMPDIR/$f.html")
		# no image, no tag of the candidate's, no table, no emphasis of its
		run ! grep -q '<img\|<table\|<strong>b\|<em>' <<<"$html"
		# every link is ours: the run's, never the candidate's
		run ! grep -q 'href="https://evil\|href="http://www.evil' <<<"$html"
		# the mention and the issue number stand inside code, where GitHub links nothing
		[ "$(grep -o '@org/admins' <<<"$html" | wc -l)" -eq "$(grep -o '<code>[^<]*@org/admins' <<<"$html" | wc -l)" ]
		[ "$(grep -o '@org/admins' <<<"$html" | wc -l)" -ge 1 ]
		[ "$(grep -o '#12' <<<"$html" | wc -l)" -eq "$(grep -o '<code>[^<]*#12' <<<"$html" | wc -l)" ]
		[ "$(grep -o 'onerror' <<<"$html" | wc -l)" -eq "$(grep -o '<code>[^<]*onerror' <<<"$html" | wc -l)" ]
	done
	# the check run's title is plain text on GitHub: kept as said, one line
	[ "$(jq -r .title "$BATS_TEST_TMPDIR/doc.json")" = "$evil" ]
}

@test "timings: each step's wall time from the marks, the profile split into its prebuilds and samples" {
	printf '%s\n' '100 start' '130 setup' '131 plan' '160 toolchain and dependency restore' '400 profile' '401 report' >"$BATS_TEST_TMPDIR/marks"
	jq -n '{schema: "sphereceti.report/1", prebuild: {base: {wall_s: 50.4}, head: {wall_s: 60.0}},
	        files: [{base: {wall_s: 40.0}, head: {wall_s: 45.0}}, {base: null, head: {wall_s: 10.0}}]}' >"$BATS_TEST_TMPDIR/r.json"
	verdict timings "$BATS_TEST_TMPDIR/marks" "$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'| setup | 30 |\n| plan | 1 |\n| toolchain and dependency restore | 29 |\n| profile | 240 |\n| &nbsp;&nbsp;base prebuild | 50 |\n| &nbsp;&nbsp;head prebuild | 60 |\n| &nbsp;&nbsp;samples (3) | 95 |\n| report | 1 |\n| **total** | 301 |'* ]]
}

# --- GitHub's API (contrib/github/github.py, against t/lib/apidouble.py) ----

# api_double: the double on loopback, with the job token and pull request 7
# (head H40, into main); GITHUB_* as the runner sets them.
api_double() {
	A=$BATS_TEST_TMPDIR/api
	mkdir -p "$A"
	TOKEN=ghs_test_token_$RANDOM
	jq -n --arg t "$TOKEN" --arg h "$H40" '{token: $t, repo: "o/p", pulls: {"7": {head: $h, base: "main"}}}' >"$A/config.json"
	/usr/bin/python3 "$BATS_TEST_DIRNAME/lib/apidouble.py" "$A" 2>"$A/stderr" &
	DOUBLE=$!
	wait_for 30 test -s "$A/port"
	export GITHUB_API_URL=http://127.0.0.1:$(cat "$A/port") GITHUB_REPOSITORY=o/p GH_TOKEN=$TOKEN
	export GITHUB_SERVER_URL=https://github.com GITHUB_RUN_ID=11 GITHUB_REF_NAME=main
	export GITHUB_OUTPUT=$BATS_TEST_TMPDIR/out GITHUB_STEP_SUMMARY=$BATS_TEST_TMPDIR/summary
	: >"$GITHUB_OUTPUT"
	: >"$GITHUB_STEP_SUMMARY"
}
gh_py() { run --separate-stderr /usr/bin/python3 "$GH/github.py" "$@"; }
requests() { jq -c "$1" "$A/requests.jsonl"; }
out_of() { sed -n "s/^$1=//p" "$GITHUB_OUTPUT" | tail -n 1; }

# gate EVENT_NAME EVENT_JSON: the gate's decision, in $GITHUB_OUTPUT.
gate() {
	printf '%s\n' "$2" >"$BATS_TEST_TMPDIR/event.json"
	: >"$GITHUB_OUTPUT"
	: >"$GITHUB_STEP_SUMMARY"
	GITHUB_EVENT_NAME=$1 GITHUB_EVENT_PATH=$BATS_TEST_TMPDIR/event.json gh_py gate
}
pr_event() { # ACTION ASSOCIATION [LABEL]
	jq -n --arg a "$1" --arg who "$2" --arg l "${3:-}" --arg h "$H40" \
		'{action: $a, label: {name: $l}, pull_request: {number: 7, author_association: $who, head: {sha: $h}}}'
}
comment_event() { # BODY ASSOCIATION
	jq -n --arg b "$1" --arg who "$2" '{action: "created", issue: {number: 7, pull_request: {url: "u"}},
		comment: {body: $b, author_association: $who, user: {login: "someone"}}}'
}

@test "gate: a merge queue's commit gets a neutral check at once, never a wait" {
	api_double
	# a merge queue's commit: a neutral check at once, nothing measured
	gate merge_group "$(jq -n --arg h "$H40" '{action: "checks_requested", merge_group: {head_sha: $h, base_ref: "refs/heads/main"}}')"
	[ "$status" -eq 0 ]
	[ "$(out_of measure) $(out_of publish) $(out_of head) $(out_of pr)" = "false true $H40 " ]
	[ "$(out_of reason)" = "Not measured in the merge queue: each pull request's own head holds its verdict" ]
	gate merge_group '{"merge_group": {"head_sha": "abc"}}'
	[ "$status" -eq 2 ]
	[[ "$stderr" == "github.py: error: the merge group's head is not a full commit ID: 'abc' (merge_group)" ]]
	[ ! -s "$A/requests.jsonl" ]
}

@test "gate: a member's pull request at once; an outsider's waits with how to approve; the label profile approves its event's head; any other label nothing" {
	api_double
	gate pull_request_target "$(pr_event opened MEMBER)"
	[ "$status" -eq 0 ]
	[ "$(out_of measure) $(out_of publish) $(out_of head) $(out_of group)" = "true true $H40 sphereceti-profile-7" ]
	gate pull_request_target "$(pr_event synchronize CONTRIBUTOR)"
	[ "$(out_of measure) $(out_of publish)" = "false true" ]
	[ "$(out_of reason)" = "Not measured yet: pull request #7 is by a contributor from outside the project (CONTRIBUTOR)" ]
	[[ "$(out_of details)" == *'commenting `/profile`, adding the label `profile`'* ]]
	[ "$(grep -c . "$GITHUB_STEP_SUMMARY")" -eq 1 ]
	# a push after the label approved an earlier head: the label is still
	# on, and only taking it off and putting it back is a new approval
	gate pull_request_target "$(pr_event synchronize CONTRIBUTOR | jq '.pull_request.labels = [{name: "bug"}, {name: "profile"}]')"
	[ "$(out_of measure) $(out_of publish)" = "false true" ]
	[[ "$(out_of details)" == *'commenting `/profile`, removing the label `profile` (it approved an earlier head) and adding it again, or running'* ]]
	gate pull_request_target "$(pr_event labeled NONE profile)"
	[ "$(out_of measure) $(out_of head)" = "true $H40" ]
	gate pull_request_target "$(pr_event labeled MEMBER bug)"
	[ "$(out_of measure) $(out_of publish) $(out_of group)" = "false false sphereceti-noop-11" ]
	[ "$(cat "$GITHUB_STEP_SUMMARY")" = "sphereceti: the label 'bug' is not 'profile': nothing to do" ]
	gate pull_request_target "$(pr_event closed MEMBER)"
	[ "$(out_of measure) $(out_of publish)" = "false false" ]
	# a project that measures everyone at once (SPHERECETI_MEASURE_ANYONE)
	MEASURE_ANYONE=true gate pull_request_target "$(pr_event opened NONE)"
	[ "$(out_of measure) $(out_of publish) $(out_of group)" = "true true sphereceti-profile-7" ]
	[ "$(out_of reason)" = "pull request #7 (NONE): measured at once, as SPHERECETI_MEASURE_ANYONE says" ]
	MEASURE_ANYONE=yes gate pull_request_target "$(pr_event opened NONE)"
	[ "$(out_of measure)" = false ]
	# None of these asked GitHub anything.
	[ ! -s "$A/requests.jsonl" ]
}

@test "gate: /profile by a maintainer binds to the pull request's head as read, or to the head it names; anyone else's starts nothing" {
	api_double
	gate issue_comment "$(comment_event /profile MEMBER)"
	[ "$status" -eq 0 ]
	[ "$(out_of measure) $(out_of head)" = "true $H40" ]
	[ "$(out_of reason)" = "/profile by someone approves ${H40:0:12}" ]
	[ "$(requests '[.method, .path, .token]')" = '["GET","/repos/o/p/pulls/7","ok"]' ]
	gate issue_comment "$(comment_event "/profile $H40" OWNER)"
	[ "$(out_of measure) $(out_of head)" = "true $H40" ]
	local other=0badc0ffee0badc0ffee0badc0ffee0badc0ffee
	gate issue_comment "$(comment_event "/profile $other" COLLABORATOR)"
	[ "$(out_of measure) $(out_of publish) $(out_of head)" = "false true $other" ]
	[ "$(out_of reason)" = "Not measured: pull request #7 moved on to ${H40:0:12} since 0badc0ffee0b was approved" ]
	# a short ID, even the head's own, approves nothing: one reply with the full ID to paste
	gate issue_comment "$(comment_event "/profile ${H40:0:7}" OWNER)"
	[ "$(out_of measure) $(out_of publish) $(out_of head)" = "false true $H40" ]
	[ "$(out_of reason)" = "Not measured: /profile names ${H40:0:7}, not a full commit ID" ]
	[[ "$(out_of details)" == *"comment \`/profile $H40\`." ]]
	gate issue_comment "$(comment_event /profile CONTRIBUTOR)"
	[ "$(out_of measure) $(out_of publish)" = "false false" ]
	gate issue_comment "$(comment_event 'please /profile this' MEMBER)"
	[ "$(out_of measure) $(out_of publish)" = "false false" ]
	# a pull request into another branch is not compared against this one
	jq '.pulls["7"].base = "release"' "$A/config.json" >"$A/c" && mv "$A/c" "$A/config.json"
	gate issue_comment "$(comment_event /profile MEMBER)"
	[ "$(out_of measure) $(out_of publish)" = "false true" ]
	[ "$(out_of reason)" = "Not measured: pull request #7 targets release, and /profile compares against main" ]
}

@test "gate: a dispatch names the head it approves; a pull request that moved since is refused in one line; a malformed input is exit 2" {
	api_double
	gate workflow_dispatch "$(jq -n --arg h "$H40" '{inputs: {pr: "7", head: $h}}')"
	[ "$status" -eq 0 ]
	[ "$(out_of measure) $(out_of head)" = "true $H40" ]
	local old=fedcba9876543210fedcba9876543210fedcba98
	gate workflow_dispatch "$(jq -n --arg h "$old" '{inputs: {pr: "7", head: $h}}')"
	[ "$status" -eq 0 ]
	[ "$(out_of measure) $(out_of publish) $(out_of head)" = "false true $old" ]
	[ "$(cat "$GITHUB_STEP_SUMMARY")" = "sphereceti: Not measured: pull request #7 moved on to ${H40:0:12} since ${old:0:12} was approved. An approval binds to the head its approver saw. Run the workflow again with the new head." ]
	gate workflow_dispatch '{"inputs": {"pr": "7", "head": "main"}}'
	[ "$status" -eq 2 ]
	[ "$stderr" = "github.py: error: the input head is not a full commit ID: 'main' (workflow_dispatch)" ]
	gate workflow_dispatch "$(jq -n --arg h "$H40" '{inputs: {pr: "8", head: $h}}')"
	[ "$status" -eq 1 ]
	[ "$stderr" = "github.py: error: GitHub answered 404 Not Found: Not Found (GET /repos/o/p/pulls/8)" ]
}

@test "the check run: in progress, then completed with the check document; updated, not doubled, on a rerun; 120 annotations go 50 to a request" {
	api_double
	gh_py start --head "$H40"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(requests 'select(.method != "GET") | [.method, .path, .body.status, .body.head_sha, .body.external_id]')" = \
		"[\"POST\",\"/repos/o/p/check-runs\",\"in_progress\",\"$H40\",\"11\"]" ]
	/usr/bin/python3 "$GH/verdict.py" outcome --head "$H40" --run-url "$URL" --conclusion neutral --title "Not measured: a bump" >"$BATS_TEST_TMPDIR/doc.json"
	gh_py finish --head "$H40" --doc "$BATS_TEST_TMPDIR/doc.json" --result success
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.[] | [.id, .status, .conclusion, .output.title]]' "$A/checks.json")" = '[[1,"completed","neutral","Not measured: a bump"]]' ]
	# A rerun updates the same check run (it has no annotations) ...
	gh_py finish --head "$H40" --doc "$BATS_TEST_TMPDIR/doc.json" --result success
	[ "$(jq length "$A/checks.json")" -eq 1 ]
	# ... and 120 flagged files: 50 annotations a request, all kept.
	jq '.annotations = [range(120) | {path: "Lib/F\(.).lean", start_line: 1, end_line: 1, annotation_level: "warning", message: "slower", title: "t"}] | .flagged = 120' \
		"$BATS_TEST_TMPDIR/doc.json" >"$BATS_TEST_TMPDIR/big.json"
	: >"$A/requests.jsonl"
	gh_py finish --head "$H40" --doc "$BATS_TEST_TMPDIR/big.json" --result success
	[ "$status" -eq 0 ]
	[ "$(requests 'select(.method != "GET") | "\(.method) \(.body.output.annotations | length)"' | tr -d '"' | tr '\n' ' ')" = "PATCH 50 PATCH 50 PATCH 20 " ]
	[ "$(jq '.[0].output.annotations_count' "$A/checks.json")" -eq 120 ]
	# A rerun now makes a new check run: annotations cannot be taken back.
	: >"$A/requests.jsonl"
	gh_py finish --head "$H40" --doc "$BATS_TEST_TMPDIR/big.json" --result success
	[ "$(requests 'select(.method != "GET") | .method' | tr -d '"' | tr '\n' ' ')" = "POST PATCH PATCH " ]
	[ "$(jq length "$A/checks.json")" -eq 2 ]
	# Every request carried the token, in the header only.
	[ "$(jq -r .token "$A/requests.jsonl" | sort -u)" = ok ]
	run ! grep -qF "$TOKEN" "$A/requests.jsonl"
}

@test "the check run: a summary GitHub refuses still completes the run, short, with where the report is; the double counts bytes" {
	api_double
	gh_py start --head "$H40"
	/usr/bin/python3 "$GH/verdict.py" outcome --head "$H40" --run-url "$URL" --conclusion neutral \
		--title "Not measured: a bump" --details "$(printf 'é%.0s' $(seq 40))" >"$BATS_TEST_TMPDIR/doc.json"
	# the summary's characters fit; its bytes do not
	local chars bytes
	chars=$(jq -r '.summary | length' "$BATS_TEST_TMPDIR/doc.json")
	bytes=$(jq -j .summary "$BATS_TEST_TMPDIR/doc.json" | wc -c)
	jq --argjson n "$((chars + 1))" '.summary_limit = $n' "$A/config.json" >"$A/c" && mv "$A/c" "$A/config.json"
	[ "$bytes" -gt "$((chars + 1))" ]
	gh_py finish --head "$H40" --doc "$BATS_TEST_TMPDIR/doc.json" --result success
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(jq -r '.[] | .status + " " + .conclusion + ": " + .output.title' "$A/checks.json")" = "completed neutral: Not measured: a bump" ]
	[[ "$(jq -r '.[0].output.summary' "$A/checks.json")" == "GitHub refused this check run's report."*"[this run](https://github.com/o/p/actions/runs/11)."* ]]
	[ "$(jq -r 'select(.status == 422) | .body.output.summary | length' "$A/requests.jsonl" | head -n 1)" = "$chars" ]
}

@test "the check run: a cancelled run leaves a newer run's alone; no document: failure for a broken job, neutral for the gate's reason" {
	api_double
	gh_py start --head "$H40"
	GITHUB_RUN_ID=12 gh_py finish --head "$H40" --result cancelled
	[ "$status" -eq 0 ]
	[ "$output" = "github.py: check run 1 on $H40 belongs to a newer run: left alone" ]
	[ "$(jq -r '.[0].status' "$A/checks.json")" = in_progress ]
	gh_py finish --head "$H40" --result cancelled
	[ "$(jq -r '.[0].conclusion + ": " + .[0].output.title' "$A/checks.json")" = "neutral: Not measured: the run was cancelled" ]
	gh_py finish --head "$H40" --doc "$BATS_TEST_TMPDIR/none.json" --result failure
	[ "$(jq -r '.[0].conclusion + ": " + .[0].output.title' "$A/checks.json")" = "failure: sphereceti did not finish: the profile job ended in failure" ]
	gh_py finish --head "$H40" --result skipped --reason "Not measured yet: an outsider" --details "Comment /profile."
	[ "$(jq -r '.[0].conclusion + ": " + .[0].output.title' "$A/checks.json")" = "neutral: Not measured yet: an outsider" ]
	# A document about another head is refused.
	/usr/bin/python3 "$GH/verdict.py" outcome --head fedcba9876543210fedcba9876543210fedcba98 --run-url "$URL" --conclusion neutral --title x >"$BATS_TEST_TMPDIR/other.json"
	gh_py finish --head "$H40" --doc "$BATS_TEST_TMPDIR/other.json"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "github.py: error: the check document is about fedcba98"* ]]
}

@test "GitHub refusing or failing a request ends in one line, exit 1; the token goes over https or to loopback only" {
	api_double
	jq '.fail = {"POST check-runs": 500}' "$A/config.json" >"$A/c" && mv "$A/c" "$A/config.json"
	gh_py start --head "$H40"
	[ "$status" -eq 1 ]
	[ "$stderr" = "github.py: error: GitHub answered 500 Internal Server Error: the double was told to fail this (POST /repos/o/p/check-runs)" ]
	jq '.fail = {"GET commits/": 403}' "$A/config.json" >"$A/c" && mv "$A/c" "$A/config.json"
	gh_py finish --head "$H40" --result success
	[ "$status" -eq 1 ]
	[ "$(grep -c . <<<"$stderr")" -eq 1 ]
	[[ "$stderr" == "github.py: error: GitHub answered 403 Forbidden"* ]]
	GH_TOKEN=wrong gh_py start --head "$H40"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "github.py: error: GitHub answered 401 Unauthorized: Bad credentials"* ]]
	GITHUB_API_URL=http://api.example.invalid gh_py start --head "$H40"
	[ "$status" -eq 2 ]
	[ "$stderr" = "github.py: error: the token goes over https only (http on loopback, for tests) (GITHUB_API_URL)" ]
	GITHUB_API_URL=http://127.0.0.1:1 gh_py start --head "$H40"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "github.py: error: GitHub could not be reached: "* ]]
	gh_py start --head main
	[ "$status" -eq 2 ]
	[ "$stderr" = "github.py: error: --head wants a full commit ID: 'main' (--head)" ]
}

@test "the comment: created once with the marker, then updated in place, found past the first page; someone else's comment is left alone" {
	api_double
	jq -n '[range(120) | {id: (1000 + .), issue: 7, body: "<!-- sphereceti-profile --> not ours", user: {login: "someone"}}]' >"$A/comments.json"
	kill "$DOUBLE"
	rm "$A/port"
	/usr/bin/python3 "$BATS_TEST_DIRNAME/lib/apidouble.py" "$A" 2>"$A/stderr" &
	DOUBLE=$!
	wait_for 30 test -s "$A/port"
	export GITHUB_API_URL=http://127.0.0.1:$(cat "$A/port")
	gh_py comment --pr 7 --head "$H40" --result skipped --reason "Not measured yet: x"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ "$output" == "github.py: comment "*" on #7 created" ]]
	jq '.[] | select(.user.login == "github-actions[bot]") | .body' "$A/comments.json" | grep -q "on \`${H40:0:12}\`: <code>Not measured yet&#58; x</code>"
	gh_py comment --pr 7 --head "$H40" --result cancelled
	[[ "$output" == "github.py: comment "*" on #7 updated" ]]
	[ "$(jq '[.[] | select(.user.login == "github-actions[bot]")] | length' "$A/comments.json")" -eq 1 ]
	[ "$(jq '[.[] | select(.user.login == "someone" and .body == "<!-- sphereceti-profile --> not ours")] | length' "$A/comments.json")" -eq 120 ]
	[ "$(requests 'select(.method == "GET") | .query.page' | sort -u | tr -d '"' | tr '\n' ' ')" = "1 2 " ]
}
