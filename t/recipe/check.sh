#!/bin/bash
# make check-recipe: contrib/github's two workflows, replayed on a Debian
# root shaped like GitHub's ubuntu-24.04 runner (t/recipe/runner-root.sh),
# event after event, against a double of GitHub's REST API on loopback
# (t/lib/apidouble.py): the verdict lands on each pull request's head as a
# check run, and no routine pull request turns red.
#
# The root holds what the runner image holds of what matters here and
# nothing sphereceti installs for itself, so the recipe's own install step
# must bring the rest (a list the recipe kept apart once lacked
# libseccomp-dev: the build stopped at seccomp.h).  It is entered with a
# mount namespace and pivot_root (t/recipe/enter.sh) and the jobs run as a
# non-root `runner` user with passwordless sudo, with GITHUB_* and RUNNER_*
# as the runner sets them (t/recipe/drive.sh).  Every run: block is the
# workflow's, as committed on the project's base branch; what cannot be had
# on this machine is stood in for:
#   actions/checkout          a clone of a local bare repository: the
#                             project's (refs/pull/N/head, no merge ref: the
#                             job makes the merge itself) or sphereceti's
#                             own (one commit of this tree: no vendored copy)
#   elan and its download     the fixture toolchain (t/fixture)
#   actions/cache restore and save   a local folder of entries by key
#   actions/upload-artifact, download-artifact   a folder per workflow run
#   GitHub's REST API         t/lib/apidouble.py, which checks each request
#                             as GitHub documents it
# The events, in order (drive.sh), and what each must show:
#   push-b0, push-b        the saver: B0's build fills the artifact cache;
#                          B's restores it and rebuilds only the changed
#                          module (Demo)
#   pr7-opened             a member's pull request, flagged (scaled-down
#                          thresholds), its five files dealt to three
#                          runners (profile.filesPerShard = 2): the job
#                          matrix measures the shards and the merge job
#                          makes one report; a neutral check run on H with
#                          the annotation, the sticky comment naming H
#   pr8-opened             an outsider's: not measured yet, a neutral check
#                          run saying how to approve it
#   pr8-comment            "/profile" by a member: the same check run, now
#                          success
#   pr9-synchronize        a toolchain bump: neutral with its reason, a
#                          green job, nothing installed after the plan
#   pr7-labeled-bug        another label: no profile, no concurrency group
#                          shared with a profile, no write to GitHub
#   pr7-dispatch-moved     a dispatch approving a head the pull request
#                          moved on from: refused in one line, neutral
#   mq-checks-requested    a merge queue's commit: its neutral check at
#                          once, nothing measured, no comment
#   pr7 publisher reruns   GitHub failing (502): one line, the profile's
#                          own result untouched; then 120 flagged files:
#                          50 annotations a request
# and at the end every request to the double carried the job token, and
# only the gate, start, publish and comment jobs made requests.
#
# Root only (debootstrap, mounts).  The root is kept in SC_RUNNER_ROOT
# (default .tools/runner-root, git-ignored) and built again only when its
# package list changes; each replay writes into an overlay of its own.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${BUILD:-$src/build}" && pwd)
root=${SC_RUNNER_ROOT:-$src/.tools/runner-root}
die() { echo "check-recipe: error: $1" >&2; exit "${2:-1}"; }
[ "$(id -u)" = 0 ] || die "debootstrap and the mount namespaces need root (uid $(id -u))" 2
[ -x "$build/fixture/toolchain/bin/lake" ] || die "no fixture toolchain (make fixture) ($build/fixture)" 2
/usr/bin/python3 -c 'import yaml' 2>/dev/null || die "python3-yaml is not installed (contrib/install-deps.sh all)" 2
bash "$src/t/recipe/runner-root.sh" "$root"

scratch=$(mktemp -d /var/tmp/sphereceti-recipe.XXXXXX)
cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$scratch"; }
trap cleanup EXIT
s=$scratch/srv
mkdir -p "$s/replay/standins" "$s/replay/contexts" "$s/out" "$s/cache-store" "$s/api"

# GitHub: sphereceti's own repository, and the example project with the
# workflows on its base branch pinned to it, as bare repositories; a
# previous push saved this manifest's dependencies.
# shellcheck source=contrib/example/example.bash disable=SC1091
. "$src/contrib/example/example.bash"
# shellcheck source=t/lib/origin.bash disable=SC1091
. "$src/t/lib/origin.bash"
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.invalid
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.invalid
ORIGIN_FILES_PER_SHARD=2 github_origin "$src" "$s" "$build/fixture/toolchain" "$build"
# Pull request 7 moves on later (its dispatch is then refused).
git clone -q "$s/origin.git" "$scratch/wc"
git -C "$scratch/wc" checkout -q --detach "$H"
echo '-- moved on' >>"$scratch/wc/Demo/Field.lean"
moved=$(ex_commit "$scratch/wc" "moved on")
git -C "$scratch/wc" push -q "$s/origin.git" "$moved:refs/heads/pr7-moved"

# The workflows as the base branch has them, as JSON (the root has no
# python3-yaml), the replayer, the API double.
for w in profile deps; do
	git -C "$s/origin.git" show "$B:.github/workflows/sphereceti-$w.yml" |
		/usr/bin/python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), open(sys.argv[1], "w"))' \
			"$s/replay/$w.json"
done
cp "$src/t/lib/replay.py" "$src/t/lib/apidouble.py" "$src/t/recipe/drive.sh" "$s/replay/"
token=ghs_replay_token_$RANDOM$RANDOM
jq -n --arg t "$token" --arg h7 "$H" --arg h8 "$H8" --arg h9 "$H9" \
	'{token: $t, repo: "owner/proj", pulls: {"7": {head: $h7, base: "main"}, "8": {head: $h8, base: "main"},
	  "9": {head: $h9, base: "main"}}}' >"$s/api/config.json"

# One context per event: what GitHub puts in the `github` context, the
# repository variables.  runner.temp is each job's own (replay.py).
runner_home=/home/runner # lint-allow: abs-path GitHub's runner home, inside the root
vars='{"SPHERECETI_THRESHOLD_DELTA": "1", "SPHERECETI_THRESHOLD_ADDED": "5", "SPHERECETI_COMMENT": "true"}'
context() { # NAME SHA EVENT_NAME EVENT_JSON
	jq -n --arg sha "$2" --arg n "$3" --argjson e "$4" --arg t "$token" --argjson v "$vars" \
		--arg temp "$runner_home/work/_temp" \
		'{github: {event_name: $n, event: $e, sha: $sha, ref: "refs/heads/main", repository: "owner/proj",
		           token: $t}, inputs: ($e.inputs // {}), vars: $v, needs: {}, runner: {os: "Linux", temp: $temp}}' \
		>"$s/replay/contexts/$1.json"
}
pr() { # NUMBER HEAD ASSOCIATION ACTION [LABEL]
	jq -n --argjson n "$1" --arg h "$2" --arg a "$3" --arg act "$4" --arg l "${5:-}" --arg b "$B" \
		'{action: $act, label: {name: $l}, pull_request: {number: $n, author_association: $a,
		  base: {sha: $b, ref: "main"}, head: {sha: $h}}}'
}
context push-b0 "$B0" push '{}'
context push-b "$B" push '{}'
context pr7-opened "$B" pull_request_target "$(pr 7 "$H" MEMBER opened)"
context pr8-opened "$B" pull_request_target "$(pr 8 "$H8" CONTRIBUTOR opened)"
context pr8-comment "$B" issue_comment "$(jq -n '{action: "created", issue: {number: 8, pull_request: {url: "x"}},
	comment: {body: "/profile", author_association: "MEMBER", user: {login: "maintainer"}}}')"
context pr9-synchronize "$B" pull_request_target "$(pr 9 "$H9" MEMBER synchronize)"
context pr7-labeled-bug "$B" pull_request_target "$(pr 7 "$H" MEMBER labeled bug)"
context pr7-dispatch-moved "$B" workflow_dispatch "$(jq -n --arg h "$H" '{inputs: {pr: "7", head: $h}}')"
# the merge queue's commit for pull request 8: the merge of H8 into B
mq=$(git -C "$s/origin.git" commit-tree "$(git -C "$s/origin.git" merge-tree --write-tree "$B" "$H8")" -p "$B" -p "$H8" -m "merge queue")
context mq-checks-requested "$mq" merge_group "$(jq -n --arg h "$mq" --arg b "$B" '{action: "checks_requested",
	merge_group: {head_sha: $h, head_ref: "refs/heads/gh-readonly-queue/main/pr-8", base_sha: $b, base_ref: "refs/heads/main"}}')"

# The stand-ins (t/lib/replay.py: STANDINS/<step id>.sh), written as they
# will run: nothing in them expands here.
# shellcheck disable=SC2016
st=$s/replay/standins
cat >"$st/checkout.sh" <<'SH'
dest=$GITHUB_WORKSPACE${WITH_PATH:+/$WITH_PATH}
git clone -q "$ORIGIN" "$dest"
git -C "$dest" checkout -q --detach "${WITH_REF:-$GITHUB_SHA}"
SH
cat >"$st/sphereceti.sh" <<'SH'
[ "$WITH_REPOSITORY" = sphereceti/sphereceti ]
git clone -q "$SC_ORIGIN" "$GITHUB_WORKSPACE/$WITH_PATH"
git -C "$GITHUB_WORKSPACE/$WITH_PATH" checkout -q --detach "$WITH_REF"
SH
cat >"$st/elan.sh" <<'SH'
mkdir -p "$SC_ROOT/elan/bin"
cat >"$SC_ROOT/elan/bin/elan" <<'ELAN'
#!/bin/bash
# elan's two calls the workflows make, answered with the fixture toolchain.
case "$*" in
"toolchain install leanprover/lean4:v"*) exit 0 ;;
"run leanprover/lean4:v"*" lean --print-prefix") echo "$SC_FIXTURE/toolchain" ;;
*) echo "elan stand-in: unexpected call: $*" >&2; exit 2 ;;
esac
ELAN
chmod +x "$SC_ROOT/elan/bin/elan"
echo "$SC_ROOT/elan/bin" >> "$GITHUB_PATH"
SH
cat >"$st/restore.bash" <<'SH'
# restore KEY [PREFIX]: the exact entry, else the newest whose key starts with PREFIX.
hit=
if [ -d "$STORE/$WITH_KEY" ]; then
  hit=$WITH_KEY
elif [ -n "${WITH_RESTORE_KEYS:-}" ]; then
  hit=$(cd "$STORE" && ls -1t | grep -F -m 1 -- "$WITH_RESTORE_KEYS" || true)
fi
if [ -n "$hit" ]; then
  mkdir -p "$WITH_PATH"
  cp -a "$STORE/$hit/." "$WITH_PATH/"
  chmod -R o+rX "$WITH_PATH"
  echo "cache-matched-key=$hit" >> "$GITHUB_OUTPUT"
  [ "$hit" != "$WITH_KEY" ] || echo cache-hit=true >> "$GITHUB_OUTPUT"
fi
SH
for id in saved previous deps lakecache; do printf '. /srv/replay/standins/restore.bash\n' >"$st/$id.sh"; done
for id in save-deps save-cache; do
	# shellcheck disable=SC2016
	printf '%s\n' 'mkdir -p "$STORE/$WITH_KEY" && cp -a "$WITH_PATH/." "$STORE/$WITH_KEY/" && touch "$STORE/$WITH_KEY"' >"$st/$id.sh"
done
cat >"$st/upload-check.sh" <<'SH'
mkdir -p "$REPLAY_ARTIFACTS/$WITH_NAME"
cp "$WITH_PATH" "$REPLAY_ARTIFACTS/$WITH_NAME/"
SH
cat >"$st/upload.sh" <<'SH'
# the first path is the folder; the !paths below it are left out
from=${WITH_PATH%%$'\n'*}
mkdir -p "$REPLAY_ARTIFACTS/$WITH_NAME"
cp -a "$from/." "$REPLAY_ARTIFACTS/$WITH_NAME/" 2>/dev/null || true
rm -rf "$REPLAY_ARTIFACTS/$WITH_NAME/base" "$REPLAY_ARTIFACTS/$WITH_NAME/head"
SH
cat >"$st/download.sh" <<'SH'
[ -d "$REPLAY_ARTIFACTS/$WITH_NAME" ] || { echo "download stand-in: no artifact $WITH_NAME" >&2; exit 1; }
mkdir -p "$WITH_PATH"
cp -a "$REPLAY_ARTIFACTS/$WITH_NAME/." "$WITH_PATH/"
SH
# download-artifact with a pattern: each artifact into a folder of its name
cat >"$st/download-shards.sh" <<'SH'
mkdir -p "$WITH_PATH"
for a in "$REPLAY_ARTIFACTS"/$WITH_PATTERN; do
  [ -d "$a" ] && cp -a "$a" "$WITH_PATH/"
done
exit 0
SH
cp "$st/download-shards.sh" "$st/download-checks.sh"
# The profiler's build: the step's own run: block the first time a commit
# is built, its install kept; a later job restores it, as a runner with a
# warm build would (the workflow builds in every job).
cat >"$st/build.sh" <<'SH'
keep=/srv/out/build-cache/$(git -C "$SC_SRC" rev-parse HEAD)
if [ -d "$keep" ]; then
  mkdir -p "$SC_ROOT/sphereceti"
  cp -a "$keep/." "$SC_ROOT/sphereceti/"
  echo "$SC_ROOT/sphereceti/bin" >> "$GITHUB_PATH"
  echo "$(date +%s) setup" >> "$MARKS"
  exit 0
fi
python3 - /srv/replay/profile.json "$GITHUB_JOB" > "$RUNNER_TEMP/build.sh" <<'PY'
import json, sys
(step,) = [s for s in json.load(open(sys.argv[1]))["jobs"][sys.argv[2]]["steps"] if s.get("id") == "build"]
print(step["run"])
PY
bash --noprofile --norc -eo pipefail "$RUNNER_TEMP/build.sh"
mkdir -p "$keep"
cp -a "$SC_ROOT/sphereceti/." "$keep/"
SH
cat >"$s/replay/runner.sh" <<'SH'
# A fresh runner for each job: nothing of the previous job's /opt.
sudo rm -rf /opt/sphereceti
SH

: >"$s/api/requests.jsonl"
chown -R 1001:1001 "$s/out" "$s/cache-store" "$s/origin.git" "$s/sphereceti.git" "$s/api"
cat >"$scratch/binds" <<BINDS
$s/replay /srv/replay ro
$s/origin.git /srv/origin.git rw
$s/sphereceti.git /srv/sphereceti.git ro
$s/cache-store /srv/cache-store rw
$s/api /srv/api rw
$s/out /srv/out rw
$build/fixture $build/fixture ro
BINDS
echo "check-recipe: replaying the saver and pull requests 7, 8 and 9 in $root" >&2
rc=0
unshare --mount --pid --fork -- \
	bash "$src/t/recipe/enter.sh" "$root" "$scratch" "$scratch/binds" -- \
	setpriv --reuid=1001 --regid=1001 --init-groups \
	env -i SC_FIXTURE_OUTER="$build/fixture" MOVED_HEAD="$moved" bash /srv/replay/drive.sh || rc=$?

o=$s/out
show() { # EVENT: each job's steps, and the end of its log
	local j
	for j in "$o/$1"/*.steps; do
		[ -e "$j" ] || continue
		echo "--- $1 $(basename "$j" .steps):" >&2
		sed 's/^/  /' "$j" >&2
		tail -n 15 "${j%.steps}.stderr" 2>/dev/null | sed 's/^/  | /' >&2 || true
	done
}
fail() {
	echo "check-recipe: FAIL: $1" >&2
	[ -z "${2:-}" ] || show "$2"
	exit 1
}
[ "$rc" -eq 0 ] || fail "the replay failed (exit $rc)"
cat "$o/events" >&2
result() { jq -r .result "$o/$1/$2.json"; }         # EVENT JOB
step() { grep -qx "$3: $4" "$o/$1/$2.steps"; }      # EVENT JOB STEP OUTCOME
# The check runs on a SHA as EVENT left them: checks EVENT SHA, newest EVENT SHA.
checks() { jq --arg h "$2" '[.[] | select(.head_sha == $h)]' "$o/$1/checks.json"; }
newest() { checks "$1" "$2" | jq 'max_by(.id)'; }
# made EVENT: the check runs EVENT's jobs created (POST), by their ids.
made() { jq -rs '[.[] | select(.method == "POST" and .path == "/repos/owner/proj/check-runs")] | length' "$o/$1/api.jsonl"; }
# patched EVENT: the one check run EVENT's jobs updated (PATCH), as it ends.
patched() {
	local id
	id=$(jq -r 'select(.method == "PATCH" and (.path | startswith("/repos/owner/proj/check-runs/"))) | .path | ltrimstr("/repos/owner/proj/check-runs/")' "$o/$1/api.jsonl" | sort -u)
	[ "$(wc -l <<<"$id")" = 1 ] || { echo "not one check run updated in $1: $id" >&2; return 1; }
	jq --argjson id "$id" '.[] | select(.id == $id)' "$o/$1/checks.json"
}

# The saver: the second push restores B0's artifacts, rebuilds Demo alone.
for e in push-b0 push-b; do
	[ "$(result "$e" save)" = success ] || fail "the saver of $e failed" "$e"
done
grep -q '^Built Demo.Basic$' "$o/push-b0/save.stderr" || fail "the first saver run did not build Demo.Basic" push-b0
grep -q '^Restored Demo.Basic$' "$o/push-b/save.stderr" || fail "the second saver run did not restore Demo.Basic from the first's cache" push-b
grep -q '^Built Demo$' "$o/push-b/save.stderr" || fail "the second saver run did not rebuild Demo" push-b
if grep -q '^Built Demo.Basic$' "$o/push-b/save.stderr"; then fail "the second saver run rebuilt Demo.Basic" push-b; fi
grep -q 'built on the Lake artifact cache sphereceti-lake-v1-' "$o/push-b/save.summary.md" || fail "the saver's summary does not say it built on the last cache" push-b

# Pull request 7, a member's, flagged, its five files on three runners:
# one neutral check run on H (never on the merge), its title the merged
# report's verdict, the annotation on the file.
e=pr7-opened
for j in gate start plan profile merge publish comment; do
	[ "$(result $e $j)" = success ] || fail "$e: job $j: $(result $e $j)" $e
done
[ "$(jq -r .outputs.shards "$o/$e/plan.json")" = 3 ] || fail "$e: the plan job counted $(jq -r .outputs.shards "$o/$e/plan.json") shards, not 3" $e
for k in 1 2 3; do
	for id in install build plan profile verdict; do
		step $e profile-$k $id success || fail "$e: shard $k: profile step $id did not succeed" $e
	done
	grep -qx "concurrency: sphereceti-profile-7-$k" "$o/$e/profile-$k.steps" || fail "$e: shard $k's concurrency group" $e
	grep -q "^This is shard $k of 3" "$o/$e/profile-$k.summary.md" || fail "$e: shard $k's summary does not say which shard it is" $e
	grep -q '^### Time to result' "$o/$e/profile-$k.summary.md" || fail "$e: shard $k: no time-to-result table" $e
done
for id in merge verdict upload-check; do
	step $e merge $id success || fail "$e: merge step $id did not succeed" $e
done
ws=$o/$e/artifacts/sphereceti-7-$H
md=$ws/report.md
[ -f "$md" ] || fail "$e: no merged report.md uploaded" $e
[ "$(jq '.runners | length' "$ws/report.json")" = 3 ] || fail "$e: the merged report does not name three runners" $e
[ "$(jq '[.runners[].files[]] | length' "$ws/report.json")" = 5 ] || fail "$e: the runners did not measure the five files between them" $e
grep -qF "$(head -n 1 "$md")" "$o/$e/merge.summary.md" || fail "$e: the merged report.md is not in the merge job's summary" $e
grep -q '^## Runners' "$md" || fail "$e: the merged report has no Runners section" $e
grep -q "checked against the host's perf task clock" "$md" || fail "$e: the task clock was off" $e
grep -q "^| profiler (sphereceti, pinned) | \`${SC_COMMIT:0:7}\` | \`$SC_COMMIT\` |" "$md" || fail "$e: the report does not record the pinned profiler" $e
# shellcheck disable=SC2016
uid=$(sed -n 's/^- Sandbox user: `\([0-9]*\):[0-9]*` (uid:gid)$/\1/p' "$md")
if [ -z "$uid" ] || [ "$uid" = 1001 ] || [ "$uid" -lt 61184 ] || [ "$uid" -gt 65519 ]; then
	fail "$e: the sandbox user is '${uid:-none}', not a uid of the run's own" $e
fi
[ "$(made $e)" = 1 ] || fail "$e: not one check run made: $(made $e)"
c=$(patched $e) || fail "$e: the publisher did not update the check run the start job made"
[ "$(jq -r .head_sha <<<"$c")" = "$H" ] || fail "$e: the check run is not on H"
merge=$(jq -r .revisions.head "$ws/report.json")
[ "$(checks $e "$merge" | jq length)" = 0 ] || fail "$e: a check run on the runner-made merge"
[ "$(jq -r '.status + " " + .conclusion' <<<"$c")" = "completed neutral" ] || fail "$e: the check run is $(jq -c '[.status, .conclusion]' <<<"$c"), not completed neutral"
[ "$(jq -r .output.title <<<"$c")" = "$(jq -r .headline "$ws/report.json")" ] || fail "$e: the title is not the report's verdict: $(jq -r .output.title <<<"$c")"
[[ "$(jq -r .output.title <<<"$c")" == "1 of 5 files got slower beyond the thresholds: Demo/Ring.lean "* ]] || fail "$e: the title names no slower file"
[ "$(jq -r .output.summary <<<"$c" | head -n 1)" = "$(head -n 1 "$md")" ] || fail "$e: the summary is not report.md"
[ "$(jq -r '.output.annotations | map(.path + " " + .annotation_level) | join(",")' <<<"$c")" = "Demo/Ring.lean warning" ] || fail "$e: the annotations: $(jq -c .output.annotations <<<"$c")"
[ "$(jq -r .external_id <<<"$c")" = 4200 ] || fail "$e: the check run's external_id"
[[ "$(jq -r .details_url <<<"$c")" == https://github.com/owner/proj/actions/runs/4200 ]] || fail "$e: the details link"
cm=$(jq -r --argjson n 7 '[.[] | select(.issue == $n)]' "$o/$e/comments.json")
[ "$(jq length <<<"$cm")" = 1 ] || fail "$e: not one comment on #7"
[[ "$(jq -r '.[0].body' <<<"$cm")" == "<!-- sphereceti-profile -->"$'\n'"**sphereceti** on \`${H:0:12}\`: <code>1 of 5 files got slower"* ]] || fail "$e: the comment does not name H: $(jq -r '.[0].body' <<<"$cm" | head -n 2)"

# Pull request 8, an outsider's: not measured until a member says /profile;
# then the same check run, updated, says success.
e=pr8-opened
[ "$(result $e profile)" = skipped ] || fail "$e: an outsider's pull request was profiled" $e
[ "$(result $e publish)" = success ] || fail "$e: no check run for the outsider's pull request" $e
c=$(newest $e "$H8")
[ "$(jq -r .conclusion <<<"$c")" = neutral ] || fail "$e: the waiting check run is $(jq -r .conclusion <<<"$c")"
[[ "$(jq -r .output.title <<<"$c")" == "Not measured yet: pull request #8 is by a contributor from outside the project (CONTRIBUTOR)" ]] || fail "$e: title $(jq -r .output.title <<<"$c")"
jq -r .output.summary <<<"$c" | grep -q 'commenting `/profile`, adding the label `profile`' || fail "$e: the summary does not say how to approve"
first=$(jq -r .id <<<"$c")
e=pr8-comment
for j in gate start plan profile publish; do
	[ "$(result $e $j)" = success ] || fail "$e: job $j: $(result $e $j)" $e
done
[ "$(result $e merge)" = skipped ] || fail "$e: one shard, yet the merge job ran" $e
grep -q '^sphereceti: /profile by maintainer approves ' "$o/$e/gate.summary.md" || fail "$e: the gate does not say who approved" $e
[ "$(made $e)" = 0 ] || fail "$e: a second check run on H8 instead of the update"
c=$(patched $e) || fail "$e: no check run updated"
[ "$(jq -r .id <<<"$c")" = "$first" ] || fail "$e: the check run was not updated"
[ "$(jq -r .conclusion <<<"$c")" = success ] || fail "$e: a clean pull request's check run is $(jq -r .conclusion <<<"$c")"
[[ "$(jq -r .output.title <<<"$c")" == "Nothing got slower beyond the thresholds ("* ]] || fail "$e: title $(jq -r .output.title <<<"$c")"
grep -q '"path": "/repos/owner/proj/pulls/8"' "$o/$e/api.jsonl" || fail "$e: the gate did not read the pull request's head"

# Pull request 9 bumps the toolchain: neutral with its reason, a green job.
e=pr9-synchronize
[ "$(result $e profile)" = success ] || fail "$e: a bump made the profile job $(result $e profile)" $e
step $e profile plan success || fail "$e: the plan step" $e
step $e profile elan skipped || fail "$e: elan ran after a refused plan" $e
c=$(newest $e "$H9")
[ "$(jq -r .conclusion <<<"$c")" = neutral ] || fail "$e: a bump's check run is $(jq -r .conclusion <<<"$c")"
[[ "$(jq -r .output.title <<<"$c")" == "Not measured: Lake configuration differs from the tooling commit: lean-toolchain changed; the pull request changes it"* ]] || fail "$e: title $(jq -r .output.title <<<"$c")"
[ "$(grep -c . "$o/$e/profile.summary.md")" = 1 ] || fail "$e: not one summary line" $e

# Another label: nothing starts, nothing is cancelled, nothing is written.
e=pr7-labeled-bug
[ "$(result $e profile)" = skipped ] || fail "$e: a label other than profile started a profile" $e
[ "$(jq -r .outputs.group "$o/$e/gate.json")" != sphereceti-profile-7 ] || fail "$e: the no-op shares the profile's concurrency group"
[ "$(jq -r .outputs.group "$o/$e/gate.json")" = sphereceti-noop-4204 ] || fail "$e: the no-op's group"
[ "$(result $e publish)" = skipped ] || fail "$e: the no-op published" $e
if grep -q '"method": "\(POST\|PATCH\)"' "$o/$e/api.jsonl"; then fail "$e: the no-op wrote to GitHub"; fi

# A dispatch approving a head the pull request moved on from.
e=pr7-dispatch-moved
[ "$(result $e profile)" = skipped ] || fail "$e: a moved head was profiled" $e
[ "$(grep -c . "$o/$e/gate.summary.md")" = 1 ] || fail "$e: not one line" $e
grep -q "^sphereceti: Not measured: pull request #7 moved on to ${moved:0:12} since ${H:0:12} was approved" "$o/$e/gate.summary.md" || fail "$e: $(cat "$o/$e/gate.summary.md")" $e
c=$(newest $e "$H")
[ "$(jq -r .external_id <<<"$c")" = 4205 ] || fail "$e: the approved head's check run does not say it was not measured"
[ "$(jq -r .conclusion <<<"$c")" = neutral ] || fail "$e: a moved head's check run is $(jq -r .conclusion <<<"$c")"
cm=$(jq -r '[.[] | select(.issue == 7)]' "$o/$e/comments.json")
[ "$(jq length <<<"$cm")" = 1 ] || fail "$e: not one comment on #7"
jq -r '.[0].body' <<<"$cm" | grep -q "^\*\*sphereceti\*\* on \`${H:0:12}\`: <code>Not measured&#58; pull request &#35;7 moved on" || fail "$e: the comment still shows an old verdict"

# The merge queue: its commit gets its check at once, nothing measured.
e=mq-checks-requested
[ "$(result $e gate)" = success ] || fail "$e: the gate did not run" $e
for j in start plan profile comment; do
	[ "$(result $e $j)" = skipped ] || fail "$e: job $j ran for a merge queue" $e
done
[ "$(result $e publish)" = success ] || fail "$e: no check run on the queue's commit" $e
c=$(newest $e "$mq")
[ "$(jq -r '.status + " " + .conclusion' <<<"$c")" = "completed neutral" ] || fail "$e: the queue's check run is $(jq -c '[.status, .conclusion]' <<<"$c")"
[ "$(jq -r .output.title <<<"$c")" = "Not measured in the merge queue: each pull request's own head holds its verdict" ] || fail "$e: title $(jq -r .output.title <<<"$c")"

# GitHub failing the publisher: one line, the profile's result untouched.
e=pr7-opened-failing
grep -qx "$e: exit 1" "$o/events" || fail "the publisher's rerun against a failing API did not fail"
[ "$(grep -c '^github.py: error: ' "$o/$e/stderr")" = 1 ] || fail "$e: not one error line"
grep -q '^github.py: error: GitHub answered 502 ' "$o/$e/stderr" || fail "$e: $(cat "$o/$e/stderr")"
[ "$(result pr7-opened profile)" = success ] || fail "$e: the profile job's result changed"
# ... then 120 flagged files: 50 annotations a request, a new check run
# (the old one's annotations cannot be taken back), every file annotated.
e=pr7-opened-batched
grep -qx "$e: exit 0" "$o/events" || fail "the publisher's second rerun failed"
sizes=$(jq -r 'select(.path | test("check-runs")) | select(.method != "GET") | "\(.method) \(.body.output.annotations | length)"' "$o/$e/api.jsonl" | tr '\n' ' ')
[ "$sizes" = "POST 50 PATCH 50 PATCH 20 " ] || fail "the batching: $sizes"
[ "$(jq -r 'select(.method == "POST") | .body.head_sha' "$o/$e/api.jsonl")" = "$H" ] || fail "the batched check run is not on H"
id=$(jq -r 'select(.method == "PATCH") | .path' "$o/$e/api.jsonl" | sort -u)
[ "$(jq -r --arg p "$id" '.[] | select("/repos/owner/proj/check-runs/\(.id)" == $p) | .output.annotations_count' "$o/$e/checks.json")" = 120 ] || fail "not every flagged file annotated"

# Every request carried the job token; only the jobs that need GitHub
# made any; no summary or log holds the token.
[ "$(jq -r .token "$s/api/requests.jsonl" | sort -u)" = ok ] || fail "a request without the job token"
if grep -rqF "$token" "$o" --include='*.summary.md' --include='*.steps' --include='*.stderr' --include=stderr; then
	fail "the token appears in a job's log or summary"
fi
big=$(jq -r 'select(.body.output.summary) | .body.output.summary | utf8bytelength' "$s/api/requests.jsonl" | sort -n | tail -n 1)
[ "${big:-0}" -le 65535 ] || fail "a summary of $big bytes"
echo "check-recipe: ok: the verdict lands on each pull request's head (sandbox uid $uid, task clock on); routine pull requests stay green" >&2
