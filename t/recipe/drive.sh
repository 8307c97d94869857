#!/bin/bash
# drive.sh (inside the runner-shaped root, as the runner user): the events
# of t/recipe/check.sh, one workflow run each, every job on a runner of its
# own (t/lib/replay.py --all), against the double of GitHub's API
# (t/lib/apidouble.py) on loopback.  Each event's jobs write into
# /srv/out/EVENT/ (JOB.steps, .stderr, .summary.md, .json, the API's
# requests made meanwhile in api.jsonl, its check runs after the event in
# checks.json and comments.json); /srv/out/events lists
# "EVENT: exit N".  The events and what each proves are in check.sh.
set -uo pipefail
export HOME=/home/runner RUNNER_OS=Linux RUNNER_ARCH=X64 CI=true GITHUB_ACTIONS=true
export GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=owner/proj
export GITHUB_REPOSITORY_OWNER=owner
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export STORE=/srv/cache-store ORIGIN=/srv/origin.git SC_ORIGIN=/srv/sphereceti.git SC_FIXTURE=${SC_FIXTURE_OUTER:?}
export REPLAY_RUNNER=/srv/replay/runner.sh
api=/srv/api

python3 /srv/replay/apidouble.py "$api" 2>/srv/out/apidouble.stderr &
double=$!
trap 'kill "$double" 2>/dev/null' EXIT
for _ in $(seq 600); do
	[ -s "$api/port" ] && break
	sleep 0.05 # lint-allow: sleep the poll interval of a bounded wait for the double's port file
done
[ -s "$api/port" ] || { echo "drive: error: the API double did not start" >&2; exit 1; }
export GITHUB_API_URL=http://127.0.0.1:$(cat "$api/port")

# event NAME WORKFLOW_JSON CONTEXT_JSON RUN_ID: one workflow run.
event() {
	local name=$1 wf=$2 ctx=$3 out=/srv/out/$1
	mkdir -p "$out"
	local before
	before=$(wc -l <"$api/requests.jsonl")
	GITHUB_RUN_ID=$4 python3 /srv/replay/replay.py --all "$wf" "$ctx" /srv/replay/standins "$out"
	local r=$?
	tail -n "+$((before + 1))" "$api/requests.jsonl" >"$out/api.jsonl"
	cp "$api/checks.json" "$out/checks.json" 2>/dev/null || echo '[]' >"$out/checks.json"
	cp "$api/comments.json" "$out/comments.json" 2>/dev/null || echo '[]' >"$out/comments.json"
	echo "$name: exit $r" >>/srv/out/events
}

# rerun NAME JOB RUN_ID TAG: one job of an earlier run again, as "Re-run
# jobs" does (the same run ID, the same needs), into /srv/out/NAME-TAG/.
rerun() {
	local name=$1 job=$2 out=/srv/out/$1-$4 src=/srv/out/$1
	mkdir -p "$out/temp" "$out/work"
	local before
	before=$(wc -l <"$api/requests.jsonl")
	bash "$REPLAY_RUNNER" "$job"
	: >"$out/summary.md"
	GITHUB_RUN_ID=$3 RUNNER_TEMP=$out/temp GITHUB_WORKSPACE=$out/work GITHUB_STEP_SUMMARY=$out/summary.md \
		REPLAY_OUTPUTS=$out/job.json REPLAY_ARTIFACTS=$src/artifacts \
		python3 /srv/replay/replay.py /srv/replay/profile.json "$job" "$src/$job.context.json" \
		/srv/replay/standins >"$out/steps" 2>"$out/stderr"
	local r=$?
	tail -n "+$((before + 1))" "$api/requests.jsonl" >"$out/api.jsonl"
	cp "$api/checks.json" "$out/checks.json" 2>/dev/null || echo '[]' >"$out/checks.json"
	cp "$api/comments.json" "$out/comments.json" 2>/dev/null || echo '[]' >"$out/comments.json"
	echo "$name-$4: exit $r" >>/srv/out/events
}

ctx=/srv/replay/contexts
event push-b0 /srv/replay/deps.json "$ctx/push-b0.json" 4100
event push-b /srv/replay/deps.json "$ctx/push-b.json" 4101
event pr7-opened /srv/replay/profile.json "$ctx/pr7-opened.json" 4200
event pr8-opened /srv/replay/profile.json "$ctx/pr8-opened.json" 4201
event pr8-comment /srv/replay/profile.json "$ctx/pr8-comment.json" 4202
event pr9-synchronize /srv/replay/profile.json "$ctx/pr9-synchronize.json" 4203
event pr7-labeled-bug /srv/replay/profile.json "$ctx/pr7-labeled-bug.json" 4204
# Pull request 7's run: its publisher again, once with GitHub failing it,
# once with a check document of 120 flagged files (50 annotations a request).
jq '.fail = {"PATCH check-runs": 502, "POST check-runs": 502}' "$api/config.json" >"$api/config.new" && mv "$api/config.new" "$api/config.json"
rerun pr7-opened publish 4200 failing
jq 'del(.fail)' "$api/config.json" >"$api/config.new" && mv "$api/config.new" "$api/config.json"
python3 - /srv/out/pr7-opened/artifacts/sphereceti-check/check.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
note = d["annotations"][0]
d["annotations"] = [dict(note, path=f"Demo/F{i:03d}.lean") for i in range(120)]
d["flagged"] = 120
json.dump(d, open(sys.argv[1], "w"))
PY
rerun pr7-opened publish 4200 batched
# Pull request 7 moves on; a dispatch approving its old head is refused.
jq --arg h "$MOVED_HEAD" '.pulls["7"].head = $h' "$api/config.json" >"$api/config.new" && mv "$api/config.new" "$api/config.json"
git --git-dir="$ORIGIN" update-ref refs/pull/7/head "$MOVED_HEAD"
event pr7-dispatch-moved /srv/replay/profile.json "$ctx/pr7-dispatch-moved.json" 4205
event mq-checks-requested /srv/replay/profile.json "$ctx/mq-checks-requested.json" 4206
exit 0
