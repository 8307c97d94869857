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
# $status, $output (stdout), $stderr.
profile() {
	run --separate-stderr "$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$T" \
		--base "$B" --head "$H" --workspace "$WS" --toolchain "$TC" --dependencies "$DEPS" "$@"
}

# jqr FILTER: query the run's report.json.
jqr() { jq -r "$1" "$WS/report.json"; }

# file_field PATH FIELD: a per-file field of report.json.
file_field() { jq -r --arg p "$1" ".files[] | select(.path == \$p) | $2" "$WS/report.json"; }

# Snapshot of a folder's bytes, modes and names.
tree_state() { (cd "$1" && find . -printf '%p %m %s\n' | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort); }

# No process of a sandboxed run is left: sandboxed processes live in
# another PID and mount namespace, so they are found by name, not by path
# (the suite runs one test at a time).
no_process_left() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -z "$(live_sandbox_processes)" ] && return 0
		sleep 0.2
	done
	echo "left running:"
	live_sandbox_processes
	return 1
}

# Live (not zombie) processes of the sandbox chain, by command name.
live_sandbox_processes() {
	ps -eo pid=,stat=,comm= | awk '$2 !~ /^Z/ && $3 ~ /^(lean|lake|bwrap|sc-init|sc-sandbox-exe)$/'
}
