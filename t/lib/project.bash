# A Lake project in a Git repository, for end-to-end tests of profile-run.
# After project_base: $R repo, $DEPS prepared dependencies, $TC toolchain,
# $M the base commit (also T and B unless changed).
# shellcheck source=../../contrib/example/example.bash
. "$BATS_TEST_DIRNAME/../contrib/example/example.bash"

TC="${SC_FIXTURE:?}/toolchain"

project_base() {
	R=$BATS_TEST_TMPDIR/repo
	DEPS=$BATS_TEST_TMPDIR/deps
	WS=$BATS_TEST_TMPDIR/ws
	mkdir -p "$DEPS"
	# the sandbox user (nobody, when we are root) reaches the workspace
	sandbox_reach "$BATS_TEST_TMPDIR"
	DEP_REV=$(ex_dependency "$DEPS" "$TC")
	ex_project "$R" "$DEP_REV"
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/Legacy.lean '-- fixture: cpu=0.05'
	ex_lean "$R" Roadmap/Goals.lean '-- fixture: cpu=0.05'
	M=$(ex_commit "$R" base)
	T=$M
	B=$M
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
