#!/bin/bash
# drive.sh (inside the runner-shaped root, as the runner user): the
# recipe's two workflows, job after job, each on a runner of its own (its
# own workspace, temp folder and summary), as GitHub would run them for
# one push of the base branch and then one pull request:
#   sphereceti-deps.yml  save     (the trusted saver, at B)
#   sphereceti-profile.yml  gate, then profile  (pull request 7)
# Every run: block is the workflow's own; the stand-ins under
# /srv/replay/standins replace what cannot be had here (t/recipe/check.sh
# says which).  Each job's step lines go to /srv/out/JOB.steps, its summary
# to /srv/out/JOB.summary.md, its outputs to /srv/out/JOB.outputs.json.
set -uo pipefail
export HOME=/home/runner RUNNER_OS=Linux RUNNER_ARCH=X64 CI=true GITHUB_ACTIONS=true
export GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=owner/proj GITHUB_RUN_ID=4242
export GITHUB_REPOSITORY_OWNER=owner GITHUB_API_URL=https://api.github.com
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export STORE=/srv/cache-store ORIGIN=/srv/origin.git SC_FIXTURE=${SC_FIXTURE_OUTER:?}
rc=0
job() { # WORKFLOW_JSON JOB CONTEXT
	local name=$2
	# the runner image's own layout, inside the runner-shaped root
	local home=/home/runner # lint-allow: abs-path GitHub's runner home, inside the root
	export RUNNER_TEMP=$home/work/_temp/$name
	export GITHUB_WORKSPACE=$home/work/proj-$name/proj
	export GITHUB_STEP_SUMMARY=/srv/out/$name.summary.md GITHUB_JOB=$name
	export GITHUB_EVENT_NAME
	GITHUB_EVENT_NAME=$(jq -r .github.event_name "$3")
	# each job gets a runner of its own: nothing of the previous job's /opt
	sudo rm -rf /opt/sphereceti
	mkdir -p "$RUNNER_TEMP" "$(dirname "$GITHUB_WORKSPACE")"
	: >"$GITHUB_STEP_SUMMARY"
	REPLAY_OUTPUTS=/srv/out/$name.outputs.json python3 /srv/replay/replay.py "$1" "$name" "$3" \
		/srv/replay/standins >"/srv/out/$name.steps" 2>"/srv/out/$name.stderr"
	local r=$?
	echo "job $name: exit $r" >>/srv/out/jobs
	return $r
}
job /srv/replay/deps.json save /srv/replay/push.json || rc=1
job /srv/replay/profile.json gate /srv/replay/pr.json || rc=1
allowed=$(jq -r .allowed /srv/out/gate.outputs.json)
jq --arg a "$allowed" '.needs.gate.outputs.allowed = $a' /srv/replay/pr.json >/tmp/pr-profile.json
job /srv/replay/profile.json profile /tmp/pr-profile.json || rc=1
exit $rc
