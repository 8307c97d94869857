#!/usr/bin/env bats
# Sealed measurement (Documentation/threat-model.txt "Sealed measurement"): no keyring of
# the host, a seccomp deny list, every writable tmpfs bounded, a uid of the
# run's own, RLIMIT_NPROC.  Each attack is a real program (python3, bash,
# setpriv from /usr) against real bwrap.
load helpers
bats_require_minimum_version 1.5.0

setup() {
	[ "$(id -u)" -eq 0 ] || skip "a uid of the run's own needs a root operator"
	sandbox_dirs
	mkdir -p "$D/pkg"
	# readiness signals between the candidate and this test: FIFOs work in
	# a tree the sandbox may only read
	mkfifo -m 0666 "$T/ready" "$T/hold"
	# the dependencies' mount point, made here: runs of different uids share
	# this tree
	mkdir -p "$T/.lake/packages"
}

# sbx_log [OPTION...] -- CMD...: sandboxed run, the command's output in $W/log.
sbx_log() {
	rm -f "$W/log" "$R/t.time"
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/t.time" --timeout 60 --log "$W/log" "$@"
}

# Python lines that print each tmpfs the candidate may write as "tmpfs
# MOUNTPOINT size=... nr_inodes=..." ("unbounded" for a bound it lacks).
WRITABLE_TMPFS='for line in open("/proc/self/mountinfo"):
    f = line.split()
    sep = f.index("-")
    if f[sep + 1] == "tmpfs" and "rw" in f[5].split(","):
        opts = f[sep + 3].split(",")
        bounds = [([o for o in opts if o.startswith(k + "=")] or ["unbounded"])[0] for k in ("size", "nr_inodes")]
        print("tmpfs", f[4], *bounds)'

# A python3 candidate that says "ready" with its uid, then waits for "hold".
WAITER='import os
with open("/project/ready", "w") as f:
    f.write("%d %d\n" % (os.getuid(), os.getgid()))
open("/project/hold").read()'

# start_waiter TREE [OPTION...]: a sandboxed WAITER in the background; sets
# PID (sc-sandbox-exec) and WHO ("uid gid" from inside, once it is up).
start_waiter() {
	local tree=$1
	shift
	sc-sandbox-exec --tree "$tree" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/$RANDOM$RANDOM.time" --timeout 60 "$@" -- /usr/bin/python3 -c "$WAITER" \
		> /dev/null 2>&1 3>&- &
	PID=$!
	WHO=$(timeout 60 cat "$tree/ready")
}

# pid1_of PID: the sandbox's PID 1 (sc-pid1) under sc-sandbox-exec PID:
# sc-sandbox-exec -> GNU time -> bwrap (exec'd by the host step) -> sc-pid1.
pid1_of() {
	local p=$1 i
	for i in 1 2 3; do
		p=$(pgrep -P "$p" | head -n 1)
	done
	echo "$p"
}

in_range() {
	if [ "$1" -lt 61184 ] || [ "$1" -gt 65519 ]; then
		echo "uid $1 is outside 61184-65519" >&2
		return 1
	fi
}

PTRACE='import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pid = int(sys.argv[1])
if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
    os.waitpid(pid, 0x40000000)           # __WALL
    libc.ptrace(17, pid, None, None)      # PTRACE_DETACH
    print("attached")
else:
    print(errno.errorcode[ctypes.get_errno()])'

@test "attack: the operator's session keyring is out of reach; the candidate cannot leave a key there" {
	# The operator's session holds a credential (as after a login with
	# pam_keyinit); the candidate searches the session keyring for it and
	# tries to leave a key of its own.
	cat > "$T/candidate.py" <<'EOF'
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
def err(r): return "found" if r >= 0 else errno.errorcode[ctypes.get_errno()]
print("search", err(libc.syscall(250, 10, -3, b"user", b"sc-operator-secret", 0)))
print("add_key", err(libc.syscall(248, b"user", b"sc-left-behind", b"x", 1, -3)))
EOF
	cat > "$W/operator.py" <<'EOF'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(250, 1, b"sc-operator-session")            # join a session keyring
assert libc.syscall(248, b"user", b"sc-operator-secret", b"hunter2", 7, -3) > 0
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, st = os.waitpid(pid, 0)
left = libc.syscall(250, 10, -3, b"user", b"sc-left-behind", 0)
print("left-behind", "found" if left >= 0 else "none")
sys.exit(os.waitstatus_to_exitcode(st))
EOF
	run --separate-stderr /usr/bin/python3 "$W/operator.py" sc-sandbox-exec --tree "$T" --toolchain "$TC" \
		--dependencies "$D" --time-file "$R/t.time" --timeout 60 --log "$W/log" \
		-- /usr/bin/python3 /project/candidate.py
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "left-behind none" ]
	grep -qx 'search EPERM' "$W/log"
	grep -qx 'add_key EPERM' "$W/log"
}

@test "the host step alone joins a new, empty session keyring (seccomp aside)" {
	# The host step (sc-confine) runs a python3 that looks for the key
	# its parent's session holds: not possessed, and its session keyring is
	# another.
	cat > "$W/operator.py" <<'EOF'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(250, 1, b"sc-operator-session")
assert libc.syscall(248, b"user", b"sc-operator-secret", b"hunter2", 7, -3) > 0
mine = libc.syscall(250, 0, -3, 0)
os.execv(sys.argv[1], sys.argv[1:] + ["/usr/bin/python3", "-c", """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
print("session", "same" if libc.syscall(250, 0, -3, 0) == %d else "new")
print("secret", "found" if libc.syscall(250, 10, -3, b"user", b"sc-operator-secret", 0) >= 0 else "none")
""" % mine])
EOF
	run --separate-stderr /usr/bin/python3 "$W/operator.py" "$SC_BIN/sc-confine" --uid 65534 --gid 65534 --keep-fd 3 -- 3>/dev/null
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "session new" ]
	[ "${lines[1]}" = "secret none" ]
}

@test "kernel-wide pools stay the host's: no pseudo-terminal, legacy AIO denied, no core dump, open files bounded against fs.file-max" {
	cat > "$T/candidate.py" <<'EOF'
import ctypes, errno, os, resource
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ctx = ctypes.c_ulong(0)
r = libc.syscall(206, 1, ctypes.byref(ctx))        # io_setup: an AIO context of the kernel's pool
print("io_setup", "ok" if r == 0 else errno.errorcode[ctypes.get_errno()])
for path in ("/dev/ptmx", "/dev/pts/ptmx"):
    try:
        os.open(path, os.O_RDWR | os.O_NOCTTY)
        print(path, "ok")
    except OSError as e:
        print(path, errno.errorcode[e.errno])
try:
    os.mknod("/dev/pts/x")
    print("pts writable")
except OSError as e:
    print("pts", errno.errorcode[e.errno])
for name in ("CORE", "NOFILE", "NPROC"):
    soft, hard = resource.getrlimit(getattr(resource, "RLIMIT_" + name))
    print(name, hard)
try:
    resource.setrlimit(resource.RLIMIT_CORE, (1 << 20, 1 << 20))
    print("core raised")
except (ValueError, OSError):
    print("core stays 0")
EOF
	sbx_log -- /usr/bin/python3 /project/candidate.py
	cat "$W/log"
	[ "$status" -eq 0 ]
	grep -qx 'io_setup EPERM' "$W/log"
	grep -qx '/dev/ptmx ENOENT' "$W/log"
	grep -qx '/dev/pts/ptmx ENOENT' "$W/log"
	run ! grep -q '^pts writable' "$W/log"
	grep -qx 'CORE 0' "$W/log"
	grep -qx 'core stays 0' "$W/log"
	local nofile nproc filemax
	nofile=$(sed -n 's/^NOFILE //p' "$W/log")
	nproc=$(sed -n 's/^NPROC //p' "$W/log")
	filemax=$(cat /proc/sys/fs/file-max)
	[ "$nproc" -eq 4096 ]
	[ "$nofile" -ge 256 ]
	[ "$nofile" -le 1024 ]
	# every process at its limit holds at most half the table, where the
	# floor allows it
	[ "$nofile" -eq 256 ] || [ $((nofile * nproc)) -le $((filemax / 2)) ]
}

@test "seccomp: the container denials fail with EPERM, clone3 with ENOSYS; i386 and x32 calls kill; ordinary work goes on" {
	cat > "$T/candidate.py" <<'EOF'
import ctypes, errno, mmap, os, signal, subprocess, threading
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(name, nr, *args):
    r = libc.syscall(nr, *args)
    if r == 0 and name == "clone-newuser":
        os._exit(0)                       # the child, had it been made
    print(name, "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()])
print("seccomp", [l.split()[1] for l in open("/proc/self/status") if l.startswith("Seccomp:")][0])
for name, nr, args in [("keyctl", 250, (0, -3, 0)), ("request_key", 249, (b"user", b"x", None, 0)),
                       ("ptrace", 101, (16, 1, 0, 0)), ("mount", 165, (b"none", b"/tmp", b"tmpfs", 0, None)),
                       ("umount2", 166, (b"/tmp", 2)), ("unshare", 272, (0x10000000,)), ("setns", 308, (0, 0)),
                       ("pivot_root", 155, (b"/tmp", b"/tmp")), ("bpf", 321, (0, None, 0)),
                       ("perf_event_open", 298, (None, 0, -1, -1, 0)), ("userfaultfd", 323, (0,)),
                       ("kexec_load", 246, (0, 0, None, 0)), ("init_module", 175, (None, 0, b"")),
                       ("swapon", 167, (b"/tmp/x", 0)), ("syslog", 103, (3, None, 0)),
                       ("open_by_handle_at", 304, (-100, None, 0)), ("clock_settime", 227, (0, None)),
                       ("io_uring_setup", 425, (1, None)), ("personality-rie", 135, (0x0400000,)),
                       ("personality-linux", 135, (0,)), ("clone3", 435, (None, 0)),
                       ("clone-newuser", 56, (0x10000000 | 17, None, None, None, 0))]:
    call(name, nr, *args)
def killed_by(fn):
    pid = os.fork()
    if pid == 0:
        fn()
        os._exit(0)
    _, st = os.waitpid(pid, 0)
    return signal.Signals(os.WTERMSIG(st)).name if os.WIFSIGNALED(st) else "exit %d" % os.WEXITSTATUS(st)
def i386():
    m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    m.write(b"\xb8\x14\x00\x00\x00\xcd\x80\xc3")     # mov eax, 20 (getpid); int 0x80; ret
    ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))()
print("i386", killed_by(i386))
print("x32", killed_by(lambda: libc.syscall(0x40000000 | 39)))
def x32_in_a_thread():
    t = threading.Thread(target=lambda: libc.syscall(0x40000000 | 39))
    t.start()
    t.join(2)   # a killed thread never ends its join: only the process going proves it
    os._exit(0)
print("x32-thread", killed_by(x32_in_a_thread))
t = threading.Thread(target=lambda: None); t.start(); t.join()
print("spawn", subprocess.run(["/usr/bin/true"]).returncode, "fork", killed_by(lambda: None))
EOF
	sbx_log -- /usr/bin/python3 /project/candidate.py
	[ "$status" -eq 0 ]
	grep -qx 'seccomp 2' "$W/log"
	local c
	for c in keyctl request_key ptrace mount umount2 unshare setns pivot_root bpf perf_event_open \
		userfaultfd kexec_load init_module swapon syslog open_by_handle_at clock_settime io_uring_setup \
		personality-rie clone-newuser; do
		grep -qx "$c EPERM" "$W/log"
	done
	grep -qx 'personality-linux ok' "$W/log"
	grep -qx 'clone3 ENOSYS' "$W/log"
	# a kernel without i386 emulation faults on int 0x80 before any filter
	cat > "$W/i386.py" <<'EOF'
import ctypes, mmap, os, signal
pid = os.fork()
if pid == 0:
    m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    m.write(b"\xb8\x14\x00\x00\x00\xcd\x80\xc3")
    ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))()
    os._exit(0)
_, st = os.waitpid(pid, 0)
print(signal.Signals(os.WTERMSIG(st)).name if os.WIFSIGNALED(st) else "exit 0")
EOF
	if [ "$(/usr/bin/python3 "$W/i386.py")" = SIGSEGV ]; then
		grep -qx 'i386 SIGSEGV' "$W/log"
	else
		grep -qx 'i386 SIGSYS' "$W/log"
	fi
	grep -qx 'x32 SIGSYS' "$W/log"
	# the whole process, not only the calling thread (SCMP_ACT_KILL_PROCESS)
	grep -qx 'x32-thread SIGSYS' "$W/log"
	grep -qx 'spawn 0 fork exit 0' "$W/log"
}

@test "each layer refuses a nested user namespace on its own: --disable-userns without seccomp, seccomp without it" {
	# a bubblewrap that drops the named option (and its value) from its argv
	local drop
	for drop in seccomp disable-userns; do
		cat > "$W/bwrap-$drop" <<EOF
#!/bin/bash
args=()
while [ \$# -gt 0 ]; do
	case \$1 in
	--seccomp) [ $drop = seccomp ] && shift 2 && continue ;;
	--disable-userns) [ $drop = disable-userns ] && shift && continue ;;
	esac
	args+=("\$1"); shift
done
exec /usr/bin/bwrap "\${args[@]}"
EOF
		chmod 0755 "$W/bwrap-$drop"
	done
	local py='import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
print("unshare", "ok" if libc.unshare(0x10000000) == 0 else errno.errorcode[ctypes.get_errno()])'
	sbx_log --bwrap "$W/bwrap-seccomp" -- /usr/bin/python3 -c "$py"
	[ "$status" -eq 0 ]
	grep -qx 'unshare ENOSPC' "$W/log"
	sbx_log --bwrap "$W/bwrap-disable-userns" -- /usr/bin/python3 -c "$py"
	[ "$status" -eq 0 ]
	grep -qx 'unshare EPERM' "$W/log"
}

@test "the self-test fails with one clear line without the seccomp filter" {
	cat > "$W/bwrap" <<'EOF'
#!/bin/bash
args=()
while [ $# -gt 0 ]; do
	if [ "$1" = --seccomp ]; then shift 2; continue; fi
	args+=("$1"); shift
done
exec /usr/bin/bwrap "${args[@]}"
EOF
	chmod 0755 "$W/bwrap"
	run --separate-stderr sc-sandbox-exec --self-test --bwrap "$W/bwrap"
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"no seccomp filter is active"* ]]
}

@test "attack: memory outside /tmp: writing past --tmp-size fails in /tmp and /dev/shm; / and /dev are read-only; no writable tmpfs is unbounded" {
	cat > "$T/candidate.py" <<'EOF'
import errno, os
def fill(path, size):
    try:
        with open(path, "wb") as f:
            for _ in range(size // 65536):
                f.write(b"x" * 65536)
            f.flush()
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
for p in ["/tmp/fill", "/dev/shm/fill", "/fill", "/dev/fill"]:
    print(p, fill(p, 4 << 20))
EOF
	echo "$WRITABLE_TMPFS" >> "$T/candidate.py"
	sbx_log --tmp-size 2M -- /usr/bin/python3 /project/candidate.py
	[ "$status" -eq 0 ]
	grep -qx '/tmp/fill ENOSPC' "$W/log"
	grep -qx '/dev/shm/fill ENOSPC' "$W/log"
	grep -qx '/fill EROFS' "$W/log"
	grep -qx '/dev/fill EROFS' "$W/log"
	# every writable tmpfs is one of the two, each bounded by --tmp-size
	[ "$(grep -c '^tmpfs ' "$W/log")" -eq 2 ]
	grep -qx 'tmpfs /tmp size=2048k nr_inodes=1024' "$W/log"
	grep -qx 'tmpfs /dev/shm size=2048k nr_inodes=1024' "$W/log"
}

@test "attack: inodes in /tmp and /dev/shm: empty files stop at the inode bound (ENOSPC) with bytes to spare" {
	cat > "$T/candidate.py" <<'EOF'
import errno, os
def files(d, n):
    os.makedirs(d, exist_ok=True)
    for i in range(n):
        try:
            os.close(os.open("%s/%d" % (d, i), os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError as e:
            return "%s %s" % (errno.errorcode[e.errno], "few" if i <= 2048 else "many")
    return "ok"
print("/tmp", files("/tmp/f", 200000))
print("/dev/shm", files("/dev/shm/f", 200000))
EOF
	echo "$WRITABLE_TMPFS" >> "$T/candidate.py"
	sbx_log --tmp-size 2M -- /usr/bin/python3 /project/candidate.py
	[ "$status" -eq 0 ]
	grep -qx '/tmp ENOSPC few' "$W/log"
	grep -qx '/dev/shm ENOSPC few' "$W/log"
	grep -qx 'tmpfs /tmp size=2048k nr_inodes=1024' "$W/log"
	grep -qx 'tmpfs /dev/shm size=2048k nr_inodes=1024' "$W/log"
}

@test "a uid of the run's own: two concurrent runs get two uids of 61184-65519, no user's or group's" {
	local t2=$W/tree2
	mkdir -p "$t2/.lake/packages"
	chmod 0777 "$t2"
	mkfifo -m 0666 "$t2/ready" "$t2/hold"
	start_waiter "$T"
	local a=$PID who_a=$WHO
	start_waiter "$t2"
	local b=$PID who_b=$WHO
	# both are up now, each waiting for its hold
	echo go > "$T/hold"
	echo go > "$t2/hold"
	wait "$a"
	wait "$b"
	local ua ga ub gb
	read -r ua ga <<< "$who_a"
	read -r ub gb <<< "$who_b"
	[ "$ua" -ne "$ub" ]
	in_range "$ua"
	in_range "$ub"
	[ "$ga" -eq "$ua" ]
	[ "$gb" -eq "$ub" ]
	run ! getent passwd "$ua"
	run ! getent group "$ub"
}

@test "attack: a process of the old shared uid (nobody) cannot ptrace a run's PID 1; against --sandbox-user nobody it could" {
	# A setuid leftover of an earlier run gives a local user that run's uid;
	# with one uid for every run (nobody, also many daemons'), it owns each
	# later sandbox's user namespace, and with it PTRACE_ATTACH to PID 1.
	start_waiter "$T"
	local pid1
	pid1=$(pid1_of "$PID")
	run setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c "$PTRACE" "$pid1"
	echo go > "$T/hold"
	wait "$PID"
	[ "$output" = EPERM ]
	in_range "${WHO%% *}"
	# the same attack against a sandbox of the shared uid: the harness is real
	start_waiter "$T" --sandbox-user 65534:65534
	pid1=$(pid1_of "$PID")
	run setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c "$PTRACE" "$pid1"
	echo go > "$T/hold"
	wait "$PID"
	[ "$output" = attached ]
}

@test "--max-procs: a capped fork bomb stops at the bound (EAGAIN) while the host stays responsive" {
	cat > "$T/bomb.py" <<'EOF'
import errno, os
r, w = os.pipe()
n, why = 0, "none"
for _ in range(2000):
    try:
        pid = os.fork()
    except OSError as e:
        why = errno.errorcode[e.errno]
        break
    if pid == 0:
        os.close(w)
        os.read(r, 1)
        os._exit(0)
    n += 1
with open("/project/ready", "w") as f:
    f.write("%d %s\n" % (n, why))
open("/project/hold").read()
os.close(w)
for _ in range(n):
    os.wait()
EOF
	sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" --time-file "$R/t.time" \
		--timeout 60 --max-procs 32 -- /usr/bin/python3 /project/bomb.py > "$W/status" 3>&- &
	local pid=$!
	local n why
	read -r n why < <(timeout 60 cat "$T/ready")
	# the bomb holds its processes: the host still forks and runs programs
	run timeout 20 bash -c 'for i in $(seq 20); do /usr/bin/true; done; echo fine'
	echo go > "$T/hold"
	wait "$pid"
	[ "$output" = fine ]
	[ "$why" = EAGAIN ]
	# 32 for the sandbox user: bwrap, sc-pid1, python3 and its children
	[ "$n" -le 29 ]
	[ "$n" -ge 20 ]
	grep -q '"exit_code":0' "$W/status"
}

@test "--max-procs: bad values refused with one line, the same words from sc-sandbox-exec and profile-run" {
	local v
	for v in 0 7 x 4194305; do
		run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
			--time-file "$R/t.time" --timeout 60 --max-procs "$v" -- /usr/bin/true
		[ "$status" -eq 2 ]
		assert_error_line sc-sandbox-exec
		[[ "$stderr" == *": error: the sandbox's process bound wants a count from 8 to 4194304 (--max-procs $v)" ]]
		local words=${stderr#sc-sandbox-exec: }
		run --separate-stderr sphereceti profile-run --repo "$W" --tooling x --base x --head x \
			--workspace "$W/ws" --toolchain "$TC" --dependencies "$D" --max-procs "$v"
		[ "$status" -eq 2 ]
		assert_error_line sc-profile-run
		[ "${stderr#sc-profile-run: }" = "$words" ]
	done
}
