#!/usr/bin/env bats
# sc-sandbox-exec against real bwrap, real GNU time and the fixture
# toolchain (dynamically linked lean/lake, like real Lean).
load helpers
bats_require_minimum_version 1.5.0

setup() {
	TC="${SC_FIXTURE:?}/toolchain"
	W="$BATS_TEST_TMPDIR"
	T="$W/tree" D="$W/deps" R="$W/raw"
	mkdir -p "$T" "$D/pkg" "$R"
	echo 'leanprover/lean4:v4.34.0-rc1' > "$T/lean-toolchain"
	echo 'def dep := 1' > "$D/pkg/Dep.lean"
	# A unique module name: lets us find this test's processes in /proc.
	M="Probe_${BATS_TEST_NUMBER}_$$"
	LOG="$T/.fixture-log"
}

# lean_file 'directive...': the test's source file with these directives.
lean_file() { printf -- '-- fixture: %s\n' "$@" > "$T/$M.lean"; }

# sbx TIMEOUT [CMD...]: sandboxed run of CMD (default: lake env lean $M.lean).
sbx() {
	local timeout=$1
	shift
	[ $# -gt 0 ] || set -- lake env lean -j1 "$M.lean"
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.time" --timeout "$timeout" -- "$@"
}

# cpu_of FILE: user + sys seconds of a time file.
cpu_of() { awk '$1 == "user" || $1 == "sys" { s += $2 } END { printf "%.2f", s }' "$1"; }

between() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }' || {
		echo "expected $1 in [$2, $3]" >&2
		return 1
	}
}

# field KEY: a field of the status line in $output.
field() { python3 -c 'import json,sys; v=json.loads(sys.argv[1])[sys.argv[2]]; print(str(v).lower() if isinstance(v,bool) else v)' "$output" "$1"; }

# Processes of this test still alive anywhere (any namespace).
leftovers() {
	local p
	for p in /proc/[0-9]*; do
		tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -q "$M" && echo "${p#/proc/}: $(tr '\0' ' ' < "$p/cmdline")"
	done
	return 0
}

status_ok() { # exit code
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	[ "$(field schema)" = sphereceti.status/1 ]
	[ "$(field exit_code)" = "$1" ]
	[ "$(field timed_out)" = false ]
}

@test "CPU of the command is counted: cpu=0.5 gives 0.4-2 s" {
	lean_file cpu=0.5
	sbx 60
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	status_ok 0
	between "$(cpu_of "$R/$M.time")" 0.4 2
	between "$(field wall_s)" 0.3 30
	# the fixture really ran inside
	grep -q . "$T/$M.lean"
}

@test "the trap: bare bwrap with its own PID 1 hides that CPU from GNU time" {
	lean_file cpu=0.5
	/usr/bin/time -f '%U %S' -o "$W/bare.time" bwrap --unshare-all --die-with-parent \
		--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
		--proc /proc --dev /dev --ro-bind "$TC" /toolchain --bind "$T" /project --chdir /project \
		-- /toolchain/bin/lean "$M.lean"
	lost=$(awk '{ printf "%.2f", $1 + $2 }' "$W/bare.time")
	between "$lost" 0 0.1
	sbx 60
	[ "$status" -eq 0 ]
	between "$(cpu_of "$R/$M.time")" 0.4 2
}

@test "CPU of children is counted" {
	lean_file child-cpu=0.5
	sbx 60
	[ "$status" -eq 0 ]
	grep -q 'child-cpu pid=[0-9]* -> done' "$LOG"
	between "$(cpu_of "$R/$M.time")" 0.4 2
}

@test "CPU of orphaned grandchildren is counted, and they are killed when the command ends" {
	# The orphan burns 0.3 s while lean burns 1 s; then lean exits.
	lean_file orphan-cpu=0.3 cpu=1
	sbx 60
	[ "$status" -eq 0 ]
	grep -q 'orphan-cpu pid=[0-9]* -> done' "$LOG"
	between "$(cpu_of "$R/$M.time")" 1.2 4
	# An orphan still burning when lean ends is killed, its CPU so far counted.
	lean_file orphan-cpu=30 cpu=0.5
	rm -f "$R/$M.time" "$LOG"
	sbx 60
	[ "$status" -eq 0 ]
	run ! grep -q 'orphan-cpu pid=[0-9]* -> done' "$LOG"
	between "$(cpu_of "$R/$M.time")" 0.5 10
	[ -z "$(leftovers)" ]
}

@test "a child that ignores SIGTERM and outlives its parent is killed" {
	lean_file ignore-term orphan-hang
	sbx 60
	[ "$status" -eq 0 ]
	status_ok 0
	grep -q 'orphan-hang pid=[0-9]* -> started' "$LOG"
	[ -z "$(leftovers)" ] || { leftovers; false; }
}

@test "a 1 s timeout ends a hanging command and leaves no process of it" {
	lean_file ignore-term orphan-hang hang
	sbx 1
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	[ "$(field timed_out)" = true ]
	[ "$(field exit_code)" = -1 ]
	between "$(field wall_s)" 1 4
	[ -z "$(leftovers)" ] || { leftovers; false; }
	# no half-written time file under the final name, no temporary either
	[ -z "$(ls -A "$R")" ]
}

@test "a failing command: exit 1, status line and time file say so" {
	lean_file fail
	sbx 60
	[ "$status" -eq 1 ]
	status_ok 1
	grep -qx 'exit 1' "$R/$M.time"
}

@test "forged counters and ::error lines never reach the host" {
	lean_file print-counters
	sbx 60
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	status_ok 0
	grep -q 'print-counters -> printed' "$LOG"
	run ! grep -q 'forged\|user=0.01\|0.00user\|"status"' "$R/$M.time"
	[ "$(grep -c . "$R/$M.time")" -eq 6 ]
}

@test "host environment is not visible; PATH and HOME are fixed" {
	export GITHUB_TOKEN=ghp_secret_token_value SC_HOST_MARKER=host-only
	lean_file read-env=GITHUB_TOKEN read-env=SC_HOST_MARKER read-env=PATH read-env=HOME read-env=LEAN_PATH
	sbx 60
	[ "$status" -eq 0 ]
	grep -qx 'read-env GITHUB_TOKEN -> unset' "$LOG"
	grep -qx 'read-env SC_HOST_MARKER -> unset' "$LOG"
	grep -qx 'read-env PATH -> set /toolchain/bin:/usr/bin:/bin' "$LOG"
	grep -qx 'read-env HOME -> set /tmp/home' "$LOG"
	# lake env did run (it sets LEAN_PATH)
	grep -q 'read-env LEAN_PATH -> set /project' "$LOG"
	run ! grep -rq ghp_secret "$T" "$R"
}

@test "host files are not visible: /root, /etc, /run, sibling folders" {
	marker=""
	if [ -w /root ]; then
		marker="/root/.sc-sandbox-marker-$$"
		echo secret > "$marker"
	fi
	echo secret > "$W/sibling-marker"
	lean_file "read=${marker:-/root/.profile}" read=/etc/passwd read=/run/systemd \
		read="$W/sibling-marker" read="$R" read=/usr/bin/env read=/project/lean-toolchain
	sbx 60
	[ -z "$marker" ] || rm -f "$marker"
	[ "$status" -eq 0 ]
	cat "$LOG"
	grep -qx "read ${marker:-/root/.profile} -> ENOENT" "$LOG"
	grep -qx 'read /etc/passwd -> ENOENT' "$LOG"
	grep -qx 'read /run/systemd -> ENOENT' "$LOG"
	grep -qx "read $W/sibling-marker -> ENOENT" "$LOG"
	grep -qx "read $R -> ENOENT" "$LOG"
	# controls: reading does work where it should
	grep -q '^read /usr/bin/env -> ok' "$LOG"
	grep -q '^read /project/lean-toolchain -> ok' "$LOG"
}

@test "dependencies, toolchain and /usr are read-only; the tree is writable" {
	before=$(cd "$D" && find . -printf '%p %s %m\n' | sort; find "$D" -type f -exec sha256sum {} + | sort)
	tc_before=$(find "$TC" -printf '%p %s\n' | sort)
	lean_file write=/project/.lake/packages/pkg/Dep.lean write=/project/.lake/packages/new \
		write=/toolchain/sc-evil write=/usr/sc-evil write=/project/written
	sbx 60
	[ "$status" -eq 0 ]
	grep -qx 'write /project/.lake/packages/pkg/Dep.lean -> EROFS' "$LOG"
	grep -qx 'write /project/.lake/packages/new -> EROFS' "$LOG"
	grep -qx 'write /toolchain/sc-evil -> EROFS' "$LOG"
	grep -qx 'write /usr/sc-evil -> EROFS' "$LOG"
	grep -qx 'write /project/written -> ok' "$LOG"
	[ -f "$T/written" ]
	after=$(cd "$D" && find . -printf '%p %s %m\n' | sort; find "$D" -type f -exec sha256sum {} + | sort)
	[ "$before" = "$after" ]
	[ "$tc_before" = "$(find "$TC" -printf '%p %s\n' | sort)" ]
}

@test "the time file's folder cannot be written from inside" {
	lean_file write="$R/evil" write="$R/$M.time"
	sbx 60
	[ "$status" -eq 0 ]
	grep -qx "write $R/evil -> ENOENT" "$LOG"
	[ "$(ls -A "$R")" = "$M.time" ]
	run ! grep -q fixture-write "$R/$M.time"
}

@test "no network: a loopback listener on the host gets nothing" {
	port_file="$W/port" got="$W/got"
	/usr/bin/python3 - "$port_file" "$got" <<'EOF' &
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1])); __import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
s.settimeout(20)
with open(sys.argv[2], "a") as out:
    while True:
        c, _ = s.accept(); data = c.recv(100); out.write(repr(data) + "\n"); out.flush(); c.close()
        if data == b"stop": break
EOF
	listener=$!
	wait_for 30 test -s "$port_file"
	port=$(cat "$port_file")
	lean_file connect="127.0.0.1:$port" connect="localhost:$port" connect="example.com:443"
	sbx 60
	# control: the listener does take connections from the host
	printf stop > "/dev/tcp/127.0.0.1/$port"
	wait "$listener" || true
	[ "$status" -eq 0 ]
	cat "$LOG"
	grep -q "connect 127.0.0.1:$port -> " "$LOG"
	run ! grep -q -- '-> connected' "$LOG"
	[ "$(cat "$got")" = "b'stop'" ]
}

@test "the fixture's dynamically linked lean and lake run inside (no /etc needed)" {
	readelf -d "$TC/bin/lean" | grep -q 'NEEDED.*libfixturelean'
	readelf -d "$TC/bin/lake" | grep -q 'NEEDED.*libfixturelean'
	sbx 60 lean --version
	[ "$status" -eq 0 ]
	rm "$R/$M.time"
	sbx 60 lake --version
	[ "$status" -eq 0 ]
	rm "$R/$M.time"
	lean_file read=/etc/ld.so.cache
	sbx 60
	[ "$status" -eq 0 ]
}

@test "a command that does not exist: one error line, exit 2" {
	sbx 60 no-such-command-here
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"cannot run the command"* ]]
	[ -z "$(ls -A "$R")" ]
}

@test "bad flags, overlapping mounts and unsafe time files are refused" {
	base=(--tree "$T" --toolchain "$TC" --dependencies "$D" --timeout 5)
	check() {
		run --separate-stderr sc-sandbox-exec "$@"
		[ "$status" -eq 2 ] || { echo "status $status for: $*"; return 1; }
		[ -z "$output" ] || { echo "stdout for: $*: $output"; return 1; }
		assert_error_line sc-sandbox-exec
	}
	check --frobnicate
	check "${base[@]}" --time-file "$R/a.time"
	check "${base[@]}" --time-file "$R/a.time" true
	check --tree "$T" --toolchain "$TC" --dependencies "$D" --time-file "$R/a.time" -- true
	check "${base[@]/5/0}" --time-file "$R/a.time" -- true
	check "${base[@]/5/abc}" --time-file "$R/a.time" -- true
	check "${base[@]/5/nan}" --time-file "$R/a.time" -- true
	check "${base[@]}" --time-file "$T/a.time" -- true
	check "${base[@]}" --time-file "$D/pkg/a.time" -- true
	check "${base[@]}" --time-file "$TC/a.time" -- true
	check "${base[@]}" --time-file "$W/no/such/a.time" -- true
	check "${base[@]}" --time-file "$R" -- true
	touch "$R/exists.time"
	check "${base[@]}" --time-file "$R/exists.time" -- true
	ln -s "$W/nowhere" "$R/dangling.time"
	check "${base[@]}" --time-file "$R/dangling.time" -- true
	mkdir -p "$T/.lake/packages"
	check --tree "$T" --toolchain "$TC" --dependencies "$T/.lake/packages" --timeout 5 --time-file "$R/a.time" -- true
	check --tree "$T" --toolchain "$T" --dependencies "$D" --timeout 5 --time-file "$R/a.time" -- true
	check --tree "$W" --toolchain "$TC" --dependencies "$D" --timeout 5 --time-file "$W/elsewhere.time" -- true
	check --tree "$W/missing" --toolchain "$TC" --dependencies "$D" --timeout 5 --time-file "$R/a.time" -- true
	check "${base[@]}" --bwrap /no/such/bwrap --time-file "$R/a.time" -- true
	rm -rf "$T/.lake" && mkdir "$T/.lake" && ln -s /usr "$T/.lake/packages"
	check "${base[@]}" --time-file "$R/a.time" -- true
	[ "$(ls -A "$R")" = "$(printf 'dangling.time\nexists.time')" ]
}

@test "--self-test passes on this host" {
	run --separate-stderr sc-sandbox-exec --self-test
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == "self-test ok:"* ]]
	[[ "$output" == *"orphan CPU counted"* ]]
}

@test "--self-test fails clearly when the sandbox cannot start" {
	printf '#!/bin/sh\necho "bwrap: No permission to create namespaces" >&2\nexit 1\n' > "$W/bwrap"
	chmod +x "$W/bwrap"
	run --separate-stderr sc-sandbox-exec --self-test --bwrap "$W/bwrap"
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"No permission to create namespaces"* ]]
}

@test "--check-bwrap: the pin must match hash and version" {
	sha=$(sha256sum "$(readlink -f /usr/bin/bwrap)" | cut -d' ' -f1)
	ver=$(bwrap --version | sed 's/^bubblewrap //')
	run --separate-stderr sc-sandbox-exec --check-bwrap "$sha" "$ver"
	[ "$status" -eq 0 ]
	[[ "$output" == *"matches the pin"* ]]
	run --separate-stderr sc-sandbox-exec --bwrap /usr/bin/bwrap --check-bwrap "$sha" "bubblewrap $ver"
	[ "$status" -eq 0 ]
	run --separate-stderr sc-sandbox-exec --check-bwrap "$(printf %064d 0)" "$ver"
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"SHA-256"* ]]
	run --separate-stderr sc-sandbox-exec --check-bwrap "$sha" 0.0.1
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *version* ]]
	run --separate-stderr sc-sandbox-exec --check-bwrap "" ""
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"no bubblewrap pin"* ]]
	run --separate-stderr sc-sandbox-exec --check-bwrap "$sha"
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
}
