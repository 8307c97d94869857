#!/usr/bin/env bats
# sc-sandbox-exec against real bwrap, real GNU time and the fixture
# toolchain (dynamically linked lean/lake, like real Lean).
load helpers
bats_require_minimum_version 1.5.0

setup() {
	sandbox_dirs
	mkdir -p "$D/pkg"
	echo 'leanprover/lean4:v4.34.0-rc1' > "$T/lean-toolchain"
	echo 'def dep := 1' > "$D/pkg/Dep.lean"
	# A unique module name: lets us find this test's processes in /proc.
	M="Probe_${BATS_TEST_NUMBER}_$$"
	LOG="$T/.lake/.fixture-log" # the tree is read-only inside but for .lake
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

# Processes of this test still alive anywhere (any namespace): one grep
# over every command line, not two processes per process of the host (the
# pattern is expanded before grep starts, so grep never reads its own).
leftovers() {
	local f
	for f in $(grep -laF -- "$M" /proc/[0-9]*/cmdline 2>/dev/null); do
		f=${f%/cmdline}
		echo "${f#/proc/}: $(tr '\0' ' ' <"$f/cmdline" 2>/dev/null)"
	done
	return 0
}

status_ok() { # exit code
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	[ "$(field schema)" = sphereceti.status/1 ]
	[ "$(field exit_code)" = "$1" ]
	[ "$(field timed_out)" = false ]
}

# profile_run_says SAID OPTION...: profile-run refuses OPTION up front
# (exit 2) with SAID, the words another program said.
profile_run_says() {
	local said=$1
	shift
	run --separate-stderr sphereceti profile-run --repo "$R" --tooling x --base x --head x \
		--workspace "$R/ws" --toolchain "$TC" --dependencies "$D" "$@"
	[ "$status" -eq 2 ] || { echo "exit $status, not 2"; return 1; }
	[ "${stderr#sc-profile-run: }" = "$said" ] || { echo "said: $stderr"; return 1; }
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

@test "dependencies, toolchain, /usr and the tree are read-only; the tree's .lake is writable" {
	before=$(cd "$D" && find . -printf '%p %s %m\n' | sort; find "$D" -type f -exec sha256sum {} + | sort)
	tc_before=$(find "$TC" -printf '%p %s\n' | sort)
	lean_file write=/project/.lake/packages/pkg/Dep.lean write=/project/.lake/packages/new \
		write=/toolchain/sc-evil write=/usr/sc-evil write=/project/written write=/project/.lake/written \
		write=/project/$M.lean write=/project/lean-toolchain
	cp "$T/$M.lean" "$W/source.before"
	sbx 60
	[ "$status" -eq 0 ]
	grep -qx 'write /project/written -> EROFS' "$LOG"
	grep -qxE "write /project/$M.lean -> (EROFS|EACCES)" "$LOG"
	grep -qxE 'write /project/lean-toolchain -> (EROFS|EACCES)' "$LOG"
	cmp "$T/$M.lean" "$W/source.before"
	[ ! -e "$T/written" ]
	[ -f "$T/.lake/written" ]
	grep -qxE 'write /project/.lake/packages/pkg/Dep.lean -> (EROFS|EACCES)' "$LOG"
	grep -qx 'write /project/.lake/packages/new -> EROFS' "$LOG"
	grep -qx 'write /toolchain/sc-evil -> EROFS' "$LOG"
	grep -qx 'write /usr/sc-evil -> EROFS' "$LOG"
	after=$(cd "$D" && find . -printf '%p %s %m\n' | sort; find "$D" -type f -exec sha256sum {} + | sort)
	[ "$before" = "$after" ]
	[ "$tc_before" = "$(find "$TC" -printf '%p %s\n' | sort)" ]
}

@test "--lake-read-only: the tree's .lake is read-only too, so a command leaves nothing there for the next" {
	# the dependencies' mount point is there, as a preflight leaves it
	mkdir -p "$T/.lake/memo" "$T/.lake/packages"
	lean_file write=/project/.lake/written write=/project/.lake/memo/cost
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.time" --timeout 60 --lake-read-only -- lake env lean -j1 "$M.lean"
	[ "$status" -eq 0 ]
	[ ! -e "$T/.lake/written" ]
	[ ! -e "$T/.lake/memo/cost" ]
	[ ! -e "$LOG" ]
	# without it, the same command writes there
	rm -f "$R/$M.time"
	sbx 60
	[ "$status" -eq 0 ]
	[ -f "$T/.lake/written" ]
	[ -f "$T/.lake/memo/cost" ]
}

@test "Lake's environment: no release caches, the artifact cache off, its folder the sandbox's own, git's stat cache trusted" {
	lean_file read-env=LAKE_NO_CACHE read-env=LAKE_ARTIFACT_CACHE read-env=LAKE_RESTORE_ARTIFACTS \
		read-env=LAKE_CACHE_DIR read-env=GIT_CONFIG_COUNT read-env=GIT_CONFIG_KEY_1 \
		read-env=GIT_CONFIG_VALUE_1 read-env=GIT_CONFIG_KEY_2 read-env=GIT_CONFIG_VALUE_2
	sbx 60 lean -j1 "$M.lean"
	[ "$status" -eq 0 ]
	grep -qx 'read-env LAKE_NO_CACHE -> set 1' "$LOG"
	grep -qx 'read-env LAKE_ARTIFACT_CACHE -> set false' "$LOG"
	grep -qx 'read-env LAKE_RESTORE_ARTIFACTS -> set false' "$LOG"
	grep -qx 'read-env LAKE_CACHE_DIR -> set /tmp/lake-cache' "$LOG"
	grep -qx 'read-env GIT_CONFIG_COUNT -> set 3' "$LOG"
	grep -qx 'read-env GIT_CONFIG_KEY_1 -> set core.checkStat' "$LOG"
	grep -qx 'read-env GIT_CONFIG_VALUE_1 -> set minimal' "$LOG"
	grep -qx 'read-env GIT_CONFIG_KEY_2 -> set core.trustctime' "$LOG"
	grep -qx 'read-env GIT_CONFIG_VALUE_2 -> set false' "$LOG"
}

@test "attack: --cache DIR is read-only at /lake-cache (reads on, writes off); the operator's folder keeps every byte, mode and owner" {
	C="$W/cache"
	mkdir -p "$C/artifacts" "$C/outputs/demo"
	echo olean >"$C/artifacts/0123.olean"
	echo '"0123.olean"' >"$C/outputs/demo/abcd.json"
	chmod -R o+rX "$C"
	before=$(cd "$C" && find . -printf '%p %s %m %u %g %T@\n' | sort; find . -type f -exec sha256sum {} + | sort)
	lean_file read-env=LAKE_CACHE_DIR read-env=LAKE_ARTIFACT_CACHE read-env=LAKE_RESTORE_ARTIFACTS \
		read=/lake-cache/artifacts/0123.olean write=/lake-cache/artifacts/0123.olean \
		write=/lake-cache/outputs/demo/abcd.json write=/lake-cache/artifacts/new.olean write=/lake-cache/lock
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" --cache "$C" \
		--time-file "$R/$M.time" --timeout 60 -- lean -j1 "$M.lean"
	[ "$status" -eq 0 ]
	grep -qx 'read-env LAKE_CACHE_DIR -> set /lake-cache' "$LOG"
	grep -qx 'read-env LAKE_ARTIFACT_CACHE -> unset' "$LOG"
	grep -qx 'read-env LAKE_RESTORE_ARTIFACTS -> set true' "$LOG"
	grep -qx 'read /lake-cache/artifacts/0123.olean -> ok 6 bytes' "$LOG"
	grep -qxE 'write /lake-cache/artifacts/0123.olean -> (EROFS|EACCES)' "$LOG"
	grep -qxE 'write /lake-cache/outputs/demo/abcd.json -> (EROFS|EACCES)' "$LOG"
	grep -qx 'write /lake-cache/artifacts/new.olean -> EROFS' "$LOG"
	grep -qx 'write /lake-cache/lock -> EROFS' "$LOG"
	after=$(cd "$C" && find . -printf '%p %s %m %u %g %T@\n' | sort; find . -type f -exec sha256sum {} + | sort)
	[ "$before" = "$after" ]
}

@test "--cache must be a folder apart from the tree, the toolchain and the dependencies" {
	mkdir -p "$T/.lake/cache"
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" --cache "$T/.lake/cache" \
		--time-file "$R/$M.time" --timeout 60 -- true
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--tree and --cache overlap"* ]]
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" --cache "$D" \
		--time-file "$R/$M.time" --timeout 60 -- true
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--dependencies and --cache overlap"* ]]
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" --cache "$W/none" \
		--time-file "$R/$M.time" --timeout 60 -- true
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--cache is not a directory"* ]]
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" --cache "$W" \
		--time-file "$R/$M.time" --timeout 60 -- true
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"and --cache overlap"* ]]
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
	# the inherited task clock saw the autoreaped child, where the host has one
	if [[ "$output" != *"no task clock (perf_event_open: "* ]]; then
		[[ "$output" == *"task clock counted an autoreaped child"* ]]
	fi
}

@test "--self-test fails clearly when the sandbox cannot start" {
	printf '#!/bin/sh\necho "bwrap: No permission to create namespaces" >&2\nexit 1\n' > "$W/bwrap"
	chmod +x "$W/bwrap"
	run --separate-stderr sc-sandbox-exec --self-test --bwrap "$W/bwrap"
	# a host that cannot hold the sandbox is an unmet precondition: exit 2
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
	[[ "$stderr" == *"--check-bwrap takes pairs of values, SHA256 VERSION ($sha)" ]]
}

@test "--check-bwrap: several pins, one per host image; the binary must match one" {
	local sha ver other
	sha=$(sha256sum "$(readlink -f /usr/bin/bwrap)" | cut -d' ' -f1)
	ver=$(bwrap --version | sed 's/^bubblewrap //')
	other=$(printf 'e%.0s' {1..64})
	run --separate-stderr sc-sandbox-exec --check-bwrap "$other" 0.9.1 "$sha" "$ver"
	[ "$status" -eq 0 ]
	[[ "$output" == "bubblewrap $ver matches the pin (sha256 $sha, "* ]]
	run --separate-stderr sc-sandbox-exec --check-bwrap="$sha" --check-bwrap="$ver" --check-bwrap "$other" 0.9.1
	[ "$status" -eq 0 ]
	run --separate-stderr sc-sandbox-exec --check-bwrap "$other" 0.9.1 "$(printf 'f%.0s' {1..64})" 0.10.0
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"no pin says it (pinned: 0.9.1 eeeeeeeeeeee..., 0.10.0 ffffffffffff...); "*"bwrapPin = $ver $sha ("* ]]
	run --separate-stderr sc-sandbox-exec --check-bwrap "$other" 0.9.1 "$sha"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--check-bwrap takes pairs of values"* ]]
}

# ---- attacks: a real program as the candidate ----

# The burner: CPU seconds in this process.
burn_py='import sys, time
t = time.process_time()
while time.process_time() - t < float(sys.argv[1]):
    pass'

@test "attack: the operator's descriptors 7 and 8 never reach the candidate" {
	echo 'host secret' > "$W/secret"
	: > "$W/hostlog"
	sbx 60 /usr/bin/bash -c 'cat <&7 > .lake/leak; echo forged >&8; echo done > .lake/ran' 7<"$W/secret" 8>>"$W/hostlog"
	[ "$status" -eq 0 ]
	[ -f "$T/.lake/ran" ]
	[ ! -s "$T/.lake/leak" ]
	[ ! -s "$W/hostlog" ]
}

@test "attack: inside, only 0-2 are open, all three on /dev/null" {
	cat > "$T/fds.py" <<'PY'
import os
def is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False
fds = [fd for fd in range(1024) if is_open(fd)]
links = [os.readlink("/proc/self/fd/%d" % fd) for fd in (0, 1, 2)]
with open("/project/.lake/fds.out", "w") as f:
    f.write(" ".join(map(str, fds)) + "\n" + "\n".join(links) + "\n")
PY
	sbx 60 /usr/bin/python3 fds.py 5<"$W/../" 9>>"$W/hostlog"
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p "$T/.lake/fds.out")" = "0 1 2" ]
	[ "$(sed -n 2,4p "$T/.lake/fds.out" | sort -u)" = /dev/null ]
}

@test "attack: a forged record through GNU time's -o descriptor does not replace the counters" {
	# A real record of a trivial run is the forgery.
	sbx 60 /usr/bin/true
	[ "$status" -eq 0 ]
	cp "$R/$M.time" "$W/fake"
	rm "$R/$M.time"
	cp "$W/fake" "$T/fake"
	cat > "$T/forge.py" <<PY
import os, stat, errno
fake = open("/project/fake", "rb").read()
for fd in range(3, 64):
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            continue
        os.write(fd, fake)
        # the shared offset to the file system's limit: GNU time's own
        # write then fails while GNU time still exits 0
        lo, hi = 0, (1 << 63) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            try:
                os.lseek(fd, mid, os.SEEK_SET)
                lo = mid
            except OSError:
                hi = mid - 1
        os.lseek(fd, lo, os.SEEK_SET)
        open("/project/.lake/forged", "a").write("%d\n" % fd)
    except OSError:
        pass
$burn_py
PY
	sbx 60 /usr/bin/python3 forge.py 1.5
	[ "$status" -eq 0 ]
	between "$(cpu_of "$R/$M.time")" 1.2 6
	[ ! -e "$T/.lake/forged" ]
}

@test "attack: host settings under /proc/sys cannot be opened for writing; runc's masks hold" {
	cat > "$T/sys.py" <<'PY'
import os
out = []
for p in ["/proc/sys/kernel/core_pattern", "/proc/sys/vm/swappiness", "/proc/sys/vm/drop_caches",
          "/proc/sys/fs/suid_dumpable", "/proc/sysrq-trigger"]:
    try:
        fd = os.open(p, os.O_WRONLY)  # opened only: never written
        os.close(fd)
        out.append(p + " -> writable")
    except OSError as e:
        out.append(p + " -> refused")
for p in ["/proc/keys", "/proc/timer_list"]:
    try:
        out.append(p + (" -> shows %d bytes" % len(open(p).read())))
    except OSError:
        out.append(p + " -> hidden")
out.append("uid %d" % os.getuid())
open("/project/.lake/sys.out", "w").write("\n".join(out) + "\n")
PY
	sbx 60 /usr/bin/python3 sys.py
	[ "$status" -eq 0 ]
	cat "$T/.lake/sys.out"
	[ "$(grep -c ' -> refused$' "$T/.lake/sys.out")" -eq 5 ]
	run ! grep -E 'writable|shows [1-9]' "$T/.lake/sys.out"
	run ! grep -x 'uid 0' "$T/.lake/sys.out"
}

@test "attack: a nested PID namespace is refused, so it cannot hide a 1 s burn" {
	printf '%s\n' "$burn_py" > "$T/burn.py"
	cat > "$T/nest.py" <<'PY'
import signal, subprocess, sys
# The nested init ignores SIGCHLD: its burning child is autoreaped there
# and its CPU would never reach GNU time.
r = subprocess.run(["unshare", "-Upf", "--", "/usr/bin/python3", "-c",
    "import os, signal, time\nsignal.signal(signal.SIGCHLD, signal.SIG_IGN)\n"
    "pid = os.fork()\nif pid == 0:\n    os.execv('/usr/bin/python3', ['python3', '/project/burn.py', '1'])\n"
    "time.sleep(1.5)\n"])
open("/project/.lake/nest.out", "w").write("unshare exit %d\n" % r.returncode)
PY
	sbx 60 /usr/bin/python3 nest.py
	[ "$status" -eq 0 ]
	cat "$T/.lake/nest.out"
	# where a nested namespace could be made, its burn went uncounted
	if grep -qx 'unshare exit 0' "$T/.lake/nest.out"; then
		between "$(cpu_of "$R/$M.time")" 0.8 6
	fi
	run ! grep -x 'unshare exit 0' "$T/.lake/nest.out"
}

@test "attack: children autoreaped under SIGCHLD=SIG_IGN hide from rusage, not from the task clock: cpu_hidden" {
	printf '%s\n' "$burn_py" > "$T/burn.py"
	cat > "$T/hide.py" <<'PY'
import os, signal, subprocess
# Autoreaped children: their CPU never reaches the parent's rusage, so GNU
# time would see only what this process burns itself.
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for _ in range(2):
    if os.fork() == 0:
        os.execv("/usr/bin/python3", ["python3", "/project/burn.py", "0.6"])
# with SIGCHLD ignored, wait returns (ECHILD) once every child is gone
try:
    os.wait()
except ChildProcessError:
    pass
PY
	if ! host_has_task_clock; then
		skip "no perf task clock on this host: the autoreap limit stays stated"
	fi
	sbx 60 /usr/bin/python3 hide.py
	[ "$status" -eq 0 ]
	status_ok 0
	# rusage lost the children's 1.2 s; the task clock kept it
	between "$(cpu_of "$R/$M.time")" 0 0.6
	between "$(field task_clock_s)" 1.1 6
	printf '%s\n' "$output" > "$R/$M.status"
	run --separate-stderr sc-parse-time --time-file "$R/$M.time" --status "$R/$M.status" \
		--run-id 0123456789abcdef0123456789abcdef --plan-digest "$(printf 'a%.0s' {1..64})" \
		--revision "$(printf '1%.0s' {1..40})" --sample head:A
	[ "$status" -eq 1 ]
	[[ "$output" == *'"error":"cpu_hidden"'* ]]
	[[ "$output" == *'"cpu_s":null'* ]]
}

# shimmed_system_failure [VAR=VALUE...]: sc-sandbox-exec with $W/shim.so
# preloaded (and the variables set) fails as the system's fault: exit 3,
# one error line, no status line, no time file, nothing left running.
shimmed_system_failure() {
	run --separate-stderr env LD_PRELOAD="$W/shim.so" "$@" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.time" --timeout 60 -- /usr/bin/sleep 20 "$M"
	echo "$stderr"
	[ "$status" -eq 3 ]
	[ -z "$output" ]
	assert_error_line sc-sandbox-exec
	[ ! -e "$R/$M.time" ]
	[ -z "$(leftovers)" ]
}

@test "a failed poll (not EINTR) kills the run's group and is a system failure, nothing kept" {
	[ -z "${SC_VALGRIND:-}" ] || skip "valgrind, not the tool, would take the preload"
	# a shim whose poll always fails: the run loop is blind from the start
	cat > "$W/shim.c" <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
int poll(struct pollfd *f, nfds_t n, int t) { (void)f; (void)n; (void)t; errno = ENOMEM; return -1; }
C
	cc -shared -fPIC -o "$W/shim.so" "$W/shim.c"
	shimmed_system_failure
	grep -q 'cannot watch the sandbox: Cannot allocate memory; the run was killed (poll)' <<<"$stderr"
}

@test "a prctl that fails (parent-death signal, subreaper) is a system failure before any sandbox" {
	[ -z "${SC_VALGRIND:-}" ] || skip "valgrind, not the tool, would take the preload"
	# a shim whose prctl fails for the one option named in SHIM_PRCTL
	cat > "$W/shim.c" <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
int prctl(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long a[4];
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	const char *fail = getenv("SHIM_PRCTL");
	if (fail && atoi(fail) == option) {
		errno = EPERM;
		return -1;
	}
	return (int)syscall(SYS_prctl, option, a[0], a[1], a[2], a[3]);
}
C
	cc -shared -fPIC -o "$W/shim.so" "$W/shim.c"
	local what
	for what in "1 cannot follow our parent's death: Operation not permitted (prctl)" \
		"36 cannot become the run's subreaper: Operation not permitted (prctl)"; do
		shimmed_system_failure SHIM_PRCTL="${what%% *}"
		[ "$stderr" = "sc-sandbox-exec: error: ${what#* }" ]
	done
}

@test "the task clock agrees with rusage for the fixture's in-process burn (within the tolerance)" {
	lean_file cpu=0.5
	if ! host_has_task_clock; then
		skip "no perf task clock on this host"
	fi
	sbx 60
	[ "$status" -eq 0 ]
	awk -v c="$(field task_clock_s)" -v r="$(cpu_of "$R/$M.time")" \
		'BEGIN { d = c - r; if (d < 0) d = -d; m = c > r ? c : r; exit !(d <= 0.05 + 0.05 * m) }'
}

@test "attack: git works in a dependency owned by another uid (safe.directory), not without it" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator"
	# Inside, every unmapped owner shows as the overflow uid 65534, which is
	# nobody's own: git notices another owner for any other sandbox uid.
	git -C "$D/pkg" init -q
	git -C "$D/pkg" add Dep.lean
	git -C "$D/pkg" commit -qm dep
	rev=$(git -C "$D/pkg" rev-parse HEAD)
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.time" --timeout 60 --sandbox-user 4242:4242 -- /usr/bin/bash -c 'id -u > .lake/uid
		/usr/bin/git -C .lake/packages/pkg rev-parse --verify HEAD > .lake/with 2>&1
		/usr/bin/env -u GIT_CONFIG_COUNT -u GIT_CONFIG_KEY_0 -u GIT_CONFIG_VALUE_0 \
			/usr/bin/git -C .lake/packages/pkg rev-parse --verify HEAD > .lake/without 2>&1 || true'
	[ "$status" -eq 0 ]
	# the dependency is root's; the sandbox is not
	[ "$(stat -c %u "$D/pkg")" -eq 0 ]
	[ "$(cat "$T/.lake/uid")" -eq 4242 ]
	[ "$(cat "$T/.lake/with")" = "$rev" ]
	grep -q 'dubious ownership' "$T/.lake/without"
}

@test "as root, a uid of the run's own has the tree's .lake for the run only: runs on one tree each write it, after each it is the tree owner's, no link followed" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator"
	# the operator's tree (not root's), with a .lake of root's from an
	# earlier build, the dependencies' mount point in it, and a planted link
	chown 4321:4322 "$T"
	mkdir -p "$T/.lake/packages"
	echo outside > "$W/outside"
	ln -s "$W/outside" "$T/.lake/link"
	cat > "$T/w.py" <<'PY'
import os
os.makedirs("/project/.lake/build/deep", exist_ok=True)
with open("/project/.lake/build/deep/uids", "a") as f:
    f.write("%d\n" % os.getuid())
PY
	for i in 1 2 3; do
		rm -f "$R/$M.time"
		sbx 60 /usr/bin/python3 w.py
		[ "$status" -eq 0 ]
		status_ok 0
		# between runs nothing is a uid of the run's own, links included
		[ -z "$(find "$T/.lake" \( ! -uid 4321 -o ! -gid 4322 \) -printf '%p %u:%g\n')" ]
	done
	[ "$(wc -l < "$T/.lake/build/deep/uids")" -eq 3 ]
	while read -r uid; do
		[ "$uid" -ge 61184 ]
		[ "$uid" -le 65519 ]
	done < "$T/.lake/build/deep/uids"
	[ "$(stat -c %u:%g "$W/outside")" = 0:0 ]
	[ -L "$T/.lake/link" ]
}

@test "sc-sandbox-exec returns only once every process of its PID namespace is gone (timeout)" {
	cat > "$T/stay.py" <<'PY'
import os, signal, time
open("/project/.lake/pidns", "w").write(os.readlink("/proc/self/ns/pid"))
signal.signal(signal.SIGTERM, signal.SIG_IGN)
if os.fork() == 0:
    if os.fork() == 0:
        open("/project/.lake/orphan", "w").write("started")
        while True:
            time.sleep(1)
    os._exit(0)
while True:
    time.sleep(1)
PY
	sbx 1 /usr/bin/python3 stay.py
	# checked at once, no waiting: by PID namespace, on the whole host.  A
	# gone namespace's number is soon another's (a suite beside us): only
	# a process started before now (awk's own start, in clock ticks since
	# boot) can be ours.
	local ns now
	ns=$(cat "$T/.lake/pidns")
	now=$(awk '{ print $22 }' /proc/self/stat)
	live=$(for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/pid" 2>/dev/null)" = "$ns" ] &&
			awk -v now="$now" '$3 != "Z" && $22 <= now { f = 1 } END { exit !f }' "$p/stat" 2>/dev/null &&
			echo "${p#/proc/}"
	done; true)
	[ "$status" -eq 1 ]
	[ "$(field timed_out)" = true ]
	[ -f "$T/.lake/orphan" ]
	[ -n "$ns" ]
	[ -z "$live" ]
}

@test "--sandbox-user and --tmp-size: who runs inside, how big /tmp is; bad values refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator"
	cat > "$T/who.py" <<'PY'
import os
s = os.statvfs("/tmp")
st = os.stat("/tmp")
open("/project/.lake/who.out", "w").write("%d %d %d %o\n" % (os.getuid(), os.getgid(), s.f_blocks * s.f_frsize, st.st_mode & 0o7777))
open("/tmp/x", "w").write("tmp is writable")
PY
	sbx 60 /usr/bin/python3 who.py
	[ "$status" -eq 0 ]
	# by default a uid/gid of the run's own (DynamicUser's range)
	local uid gid rest
	read -r uid gid rest < "$T/.lake/who.out"
	[ "$uid" -ge 61184 ]
	[ "$uid" -le 65519 ]
	[ "$gid" -eq "$uid" ]
	[ "$rest" = "1073741824 1777" ]
	rm "$R/$M.time"
	rm "$T/.lake/who.out"
	chmod -R a+rwX "$T/.lake"
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.time" --timeout 60 --sandbox-user 4242:4243 --tmp-size 64M -- /usr/bin/python3 who.py
	[ "$status" -eq 0 ]
	[ "$(cat "$T/.lake/who.out")" = "4242 4243 67108864 1777" ]
	for bad in root 0:0 1:0 nosuchuser-sc 12 -1:5 1:2:3; do
		run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
			--time-file "$R/bad.time" --timeout 60 --sandbox-user "$bad" -- /usr/bin/true
		[ "$status" -eq 2 ]
		assert_error_line sc-sandbox-exec
		local said=${stderr#sc-sandbox-exec: }
		[[ "$said" == "error: "*" (--sandbox-user $bad)" ]]
		# profile-run and doctor take it with the one check, in the very same words
		profile_run_says "$said" --sandbox-user "$bad"
		run --separate-stderr sphereceti doctor --sandbox-user "$bad"
		[ "$status" -eq 2 ]
		[ "${stderr#sc-doctor: }" = "$said" ]
	done
	for bad in 0 1K 12X '' 99999999999G; do
		run --separate-stderr sc-sandbox-exec --self-test --tmp-size "$bad"
		[ "$status" -eq 2 ]
		assert_error_line sc-sandbox-exec
		local words=${stderr#sc-sandbox-exec: }
		[[ "$words" == "error: the size of the sandbox's /tmp wants "*" (--tmp-size $bad)" ]]
		# profile-run checks it up front, in the very same words
		profile_run_says "$words" --tmp-size "$bad"
	done
	[ ! -e "$R/bad.time" ]
}

@test "--self-test fails with one clear line when nested user namespaces are allowed" {
	# a bubblewrap that drops --disable-userns and the seccomp filter (which
	# refuses new namespaces too) from what it is given
	cat > "$W/bwrap" <<'SH'
#!/usr/bin/bash
args=()
while [ $# -gt 0 ]; do
	if [ "$1" = --seccomp ]; then shift 2; continue; fi
	[ "$1" = --disable-userns ] || args+=("$1")
	shift
done
exec /usr/bin/bwrap "${args[@]}"
SH
	chmod 755 "$W/bwrap"
	run --separate-stderr sc-sandbox-exec --self-test --bwrap "$W/bwrap"
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"a nested user namespace can be created"* ]]
}

@test "each layer closes descriptors: GNU time gets none of the operator's, bwrap only 0-2, the report pipe and the filter" {
	echo 'host secret' > "$W/secret"
	# bwrap as the host step starts it: a wrapper that lists its descriptors
	mkdir -m 0777 "$W/seen"
	cat > "$W/bwrap" <<PY
#!/usr/bin/python3
import os, sys
names = os.listdir("/proc/self/fd")
fds = [(n, os.readlink("/proc/self/fd/" + n)) for n in names if os.path.exists("/proc/self/fd/" + n)]
with open("$W/seen/bwrap-fds", "w") as f:
    for n, t in fds:
        if not t.startswith("/proc/"):
            f.write("%s %s\n" % (n, t))
os.execv("/usr/bin/bwrap", ["bwrap"] + sys.argv[1:])
PY
	chmod 755 "$W/bwrap"
	sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" --bwrap "$W/bwrap" \
		--time-file "$R/$M.time" --timeout 60 -- /usr/bin/python3 -c '
import time
open("/project/.lake/ready", "w").write("x")
time.sleep(60)' 7<"$W/secret" > /dev/null 2>&1 &
	local exe=$! i tpid=
	wait_for 30 test -e "$T/.lake/ready"
	[ -e "$T/.lake/ready" ]
	tpid=$(pgrep -P "$exe" -x time)
	gnu_time_fds=$(for f in /proc/"$tpid"/fd/*; do readlink "$f"; done)
	kill -TERM "$exe"
	wait "$exe" || true
	echo "$gnu_time_fds"
	cat "$W/seen/bwrap-fds"
	# GNU time: its own -o file, 0-2, the report pipe, the seccomp filter;
	# not the operator's secret
	run ! grep -F "$W/secret" <<< "$gnu_time_fds"
	[ "$(grep -c . <<< "$gnu_time_fds")" -eq 6 ]
	# bwrap: 0-2, the report pipe and the filter, not GNU time's -o file
	[ "$(wc -l < "$W/seen/bwrap-fds")" -eq 5 ]
	grep -q ' /memfd:sc-seccomp' "$W/seen/bwrap-fds"
	run ! grep -F "$R/" "$W/seen/bwrap-fds"
}

@test "a descriptor that reaches bwrap anyway is closed by sc-pid1 before the command" {
	echo 'host secret' > "$W/secret"
	chmod 644 "$W/secret"
	cat > "$W/bwrap" <<SH
#!/usr/bin/bash
exec 9<"$W/secret"
exec /usr/bin/bwrap "\$@"
SH
	chmod 755 "$W/bwrap"
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" --bwrap "$W/bwrap" \
		--time-file "$R/$M.time" --timeout 60 -- /usr/bin/bash -c 'cat <&9 > .lake/leak; ls /proc/self/fd > .lake/fds'
	[ "$status" -eq 0 ]
	[ ! -s "$T/.lake/leak" ]
	run ! grep -x 9 "$T/.lake/fds"
}

@test "a folder the sandbox user cannot reach is named before bwrap starts" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator"
	mkdir -m 0700 "$W/private"
	mkdir -m 0777 "$W/private/tree"
	run --separate-stderr sc-sandbox-exec --tree "$W/private/tree" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.time" --timeout 60 -- /usr/bin/true
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"cannot search $W/private "*"(--tree)" ]]
	[ ! -e "$R/$M.time" ]
	run --separate-stderr env TMPDIR="$W/private" sc-sandbox-exec --self-test
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"cannot search $W/private "* ]]
}

# ---- --log (profile-run --keep-logs) ----

@test "--log FILE: the command's stdout and stderr reach the host, bounded (2 MiB together); the rest is read and dropped, the writer never blocks" {
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.time" --timeout 60 --log "$R/$M.log" -- /usr/bin/python3 -c '
import os, sys
sys.stdout.write("to-stdout\n"); sys.stdout.flush()
sys.stderr.write("to-stderr\n"); sys.stderr.flush()
os.write(1, b"x" * (3 << 20))
print(os.readlink("/proc/self/fd/0"), file=sys.stderr)'
	status_ok 0
	[ "$stderr" = "" ]
	grep -q '^to-stdout$' "$R/$M.log"
	grep -q '^to-stderr$' "$R/$M.log"
	size=$(stat -c %s "$R/$M.log")
	[ "$size" -le $(( (2 << 20) + 200 )) ]
	[ "$size" -ge $(( 2 << 20 )) ]
	grep -q 'sc-sandbox-exec: .* more bytes of output dropped' "$R/$M.log"
}

@test "--log: stdin stays /dev/null (the default, without --log, is tested above: 0-2 on /dev/null)" {
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.2.time" --timeout 60 --log "$R/$M.log" -- /usr/bin/bash -c 'readlink /proc/self/fd/0; echo shown'
	status_ok 0
	[ "$(cat "$R/$M.log")" = "$(printf '/dev/null\nshown')" ]
}

@test "--log: a log that exists or lies inside a sandbox mount is refused before anything runs" {
	touch "$R/$M.log"
	sbx_log() { run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$M.time" --timeout 60 --log "$1" -- true; }
	sbx_log "$R/$M.log"
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"the log already exists"* ]]
	sbx_log "$T/out.log"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the log lies inside --tree"* ]]
	[ ! -e "$R/$M.time" ]
}

# ---- exit codes, --help ----

@test "a status line that cannot be written (stdout on /dev/full) is a system failure: exit 3, one line" {
	run --separate-stderr bash -c '"$@" > /dev/full' - sc-sandbox-exec --tree "$T" --toolchain "$TC" \
		--dependencies "$D" --time-file "$R/$M.time" --timeout 60 -- /usr/bin/true
	[ "$status" -eq 3 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"cannot write the status line: no space left on device (stdout)"* ]]
	run --separate-stderr bash -c '"$@" > /dev/full' - sc-sandbox-exec --self-test
	[ "$status" -eq 3 ]
	assert_error_line sc-sandbox-exec
}

@test "--check-bwrap takes the two arguments right after it; --help lists every option" {
	sha=$(sha256sum "$(readlink -f /usr/bin/bwrap)" | cut -d' ' -f1)
	ver=$(bwrap --version | sed 's/^bubblewrap //')
	run --separate-stderr sc-sandbox-exec --check-bwrap "$sha" --bwrap /usr/bin/bwrap "$ver"
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	run --separate-stderr sc-sandbox-exec --check-bwrap "$sha" "$ver" extra
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	run --separate-stderr sc-sandbox-exec --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: sc-sandbox-exec "* ]]
	for o in tree toolchain dependencies time-file timeout log sandbox-user tmp-size bwrap self-test check-bwrap version; do
		[[ "$output" == *"--$o"* ]] || { echo "--help lacks --$o"; false; }
	done
	run --separate-stderr sc-sandbox-exec --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^sc-sandbox-exec\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "every option of a run is required, and each one missing is named" {
	run --separate-stderr sc-sandbox-exec --tree "$T" --dependencies "$D" -- /usr/bin/true
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[ "$stderr" = "sc-sandbox-exec: error: missing required options (--toolchain, --time-file, --timeout)" ]
}

@test "a file or elan's folder as --toolchain is named, with what to pass instead" {
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC/bin/lean" --dependencies "$D" \
		--time-file "$R/x.time" --timeout 5 -- true
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"the toolchain is a file, not a toolchain folder; pass the folder of an unpacked Lean release"*"'lean --print-prefix' prints"* ]]
	local e=$BATS_TEST_TMPDIR/elan
	mkdir -p "$e/bin" "$e/toolchains"
	printf '#!/bin/sh\nexit 1\n' >"$e/bin/elan"
	chmod +x "$e/bin/elan"
	ln "$e/bin/elan" "$e/bin/lean"
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$e" --dependencies "$D" \
		--time-file "$R/x.time" --timeout 5 -- true
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"the toolchain is elan's folder, whose bin/lean is elan's proxy, not a toolchain; "*"'elan toolchain install \$(cat lean-toolchain)'"* ]]
	[ ! -e "$R/x.time" ]
}
