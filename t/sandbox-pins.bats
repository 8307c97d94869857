#!/usr/bin/env bats
# Sandbox rules whose effect no other test saw (make check-mutants found them
# surviving): each is pinned where it is visible, with a real program
# (/usr/bin/python3) as the candidate, which answers through its exit code
# (sc-sandbox-exec's status line carries it) or, as a readiness signal, a
# file it creates in the tree.
load helpers
bats_require_minimum_version 1.5.0

setup() { sandbox_dirs; }

# candidate PYTHON-SOURCE [ARG...]: run it sandboxed; the status line in
# $output, the exit code the candidate chose in $code.
candidate() {
	local src=$1
	shift
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/t.time" --timeout 60 -- /usr/bin/python3 -c "$src" "$@"
	echo "status $status, stderr: $stderr, status line: $output"
	code=$(field exit_code)
}

@test "every namespace is the sandbox's own: cgroup, ipc, mnt, net, pid, uts" {
	local ns args=()
	for ns in cgroup ipc mnt net pid uts; do
		args+=("$ns=$(stat -L -c %i "/proc/self/ns/$ns")")
	done
	# exit 0 when each namespace differs from the host's, else 10 + the
	# index of the first shared one
	candidate '
import os, sys
for i, a in enumerate(sys.argv[1:]):
    name, host = a.split("=")
    if os.stat("/proc/self/ns/" + name).st_ino == int(host):
        sys.exit(10 + i)' "${args[@]}"
	[ "$status" -eq 0 ]
	[ "$code" -eq 0 ]
}

@test "GNU time and everything between it and the sandbox start with an empty environment" {
	# The candidate says it is running, then waits for the test to look.
	SC_PIN_SECRET=host-only-value sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/t.time" --timeout 90 -- /usr/bin/python3 -c '
import os, time
open("/project/.lake/ready", "w").close()
t = time.monotonic()
while not os.path.exists("/project/.lake/go") and time.monotonic() - t < 60:
    time.sleep(0.02)' >"$W/status" &
	local exec_pid=$! i
	wait_for 60 test -e "$T/.lake/ready"
	[ -e "$T/.lake/ready" ]
	# sc-sandbox-exec and every process below it in our PID namespace (the
	# sandbox's own namespace is the candidate's): "comm secret-seen
	# environment-bytes" for each
	/usr/bin/python3 - "$exec_pid" >"$W/procs" <<'PY'
import os, sys
own = os.readlink("/proc/self/ns/pid")
kids = {}
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            stat = open("/proc/%s/stat" % p).read()
        except OSError:
            continue
        kids.setdefault(int(stat[stat.rindex(")") + 2:].split()[1]), []).append(int(p))
todo = [int(sys.argv[1])]
while todo:
    p = todo.pop()
    try:
        if os.readlink("/proc/%d/ns/pid" % p) != own:
            continue
        comm = open("/proc/%d/comm" % p).read().strip()
        env = open("/proc/%d/environ" % p, "rb").read()
    except OSError:
        continue
    print(comm, b"SC_PIN_SECRET" in env, len(env))
    todo.extend(kids.get(p, []))
PY
	touch "$T/.lake/go"
	wait "$exec_pid"
	cat "$W/procs"
	# control: sc-sandbox-exec itself had the variable
	grep -q '^sc-sandbox-exec True ' "$W/procs"
	# GNU time and bwrap were seen, each with an empty environment
	grep -qx 'time False 0' "$W/procs"
	grep -qx 'bwrap False 0' "$W/procs"
	run ! grep -v -e "^sc-sandbox-exec " -e ' False 0$' "$W/procs"
	output=$(cat "$W/status")
	[ "$(field exit_code)" -eq 0 ]
}

@test "/proc is masked as runc masks it: read-only and hidden entries are mounts over the sandbox's /proc" {
	# runc's defaults: these read-only, these hidden, each where this
	# kernel has it.  Visible from inside whatever the sandbox user may
	# open: the mounts themselves.
	local p ro=() hidden=()
	for p in /proc/bus /proc/fs /proc/irq /proc/sys /proc/sysrq-trigger; do
		[ ! -e "$p" ] || ro+=("$p")
	done
	for p in /proc/acpi /proc/kcore /proc/keys /proc/timer_list /proc/sched_debug /proc/scsi; do
		[ ! -e "$p" ] || hidden+=("$p")
	done
	[ "${#ro[@]}" -gt 0 ]
	[ "${#hidden[@]}" -gt 0 ]
	# exit 0 when each is a mount point (the read-only ones mounted ro),
	# else 10 + the index of the first that is not
	candidate '
import sys
mounts = {}
for line in open("/proc/self/mountinfo"):
    f = line.split()
    mounts[f[4]] = f[5].split(",")
ro = sys.argv[1].split()
for i, p in enumerate(ro + sys.argv[2].split()):
    if p not in mounts or (p in ro and "ro" not in mounts[p]):
        sys.exit(10 + i)' "${ro[*]}" "${hidden[*]}"
	[ "$status" -eq 0 ]
	[ "$code" -eq 0 ]
}

@test "sc-pid1 reaps an orphan as soon as it exits, while the command still runs" {
	# The command's child X starts Y and exits; Y, orphaned to sc-pid1,
	# exits at once.  Reaped, Y's /proc entry goes; left a zombie (only the
	# command reaped), it stays until the command ends.  Exit 0 when it
	# went within 10 s, 11 if not.
	candidate '
import os, sys, time
r, w = os.pipe()
x = os.fork()
if x == 0:
    y = os.fork()
    if y == 0:
        os._exit(0)
    os.write(w, b"%d" % y)
    os._exit(0)
os.close(w)
y = int(os.read(r, 64))
os.waitpid(x, 0)
t = time.monotonic()
while os.path.exists("/proc/%d" % y):
    if time.monotonic() - t > 10:
        sys.exit(11)
    time.sleep(0.01)'
	[ "$status" -eq 0 ]
	[ "$code" -eq 0 ]
}

@test "sc-pid1 answers --help and --version like every program; a bad call is one error line, exit 2" {
	run --separate-stderr "$SC_BIN/sc-pid1" --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: sc-pid1 REPORT_FD"* ]]
	[ -z "$stderr" ]
	run --separate-stderr "$SC_BIN/sc-pid1" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^sc-pid1\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	run --separate-stderr "$SC_BIN/sc-pid1" --bogus
	[ "$status" -eq 2 ]
	assert_error_line sc-pid1
}

@test "sc-pid1 runs a command only as PID 1 of its own namespace: its kill(-1) never reaches the host" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator to start a process as another uid"
	# A process of an otherwise unused uid stands in for everything else
	# that uid runs on the host; sc-pid1 started outside a PID namespace as
	# that uid must refuse before its command runs (and before any
	# kill(-1, SIGKILL) when the command ends).
	setpriv --reuid=4243 --regid=4243 --clear-groups /usr/bin/sleep 60 &
	local victim=$!
	run --separate-stderr setpriv --reuid=4243 --regid=4243 --clear-groups \
		"$SC_BIN/sc-pid1" 5 -- /usr/bin/touch "$W/ran" 5>"$W/report"
	local alive=0
	if kill -0 "$victim" 2>/dev/null; then alive=1; fi
	kill -KILL "$victim" 2>/dev/null || true
	wait "$victim" || true
	[ "$status" -eq 125 ]
	[ "$alive" -eq 1 ]
	[ ! -e "$W/ran" ]
	grep -qx 'init-failed not PID 1 of its own PID namespace' "$W/report"
}
