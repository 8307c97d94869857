#!/usr/bin/env bats
# Faults: interrupts, SIGKILL, a full disk, two runs racing for one
# workspace.  Real bwrap, real GNU time, the fixture toolchain.  "The run's
# processes" are found by ancestry, session and PID namespace
# (t/lib/runprocs.py), not by name, so other suites running on the same
# host at the same time neither hide a leak nor fake one.

bats_require_minimum_version 1.5.0
load helpers
load lib/project

RUNPROCS="$BATS_TEST_DIRNAME/lib/runprocs.py"

# The project repositories once per file; setup copies them (t/lib/project.bash).
setup_file() { project_template; }

setup() {
	project_base
	RUN_PID=
	RUN_STATUS=
	MNT=
}

teardown() {
	if [ -n "$RUN_PID" ]; then
		# only while bash has not reaped it: a reaped PID may be another
		# test's by now (the suites run side by side, and a test that saw
		# the run end without waiting leaves RUN_STATUS empty); until
		# reaped it is at worst a zombie, which no other process can be
		if [ -z "$RUN_STATUS" ] && jobs -rp | grep -qx "$RUN_PID"; then
			kill -KILL "$RUN_PID" 2>/dev/null || true
		fi
		if [ -f "$BATS_TEST_TMPDIR/snap" ]; then end_leftovers; fi
	fi
	if [ -n "$MNT" ] && mountpoint -q "$MNT"; then
		umount "$MNT" || umount -l "$MNT"
	fi
}

# Kill whatever of the run a failed test left behind.
end_leftovers() {
	local pid
	for pid in $(/usr/bin/python3 "$RUNPROCS" alive "$BATS_TEST_TMPDIR/snap" "$RUN_PID" | cut -d' ' -f1); do
		kill -KILL "$pid" 2>/dev/null || true
	done
}

# start_run [flags...]: profile-run in the background, in a session of its
# own (the session ID is its PID), fd 3 closed for bats, with SIGINT and
# SIGQUIT at their defaults as under a terminal (bash has its background
# jobs ignore them; START_IGNORED=1 keeps that).
start_run() {
	local -a reset=(env --default-signal=INT,QUIT)
	[ -z "${START_IGNORED:-}" ] || reset=()
	setsid "${reset[@]}" "$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$T" --base "$B" --head "$H" \
		--workspace "$WS" --toolchain "$TC" --dependencies "$DEPS" "$@" \
		>"$BATS_TEST_TMPDIR/run.out" 2>"$BATS_TEST_TMPDIR/run.err" 3>&- &
	RUN_PID=$!
}

# wait_inside NAME COMM [READY]: until the sandboxed step NAME (raw/NAME.time
# is being written) has a process COMM (lean, lake) among the run's, and, for
# a hanging candidate, the fixture logged its READYth "hang -> ready" (its
# handlers and orphans in place) in the head tree.
wait_inside() {
	wait_for 60 step_running "$1" "$2" || { cat "$BATS_TEST_TMPDIR/run.err"; return 1; }
	if [ "$2" = lean ]; then
		wait_for 60 hang_ready "${3:-1}"
	fi
}
step_running() {
	compgen -G "$WS/raw/$1.time.tmp-*" >/dev/null || return 1
	/usr/bin/python3 "$RUNPROCS" snapshot "$RUN_PID" | awk -v c="$2" '$4 == c { f = 1 } END { exit !f }'
}
hang_ready() { [ "$(grep -cx 'hang -> ready' "$WS/head/.lake/.fixture-log" 2>/dev/null)" -ge "$1" ]; }
ready_or_ended() { hang_ready "$1" || gone "$RUN_PID"; }

# signal_run SIG [group]: snapshot the run's process tree, send SIG to the
# run (or to its whole process group, as a terminal's Ctrl-C does), wait.
signal_run() {
	/usr/bin/python3 "$RUNPROCS" snapshot "$RUN_PID" >"$BATS_TEST_TMPDIR/snap"
	cat "$BATS_TEST_TMPDIR/snap"
	grep -q ' sc-sandbox-exec$' "$BATS_TEST_TMPDIR/snap" || { cat "$BATS_TEST_TMPDIR/run.err"; false; }
	if [ "${2:-}" = group ]; then
		kill -s "$1" -- "-$RUN_PID"
	else
		kill -s "$1" "$RUN_PID"
	fi
	RUN_STATUS=0
	wait "$RUN_PID" || RUN_STATUS=$?
}

# Every process the run started has ended (the sandbox's grace before
# SIGKILL is 2 s).
run_ended() {
	wait_for 30 /usr/bin/python3 "$RUNPROCS" alive "$BATS_TEST_TMPDIR/snap" "$RUN_PID" >/dev/null && return 0
	echo "left running:"
	/usr/bin/python3 "$RUNPROCS" alive "$BATS_TEST_TMPDIR/snap" "$RUN_PID"
	return 1
}

# The workspace says it is incomplete and holds nothing that looks whole.
assert_incomplete() {
	[ -f "$WS/INCOMPLETE" ]
	[ ! -e "$WS/report.json" ]
	[ ! -e "$WS/report.md" ]
	[ -z "$(find "$WS" -name '*.tmp*' -print)" ] || { find "$WS" -name '*.tmp*'; return 1; }
}

# A second run into the same path is refused and changes nothing there.
assert_second_run_refused() {
	local before
	before=$(tree_state "$WS")
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q 'workspace already exists' <<<"$stderr"
	[ "$(tree_state "$WS")" = "$before" ]
}

# interrupted SIGNUM: the checks every interrupted run must pass.
interrupted() {
	cat "$BATS_TEST_TMPDIR/run.err"
	[ "$RUN_STATUS" -eq $((128 + $1)) ]
	grep -q "interrupted by signal $1; the workspace is incomplete" "$BATS_TEST_TMPDIR/run.err"
	run_ended
	assert_incomplete
	assert_second_run_refused
}

prebuild_candidate() {
	candidate
	# the prebuild builds imports only (+Mod:deps): the slow build is an import,
	# Helper, selected too: built in the second layer, after its own sample.
	# 2 s of CPU: its lake outlives the readiness check and the signal (a
	# few python calls, each a small fraction of that) on any load, since
	# the build only burns when it is scheduled; the fresh run pays it whole.
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-cpu=2'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper' '-- fixture: cpu=0.05'
	head_commit
}

@test "SIGINT mid-prebuild: every process ends, exit 130, workspace incomplete; a fresh path works" {
	prebuild_candidate
	start_run
	wait_inside head-prebuild-2 lake
	signal_run INT
	interrupted 2
	WS=$BATS_TEST_TMPDIR/fresh profile
	[ "$status" -eq 0 ]
	[ "$(jq -r .status "$BATS_TEST_TMPDIR/fresh/report.json")" = ok ]
	[ ! -e "$BATS_TEST_TMPDIR/fresh/INCOMPLETE" ]
}

@test "SIGTERM mid-prebuild: every process ends, exit 143, workspace incomplete" {
	prebuild_candidate
	start_run
	wait_inside head-prebuild-2 lake
	signal_run TERM
	interrupted 15
}

@test "SIGQUIT (Ctrl-\\) mid-sample stops the run as SIGINT does: all ends, exit 131, workspace incomplete" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: hang'
	head_commit
	start_run
	wait_inside head-Demo.Basic lean
	signal_run QUIT
	interrupted 3
}

@test "SIGTERM mid-sample, candidate ignoring SIGTERM with an orphan: all ends, exit 143; a fresh path works" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: ignore-term orphan-hang hang'
	head_commit
	start_run
	wait_inside head-Demo.Basic lean
	signal_run TERM
	interrupted 15
	# The interrupted sample left no counters, not even under a temporary.
	[ ! -e "$WS/raw/head-Demo.Basic.time" ]
	WS=$BATS_TEST_TMPDIR/fresh profile --sample-timeout 1
	echo "fresh run: status $status; $stderr" # shown only if what follows fails
	[ "$status" -eq 1 ]
	[ "$(jq -r '.files[0].head.error' "$BATS_TEST_TMPDIR/fresh/report.json")" = timeout ]
	[ ! -e "$BATS_TEST_TMPDIR/fresh/INCOMPLETE" ]
}

@test "Ctrl-C (SIGINT to the whole process group) mid-sample: all ends, exit 130" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: hang'
	head_commit
	start_run
	wait_inside head-Demo.Basic lean
	signal_run INT group
	interrupted 2
}

@test "started with SIGINT ignored (a script's background job): SIGINT leaves the run alone, SIGTERM stops it" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: hang'
	ex_lean "$R" Demo/Ring.lean '-- fixture: hang'
	head_commit
	# Each hanging sample times out after 6 s: long enough to signal the
	# second one however loaded the machine is.
	START_IGNORED=1 start_run --sample-timeout 6
	[ "$(awk '/^SigIgn:/ { print $2 }' "/proc/$RUN_PID/status")" != 0000000000000000 ]
	wait_inside 'head-Demo.*' lean
	# A Ctrl-C to the script's process group, during the first hanging
	# sample.  The run going on to the second one shows it was left alone.
	kill -s INT -- "-$RUN_PID"
	wait_for 60 ready_or_ended 2
	kill -0 "$RUN_PID"
	hang_ready 2
	run ! grep -q interrupted "$BATS_TEST_TMPDIR/run.err"
	signal_run TERM
	interrupted 15
}

@test "SIGKILL of profile-run mid-sample: sc-sandbox-exec and the candidate still end; what stays on disk" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: ignore-term orphan-hang hang'
	head_commit
	start_run
	wait_inside head-Demo.Basic lean
	signal_run KILL
	[ "$RUN_STATUS" -eq 137 ]
	run_ended
	# What remains (man sphereceti, SIGNALS AND INTERRUPTED RUNS): the
	# marker, the plan, both trees, the finished steps' raw files; no
	# report, and no temporary of the killed sample.
	assert_incomplete
	[ -f "$WS/plan.json" ]
	[ -d "$WS/base" ]
	[ -d "$WS/head" ]
	[ -f "$WS/raw/base-Demo.Basic.time" ]
	[ -f "$WS/raw/head-prebuild.time" ]
	[ ! -e "$WS/raw/head-Demo.Basic.time" ]
	[ ! -e "$WS/raw/head-Demo.Basic.status" ]
	assert_second_run_refused
}

@test "SIGKILL of sc-sandbox-exec mid-sample: the sandbox ends with it; the run reports sandbox_failed, exits 3" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: ignore-term orphan-hang hang'
	head_commit
	start_run
	wait_inside head-Demo.Basic lean
	/usr/bin/python3 "$RUNPROCS" snapshot "$RUN_PID" >"$BATS_TEST_TMPDIR/snap"
	local exe
	exe=$(awk '$4 == "sc-sandbox-exec" { print $1 }' "$BATS_TEST_TMPDIR/snap")
	[ -n "$exe" ]
	kill -KILL "$exe"
	RUN_STATUS=0
	wait "$RUN_PID" || RUN_STATUS=$?
	cat "$BATS_TEST_TMPDIR/run.err"
	# GNU time gets SIGKILL when its parent dies, bwrap dies with GNU time,
	# the PID namespace takes the rest.
	run_ended
	# Nothing in the input kills sc-sandbox-exec: a system failure (3),
	# after the report.
	[ "$RUN_STATUS" -eq 3 ]
	[ "$(jq -r '.files[0].head.error' "$WS/report.json")" = sandbox_failed ]
	[ ! -e "$WS/INCOMPLETE" ]
	# GNU time's file was never renamed into place: a temporary may stay,
	# never a final name.
	[ ! -e "$WS/raw/head-Demo.Basic.time" ]
}

# ---- full disk ----

# mount_small SIZE [OPTIONS]: a tmpfs of SIZE at $MNT.
mount_small() {
	[ "$EUID" -eq 0 ] || skip "mounting a small file system needs a root operator"
	MNT=$BATS_TEST_TMPDIR/mnt
	mkdir -p "$MNT"
	mount -t tmpfs -o "size=$1${2:+,$2}" tmpfs "$MNT"
}

# Every regular file under DIR is whole: trees equal their blobs, JSON
# parses, the plan is sc-plan's bytes.  Nothing is left under a temporary
# name either.
assert_files_whole() {
	local dir=$1 f rel side rev
	while IFS= read -r -d '' f; do
		rel=${f#"$dir"/}
		case $rel in
		base/* | head/*)
			side=${rel%%/*}
			if [ "$side" = base ]; then rev=$M; else rev=$H; fi
			case $rel in */.lake/*) continue ;; esac
			cmp -s "$f" <(git -C "$R" cat-file blob "$rev:${rel#*/}") ||
				{ echo "truncated or wrong: $rel"; return 1; } ;;
		*.json) jq -e . "$f" >/dev/null || { echo "not JSON: $rel"; return 1; } ;;
		INCOMPLETE) grep -q 'has not finished' "$f" ;;
		*.tmp*) echo "temporary left: $rel"; return 1 ;;
		esac
	done < <(find "$dir" -type f -print0)
}

# big_tree [MIB]: a repository whose tree (MIB, default 3, of incompressible
# data) does not fit a tmpfs of MIB - 1.
big_tree() {
	mkdir -p "$R/data"
	head -c "$((${1:-3} << 20))" /dev/urandom >"$R/data/blob.bin"
	M=$(ex_commit "$R" "big data")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
}

@test "a tree larger than the free space where it goes: profile-run refuses it before writing (exit 2, the bound named), nothing truncated under a final name" {
	big_tree 40 # room for profile-run's minimum of free space (32 MiB), not for the tree
	mount_small 39m
	WS=$MNT/ws profile
	echo "$stderr"
	[ "$status" -eq 2 ]
	grep -q "^sc-materialize: error: the tree of commit $M: its files hold more than [0-9]* bytes, the free space where it goes (" <<<"$stderr"
	grep -q 'could not materialize the base tree' <<<"$stderr"
	[ -f "$MNT/ws/INCOMPLETE" ]
	[ ! -e "$MNT/ws/report.json" ]
	cmp "$MNT/ws/plan.json" <(sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H")
	assert_files_whole "$MNT/ws"
}

@test "a file system with too few inodes for the workspace is refused before the claim (exit 2), nothing created" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	# as many inodes as the trees, the workspace and plan.json take: the
	# run once died at raw/ with exit 3; the precheck counts inodes now
	mount_small 64m
	mkdir "$MNT/ws"
	sc-materialize --repo "$R" --commit "$M" --dest "$MNT/ws/base" >/dev/null
	sc-materialize --repo "$R" --commit "$H" --dest "$MNT/ws/head" >/dev/null
	local need
	need=$(($(df --output=iused "$MNT" | tail -1) + 2))
	umount "$MNT"
	mount_small 64m "nr_inodes=$need"
	WS=$MNT/ws profile
	echo "$stderr"
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	grep -q "inodes free where the workspace goes; profile-run needs at least 1024 ($MNT)" <<<"$stderr"
	[ ! -e "$MNT/ws" ]
}

@test "a tree larger than the free space: sc-materialize alone refuses it with one line (exit 2), leaves no tree and no temporary" {
	big_tree
	mount_small 2m
	run --separate-stderr sc-materialize --repo "$R" --commit "$M" --dest "$MNT/tree"
	[ "$status" -eq 2 ] # refused before writing: the bound is the free space
	assert_error_line sc-materialize
	grep -q 'its files hold more than [0-9]* bytes, the free space where it goes' <<<"$stderr"
	# What was written went with the temporary it was written under.
	run ls -A "$MNT"
	[ -z "$output" ]
	[ "$(df --output=used -B1 "$MNT" | tail -1)" -lt $((1 << 20)) ]
}

@test "disk full while reporting: sc-report fails cleanly (exit 3), report.json never written without its report.md" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	mount_small 64m
	WS=$MNT/ws profile
	[ "$status" -eq 0 ]
	cp "$MNT/ws/plan.json" "$MNT/ws/samples.jsonl" "$BATS_TEST_TMPDIR/"
	umount "$MNT"
	# profile-run keeps inodes and bytes in reserve for its report (the
	# inode test in seal.bats); sc-report alone, on a file system with room
	# for the folder and then one file more: report.md's, then
	# report.json's creation is the one that fails
	local extra
	for extra in 0 1; do
		mount_small 1m "nr_inodes=$((2 + extra))"
		mkdir "$MNT/out"
		run --separate-stderr sc-report --plan "$BATS_TEST_TMPDIR/plan.json" \
			--samples "$BATS_TEST_TMPDIR/samples.jsonl" --out-dir "$MNT/out"
		echo "$stderr"
		[ "$status" -eq 3 ]
		assert_error_line sc-report
		grep -q '^sc-report: error: cannot write report.*no space left on device' <<<"$stderr"
		[ ! -e "$MNT/out/report.json" ]
		[ -z "$(find "$MNT/out" -name '*.tmp*')" ]
		if [ "$extra" -eq 1 ]; then
			[ -f "$MNT/out/report.md" ]
		fi
		umount "$MNT"
	done
	# sc-report alone into a full disk: one error line, nothing written.
	mount_small 1m
	mkdir "$MNT/out"
	dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null || true
	run --separate-stderr sc-report --plan "$BATS_TEST_TMPDIR/plan.json" \
		--samples "$BATS_TEST_TMPDIR/samples.jsonl" --out-dir "$MNT/out"
	[ "$status" -eq 3 ]
	assert_error_line sc-report
	grep -q 'no space left on device' <<<"$stderr"
	[ -z "$(ls -A "$MNT/out")" ]
}

@test "stdout on a full disk (/dev/full): every tool exits nonzero with one error line" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	local digest tf=$BATS_TEST_TMPDIR/t.time st=$BATS_TEST_TMPDIR/t.status
	digest=$(printf 'x' | sha256sum | cut -d' ' -f1)
	printf 'sc-time/1\nuser 1.00\nsys 0.10\nmaxrss_kib 2048\nexit 0\nelapsed 1.20\n' >"$tf"
	printf '{"schema":"sphereceti.status/1","exit_code":0,"signal":0,"timed_out":false,"wall_s":1.25}\n' >"$st"
	local -a cmds=(
		"sc-plan --repo $R --tooling $T --base $B --head $H"
		"sc-plan --help"
		"sc-plan --version"
		"sc-parse-time --time-file $tf --status $st --run-id 0123456789abcdef0123456789abcdef --plan-digest $digest --revision $H --sample head:Demo.Basic"
		"sc-report --help"
		"sc-report --version"
		"sc-materialize --help"
		"sc-materialize --repo $R --commit $H --dest $BATS_TEST_TMPDIR/tree"
		"sc-profile-run --help"
		"sphereceti --version"
		"sphereceti help"
		"sphereceti profile-plan --repo $R --tooling $T --base $B --head $H"
		"sc-sandbox-exec --self-test"
	)
	local c
	for c in "${cmds[@]}"; do
		echo "== $c"
		# shellcheck disable=SC2086 # word splitting wanted: no spaces inside
		run --separate-stderr $c
		[ "$status" -eq 0 ] # the command itself works
		[ -n "$output" ]
		rm -rf "$BATS_TEST_TMPDIR/tree"
		# shellcheck disable=SC2086
		run --separate-stderr bash -c '"$@" >/dev/full' - $c
		echo "$stderr"
		[ "$status" -ne 0 ]
		local tool=${c%% *}
		[[ "$c" != "sphereceti profile-plan"* ]] || tool=sc-plan # it execs sc-plan
		assert_error_line "$tool"
		rm -rf "$BATS_TEST_TMPDIR/tree"
	done
}

@test "two profile-runs on one workspace path at once: exactly one proceeds, the other is refused" {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	local i
	for i in 1 2; do
		"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$T" --base "$B" --head "$H" \
			--workspace "$WS" --toolchain "$TC" --dependencies "$DEPS" \
			>"$BATS_TEST_TMPDIR/out$i" 2>"$BATS_TEST_TMPDIR/err$i" 3>&- &
		eval "pid$i=\$!"
	done
	local s1=0 s2=0
	wait "$pid1" || s1=$?
	wait "$pid2" || s2=$?
	cat "$BATS_TEST_TMPDIR/err1" "$BATS_TEST_TMPDIR/err2"
	# One winner (0), one loser (2) with the refusal as its only line.
	[ "$((s1 + s2))" -eq 2 ]
	[ "$((s1 * s2))" -eq 0 ]
	local loser=1
	if [ "$s1" -eq 0 ]; then loser=2; fi
	stderr=$(cat "$BATS_TEST_TMPDIR/err$loser") status=2 assert_error_line sc-profile-run
	grep -q 'workspace already exists' "$BATS_TEST_TMPDIR/err$loser"
	[ ! -s "$BATS_TEST_TMPDIR/out$loser" ]
	# The winner's run is whole.
	[ "$(jq -r .status "$WS/report.json")" = ok ]
	[ ! -e "$WS/INCOMPLETE" ]
	# Two file samples and the two sides' prebuilds.
	[ "$(wc -l <"$WS/samples.jsonl")" -eq 4 ]
}

# (the children file ends without a newline: read would fail on it)
has_child() { [ -n "$(cat "/proc/$1/task/$1/children" 2>/dev/null)" ]; }

# first_child PID: PID's first child.
first_child() {
	local c
	c=$(cat "/proc/$1/task/$1/children")
	echo "${c%% *}"
}

@test "runprocs: a gone run's PID namespace number, once the kernel gives it to a sandbox beside us, is not the run's" {
	# a run with a PID namespace of its own, snapshotted, then gone
	setsid unshare -Upf --kill-child /usr/bin/sleep 600 3>&- >/dev/null 2>&1 &
	RUN_PID=$!
	wait_for 30 has_child "$RUN_PID"
	/usr/bin/python3 "$RUNPROCS" snapshot "$RUN_PID" >"$BATS_TEST_TMPDIR/snap"
	local ns
	ns=$(awk '$4 == "sleep" { print $3 }' "$BATS_TEST_TMPDIR/snap")
	[ -n "$ns" ]
	kill -KILL -- "-$RUN_PID"
	RUN_STATUS=0
	{ wait "$RUN_PID"; } 2>/dev/null || RUN_STATUS=$? # bash's "Killed" job notice
	# Another suite's sandbox.  The kernel hands it the lowest free number,
	# ours once it is freed, unless a third namespace took it first: the
	# snapshot is made to name the number it got, as when it is ours.
	setsid unshare -Upf --kill-child /usr/bin/sleep 600 3>&- >/dev/null 2>&1 &
	local other=$!
	wait_for 30 has_child "$other"
	local reused snap
	reused=$(readlink "/proc/$(first_child "$other")/ns/pid")
	snap=$(cat "$BATS_TEST_TMPDIR/snap")
	printf '%s\n' "${snap//"$ns"/"$reused"}" >"$BATS_TEST_TMPDIR/snap"
	run /usr/bin/python3 "$RUNPROCS" alive "$BATS_TEST_TMPDIR/snap" "$RUN_PID"
	kill -KILL "$other"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "no_process_left sees what a run left (orphans, other sessions and PID namespaces), not another suite's sandbox" {
	# Another suite's candidate, running beside us under the same name.
	mkdir "$BATS_TEST_TMPDIR/other"
	printf 'leanprover/lean4:v4.34.0-rc1\n' >"$BATS_TEST_TMPDIR/other/lean-toolchain"
	printf -- '-- fixture: hang\n' >"$BATS_TEST_TMPDIR/other/A.lean"
	(cd "$BATS_TEST_TMPDIR/other" && exec "$TC/bin/lean" -j1 A.lean) 3>&- 2>/dev/null &
	local other=$!
	wait_for 60 grep -qx 'hang -> ready' "$BATS_TEST_TMPDIR/other/.fixture-log"
	profile
	kill -0 "$other"
	no_process_left
	# A run that leaves a process in a session and a PID namespace of its own.
	run /usr/bin/python3 "$RUNPROCS" reap "$BATS_TEST_TMPDIR/left" 1 \
		bash -c 'setsid unshare --user --fork --pid sleep 600 3>&- >/dev/null 2>&1 & exit 0'
	[ "$status" -eq 0 ]
	run ! no_process_left
	[[ "$output" == *" sleep sid="* ]]
	kill -KILL "$other"
}

@test "disk full at mkstemp: sc-sandbox-exec's time file is the machine's failure (exit 3), one line 'what: cause (where)'" {
	sandbox_dirs
	# a file system whose only free inode goes to raw/: mkstemp gets ENOSPC
	mount_small 1m nr_inodes=2
	mkdir "$MNT/raw"
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$MNT/raw/x.time" --timeout 30 -- /usr/bin/true
	echo "$stderr"
	[ "$status" -eq 3 ] # a full disk is not the operator's input
	[ -z "$output" ]
	assert_error_line sc-sandbox-exec
	grep -q '^sc-sandbox-exec: error: cannot create the time file: no space left on device (' <<<"$stderr"
}

@test "a path error and a system error read alike: 'what: cause (where)'" {
	: >"$BATS_TEST_TMPDIR/s.jsonl"
	run --separate-stderr sc-report --plan "$BATS_TEST_TMPDIR/none.json" --out-dir "$BATS_TEST_TMPDIR" \
		--samples "$BATS_TEST_TMPDIR/s.jsonl"
	[ "$status" -eq 2 ]
	assert_error_line sc-report
	grep -qF "sc-report: error: cannot read plan: No such file or directory ($BATS_TEST_TMPDIR/none.json)" <<<"$stderr"
}
