# A Lake project in a Git repository, for end-to-end tests of profile-run.
# After project_base: $R repo, $DEPS prepared dependencies, $TC toolchain,
# $M the base commit (also T and B unless changed).  A file whose tests call
# project_base calls project_template in setup_file: every test then gets a
# copy instead of building the repositories again (git and lake: most of
# a second of CPU each, several seconds of wall on a loaded machine).
# shellcheck source=../../contrib/example/example.bash
. "$BATS_TEST_DIRNAME/../contrib/example/example.bash"

TC="${SC_FIXTURE:?}/toolchain"

# project_base: $R, $DEPS and $WS in the test's folder.  A copy of the
# file's template (project_template, in setup_file) when there is one for this
# toolchain and Lean version; else built here (a test that changes $TC or
# $EX_LEAN_VERSION and calls project_base again builds on what it has).
project_base() {
	R=$BATS_TEST_TMPDIR/repo
	DEPS=$BATS_TEST_TMPDIR/deps
	WS=$BATS_TEST_TMPDIR/ws
	# the sandbox user (nobody, when we are root) reaches the workspace
	sandbox_reach "$BATS_TEST_TMPDIR"
	local tpl=${BATS_FILE_TMPDIR:-/nonexistent}/project-template
	if [ ! -e "$R" ] && [ ! -e "$DEPS" ] && [ -f "$tpl/ids" ] &&
		[ "$(cat "$tpl/key")" = "$(project_key)" ]; then
		cp -a "$tpl/repo" "$R"
		cp -a "$tpl/deps" "$DEPS"
		read -r DEP_REV M <"$tpl/ids"
		# a copy has new inodes: refresh the indexes' stat data so that
		# git sees both checkouts as it sees freshly built ones
		ex_git -C "$R" update-index -q --refresh
		ex_git -C "$DEPS/tinylib" update-index -q --refresh
	else
		project_build "$R" "$DEPS"
	fi
	T=$M
	B=$M
}

# project_template: build project_base's repository and dependencies once,
# in setup_file; each test's project_base then copies them (cp -a) instead
# of running git and lake again.  Commits are reproducible (fixed dates and
# names, helpers.bash), so the copy has the IDs a fresh build would have.
project_template() {
	local tpl=$BATS_FILE_TMPDIR/project-template
	rm -rf "$tpl"
	mkdir -p "$tpl"
	project_build "$tpl/repo" "$tpl/deps"
	project_key >"$tpl/key"
	printf '%s %s\n' "$DEP_REV" "$M" >"$tpl/ids"
}

# What a template depends on beyond this file: the toolchain and Lean version.
project_key() { printf '%s %s\n' "$TC" "$EX_LEAN_VERSION"; }

# project_build REPO DEPS: the base project (sets DEP_REV and M).
project_build() {
	local r=$1
	mkdir -p "$2"
	DEP_REV=$(ex_dependency "$2" "$TC")
	ex_project "$r" "$DEP_REV"
	ex_lean "$r" Demo/Basic.lean '-- fixture: cpu=0.05'
	ex_lean "$r" Demo/Ring.lean '-- fixture: cpu=0.05'
	ex_lean "$r" Demo/Legacy.lean '-- fixture: cpu=0.05'
	ex_lean "$r" Roadmap/Goals.lean '-- fixture: cpu=0.05'
	M=$(ex_commit "$r" base)
}

# candidate: start the candidate branch at M (files edited after this are
# committed by `head_commit`).
candidate() { ex_git -C "$R" checkout -q -b "cand$RANDOM" "$M"; }
head_commit() { H=$(ex_commit "$R" candidate); }

# profile [extra flags...]: run profile-run with separate stderr; sets
# $status, $output (stdout), $stderr (and what it left running: see
# no_process_left).
profile() {
	run --separate-stderr /usr/bin/python3 "$BATS_TEST_DIRNAME/lib/runprocs.py" reap "$BATS_TEST_TMPDIR/left" 20 \
		"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$T" \
		--base "$B" --head "$H" --workspace "$WS" --toolchain "$TC" --dependencies "$DEPS" "$@"
	# shown only when the test fails: what the run said, whatever it asserts next
	[ -z "$stderr" ] || printf '# profile-run stderr:\n%s\n' "$stderr"
}

# profile_as_nobody [extra flags...]: profile-run as a non-root operator
# (uid 65534, who owns the repositories then), its workspace in a home of
# its own: sets $NOBODY_HOME and, as profile does, $status, $output, $stderr.
profile_as_nobody() {
	NOBODY_HOME=$BATS_TEST_TMPDIR/nobody
	mkdir -p "$NOBODY_HOME"
	chown -R 65534:65534 "$R" "$DEPS" "$NOBODY_HOME"
	run --separate-stderr env HOME="$NOBODY_HOME" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$T" --base "$B" --head "$H" \
		--toolchain "$TC" --dependencies "$DEPS" "$@"
}

# jqr FILTER: query the run's report.json.
jqr() { jq -r "$1" "$WS/report.json"; }

# file_field PATH FIELD: a per-file field of report.json.
file_field() { jq -r --arg p "$1" ".files[] | select(.path == \$p) | $2" "$WS/report.json"; }

# Snapshot of a folder's bytes, modes and names.
tree_state() { (cd "$1" && find . -printf '%p %m %s\n' | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort); }

# No process of the last `profile` run is left: profile-run ran under
# runprocs.py reap, a child subreaper, so every process it started (sandboxes
# and orphans too) stayed its descendant, however the run ended; it waited a
# bounded time for them and wrote down the ones still alive.  Other suites'
# sandboxes running on the same host are not its descendants.
no_process_left() {
	[ -f "$BATS_TEST_TMPDIR/left" ]
	[ ! -s "$BATS_TEST_TMPDIR/left" ] || { echo "left running:"; cat "$BATS_TEST_TMPDIR/left"; return 1; }
}

# waiting_script, change_during_sample PATH: the candidate's ./wait.py (run= it from PATH's
# directives) says its sample runs (.lake/ready) and waits for the test's
# .lake/go; meanwhile profile-run runs in the background, and PATH in the head
# tree gets one more line (a writer the mounts did not stop).  Sets rc;
# stderr in $BATS_TEST_TMPDIR/err.
waiting_script() {
	printf '%s\n' '#!/usr/bin/python3' 'import os, time' 'open(".lake/ready", "w").close()' \
		't = time.monotonic()' 'while not os.path.exists(".lake/go") and time.monotonic() - t < 60:' \
		'    time.sleep(0.02)' >"$R/wait.py"
	chmod 755 "$R/wait.py"
}
ready_or_gone() { [ -e "$1" ] || gone "$2"; }
change_during_sample() {
	"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$T" --base "$B" --head "$H" --workspace "$WS" \
		--toolchain "$TC" --dependencies "$DEPS" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	local pid=$!
	# a run that ends first (an error before the sample) ends the wait too:
	# waiting out the bound for a file that cannot appear cost the
	# stem-bounded mutant two minutes
	wait_for 120 ready_or_gone "$WS/head/.lake/ready" "$pid" || { cat "$BATS_TEST_TMPDIR/err"; false; }
	[ -e "$WS/head/.lake/ready" ] || { echo "profile-run ended before the sample ran"; cat "$BATS_TEST_TMPDIR/err"; false; }
	echo '-- changed during the sample' >>"$WS/head/$1"
	touch "$WS/head/.lake/go"
	rc=0
	wait "$pid" || rc=$?
	cat "$BATS_TEST_TMPDIR/err"
}
