#!/usr/bin/env bats
# contrib/github/profile.yml, parsed as YAML (python3-yaml): a pull-request
# job that profiles exact SHAs and publishes only its summary and artifact.
load helpers

setup() {
	python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	YML=$BATS_TEST_DIRNAME/../contrib/github/profile.yml
}

# check PYTHON: run an assertion script with the parsed workflow as `w`, its
# one job as `job`, its steps as `steps`, every step's run text as `runs`.
check() {
	python3 - "$YML" "$1" <<'PY'
import re, sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
on = w.get("on", w.get(True))          # YAML 1.1 reads a bare `on` as true
(job,) = w["jobs"].values()
steps = job["steps"]
runs = "\n".join(s.get("run", "") for s in steps)
uses = [s["uses"] for s in steps if "uses" in s]
def step(pred):
    hits = [s for s in steps if pred(s)]
    assert len(hits) == 1, hits
    return hits[0]
exec(sys.argv[2])
PY
}

@test "it runs for pull requests only, with a read-only token" {
	check '
assert list(on) == ["pull_request"], on
assert w["permissions"] == {"contents": "read"}, w["permissions"]
assert "permissions" not in job
'
}

@test "base, head and the tooling commit are full SHAs from the event, the tooling commit being the base tip" {
	check '
env = job["env"]
assert env["BASE_SHA"] == "${{ github.event.pull_request.base.sha }}"
assert env["HEAD_SHA"] == "${{ github.event.pull_request.head.sha }}"
assert env["TOOLING_SHA"] == env["BASE_SHA"]
co = step(lambda s: s.get("uses", "").startswith("actions/checkout@"))
assert co["with"]["ref"] == "${{ github.event.pull_request.base.sha }}"
assert co["with"]["fetch-depth"] == 0
assert co["with"]["persist-credentials"] is False
'
}

@test "prepared dependencies are restored from the cache, never saved" {
	check '
c = step(lambda s: "cache" in s.get("uses", ""))
assert c["uses"].startswith("actions/cache/restore@"), c["uses"]
assert c["with"]["fail-on-cache-miss"] is True
assert "lake-manifest.json" in runs
assert not any(u.startswith(("actions/cache@", "actions/cache/save@")) for u in uses)
'
}

@test "profile-run gets the three SHAs, report.md goes to the step summary, the workspace without trees is uploaded" {
	check '
p = step(lambda s: "sphereceti profile-run" in s.get("run", ""))
for flag in ("--tooling \"$TOOLING_SHA\"", "--base \"$BASE_SHA\"", "--head \"$HEAD_SHA\"",
             "--workspace \"$RUN\"", "--dependencies \"$DEPS\""):
    assert flag in p["run"], flag
s = step(lambda s: "GITHUB_STEP_SUMMARY" in s.get("run", ""))
assert s["if"] == "always()"
assert re.search(r"cat \"\$RUN/report.md\" >> \"\$GITHUB_STEP_SUMMARY\"", s["run"])
a = step(lambda s: s.get("uses", "").startswith("actions/upload-artifact@"))
assert a["if"] == "always()"
paths = a["with"]["path"].split("\n")
paths = [p.strip() for p in paths if p.strip()]
assert paths[0].endswith("/sphereceti-run"), paths
assert sorted(p for p in paths if p.startswith("!")) == ["!" + paths[0] + "/base", "!" + paths[0] + "/head"], paths
'
}

@test "it publishes nothing else: no comment, no status, only pinned known actions" {
	check '
for u in uses:
    name, _, ref = u.partition("@")
    assert name in ("actions/checkout", "actions/cache/restore", "actions/upload-artifact"), u
    assert re.fullmatch(r"[0-9a-f]{40}", ref), u
for bad in ("gh pr", "gh api", "/statuses", "/comments", "GITHUB_TOKEN", "secrets."):
    assert bad not in runs, bad
assert "pull_request_target" not in open(sys.argv[1]).read()
'
}
