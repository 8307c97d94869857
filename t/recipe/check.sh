#!/bin/bash
# make check-recipe: contrib/github's two workflows, replayed on a Debian
# root shaped like GitHub's ubuntu-24.04 runner (t/recipe/runner-root.sh),
# end with report.md in the pull request's job summary.
#
# The root holds what the runner image holds of what matters here and
# nothing sphereceti installs for itself, so the recipe's own install step
# must bring the rest (a list the recipe kept apart once lacked
# libseccomp-dev: the build stopped at seccomp.h).  It is entered with a
# mount namespace and pivot_root (t/recipe/enter.sh) and the jobs run as a
# non-root `runner` user with passwordless sudo, with GITHUB_* and RUNNER_*
# as the runner sets them (t/recipe/drive.sh).  Every run: block is the
# workflow's; what cannot be had on this machine is stood in for:
#   actions/checkout          a clone of a local bare repository standing
#                             in for GitHub (refs/pull/7/head, no merge ref:
#                             the job makes the merge itself)
#   elan and its download     the fixture toolchain (t/fixture)
#   actions/cache restore and save   a local folder of entries by key
#   actions/upload-artifact   a copy into the results folder
# The saver runs first (a push of the base branch), on dependencies a
# previous push saved (its `lake build` needs no network), then the pull
# request's gate and profile jobs.  Then the pull request's report must say
# that the sandbox ran as a uid of its own and that the task clock was on:
# the recipe runs profile-run as root through sudo.
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
mkdir -p "$s/replay/standins" "$s/out/artifacts" "$s/cache-store"

# GitHub: the example project with sphereceti vendored, as a bare
# repository; a previous push saved this manifest's dependencies.
# shellcheck source=contrib/example/example.bash disable=SC1091
. "$src/contrib/example/example.bash"
# shellcheck source=t/lib/origin.bash disable=SC1091
. "$src/t/lib/origin.bash"
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.invalid
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.invalid
github_origin "$src" "$s" "$build/fixture/toolchain"

# The workflows as JSON (the root has no python3-yaml), the replayer.
for w in profile deps; do
	/usr/bin/python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), open(sys.argv[2], "w"))' \
		"$src/contrib/github/$w.yml" "$s/replay/$w.json"
done
cp "$src/t/lib/replay.py" "$src/t/recipe/drive.sh" "$s/replay/"
runner_home=/home/runner # lint-allow: abs-path GitHub's runner home, inside the root
context() { # EVENT_JSON JOB...: one context per job (runner.temp is the job's)
	jq -n --argjson e "$1" --arg b "$B" '{github: ($e + {sha: $b, repository: "owner/proj"}),
		inputs: {}, vars: {}, needs: {}, runner: {os: "Linux", temp: $temp}}' --arg temp "$runner_home/work/_temp/JOB"
}
context '{"event_name": "push", "ref": "refs/heads/main", "event": {}}' | sed 's|_temp/JOB|_temp/save|' >"$s/replay/push.json"
context "$(jq -n --arg b "$B" --arg h "$H" '{event_name: "pull_request_target",
	event: {action: "opened", pull_request: {number: 7, author_association: "MEMBER",
	        base: {sha: $b}, head: {sha: $h}}}}')" | sed 's|_temp/JOB|_temp/profile|' >"$s/replay/pr.json"

# The stand-ins (t/lib/replay.py: STANDINS/<step id>.sh), written as they
# will run: nothing in them expands here.
# shellcheck disable=SC2016
st=$s/replay/standins
cat >"$st/checkout.sh" <<'SH'
git clone -q "$ORIGIN" "$GITHUB_WORKSPACE"
git -C "$GITHUB_WORKSPACE" checkout -q --detach "${WITH_REF:-main}"
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
for id in saved deps lakecache; do printf '. /srv/replay/standins/restore.bash\n' >"$st/$id.sh"; done
for id in save-deps save-cache; do
	# shellcheck disable=SC2016
	printf '%s\n' 'mkdir -p "$STORE/$WITH_KEY" && cp -a "$WITH_PATH/." "$STORE/$WITH_KEY/"' >"$st/$id.sh"
done
# shellcheck disable=SC2016
printf '%s\n' 'mkdir -p /srv/out/artifacts/run && { cp -a /opt/sphereceti/run/. /srv/out/artifacts/run/ 2>/dev/null || true; rm -rf /srv/out/artifacts/run/base /srv/out/artifacts/run/head; }' >"$st/upload.sh"
# shellcheck disable=SC2016
printf '%s\n' 'cp "$WITH_PATH" /srv/out/artifacts/comment.md' >"$st/upload-comment.sh"

chown -R 1001:1001 "$s/out" "$s/cache-store" "$s/origin.git"
cat >"$scratch/binds" <<B
$s/replay /srv/replay ro
$s/origin.git /srv/origin.git ro
$s/cache-store /srv/cache-store rw
$s/out /srv/out rw
$build/fixture $build/fixture ro
B
echo "check-recipe: replaying the saver, then pull request 7's gate and profile jobs, in $root" >&2
rc=0
unshare --mount --pid --fork -- \
	bash "$src/t/recipe/enter.sh" "$root" "$scratch" "$scratch/binds" -- \
	setpriv --reuid=1001 --regid=1001 --init-groups \
	env -i SC_FIXTURE_OUTER="$build/fixture" bash /srv/replay/drive.sh || rc=$?
o=$s/out
for j in save gate profile; do
	echo "--- $j:" >&2
	sed 's/^/  /' "$o/$j.steps" >&2 || true
	tail -n 20 "$o/$j.stderr" 2>/dev/null | sed 's/^/  | /' >&2 || true
done
fail() { echo "check-recipe: FAIL: $1" >&2; exit 1; }
[ "$rc" -eq 0 ] || fail "a job failed (exit $rc)"
grep -qx 'prepare: success' "$o/save.steps" || fail "the saver did not prepare"
grep -q '^sphereceti: the dependencies .* were already saved; saved the Lake artifact cache' "$o/save.summary.md" || fail "the saver's summary"
[ "$(jq -r .allowed "$o/gate.outputs.json")" = true ] || fail "the gate held a member's pull request"
for id in install build plan profile verdict; do
	grep -qx "$id: success" "$o/profile.steps" || fail "profile job step $id did not succeed"
done
md=$o/artifacts/run/report.md
[ -f "$md" ] || fail "no report.md in the uploaded workspace"
grep -qF "$(head -n 1 "$md")" "$o/profile.summary.md" || fail "report.md is not in the job summary"
grep -q '^### Time to result' "$o/profile.summary.md" || fail "no time-to-result table"
grep -q "checked against the host's perf task clock" "$md" || fail "the task clock was off"
# shellcheck disable=SC2016
uid=$(sed -n 's/^- Sandbox user: `\([0-9]*\):[0-9]*` (uid:gid)$/\1/p' "$md")
if [ -z "$uid" ] || [ "$uid" = 1001 ] || [ "$uid" -lt 61184 ] || [ "$uid" -gt 65519 ]; then
	fail "the sandbox user is '${uid:-none}', not a uid of the run's own"
fi
head -n 1 "$o/artifacts/comment.md" | grep -qx '<!-- sphereceti-profile -->' || fail "no comment made"
echo "check-recipe: ok: the runner-shaped replay ends with report.md in the job summary (sandbox uid $uid, task clock on)" >&2
