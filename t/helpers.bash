# Shared bats helpers.  SC_BIN (the build folder) and SC_FIXTURE (the fixture
# build folder) come from the Makefile.
#
# How tests stay fast (make check runs files and their tests side by side,
# bats --jobs; t/README):
# - Build what every test of a file needs once, in setup_file, and copy it
#   per test: a file whose tests use project_base has
#   `setup_file() { project_template; }` (t/lib/project.bash), and setup's
#   project_base copies the repositories (cp -a) instead of running git and
#   lake again.  Never build repositories per test when a copy will do.
# - A test writes only under $BATS_TEST_TMPDIR (setup_file under
#   $BATS_FILE_TMPDIR): no fixed /tmp names, ports (bind port 0), or shared
#   files; processes are found by this test's own names or ancestry
#   (t/lib/runprocs.py), never by a global name.  A file whose tests cannot
#   run beside each other sets BATS_NO_PARALLELIZE_WITHIN_FILE=true (and says
#   why, as t/packaging.bats does).
# - Read JSON fields with jq (`field KEY` below), not a python3 per field.
: "${SC_BIN:?run the suite through make check}"
export PATH="$SC_BIN:$PATH"
export GIT_AUTHOR_NAME=Test GIT_AUTHOR_EMAIL=test@example.invalid
export GIT_COMMITTER_NAME=Test GIT_COMMITTER_EMAIL=test@example.invalid
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
export GIT_CONFIG_NOSYSTEM=1 HOME="${BATS_TEST_TMPDIR:-${BATS_FILE_TMPDIR:-/tmp}}/home"
mkdir -p "$HOME"
# A command substitution stops at its first failing command, as the test
# body does (set -e), instead of yielding what its last command printed:
# x=$(git commit ...; git rev-parse HEAD) fails with the commit.
shopt -s inherit_errexit
# shellcheck source=lib/wait.bash
. "$BATS_TEST_DIRNAME/lib/wait.bash"

# assert_error_line TOOL: the command failed with exactly one
# "TOOL: error: ..." line on stderr (bats `run` merges streams: use
# `run --separate-stderr`).
assert_error_line() {
	local tool=$1
	[ "$status" -ne 0 ] || { echo "expected failure, got status 0"; return 1; }
	local lines
	lines=$(printf '%s\n' "$stderr" | grep -c . || true)
	[ "$lines" -eq 1 ] || { echo "expected one stderr line, got $lines:"; echo "$stderr"; return 1; }
	[[ "$stderr" == "$tool: error: "* ]] || { echo "bad error line: $stderr"; return 1; }
}

# field KEY: a field of the one JSON document in $output (a status or
# sample line), as text: true/false, null, numbers as written.  Fails when
# $output is not exactly one document or has no KEY.  jq, not a python3
# per field: a test reads many fields.
field() {
	jq -rs --arg k "$1" 'if length == 1 and (.[0] | type) == "object" and (.[0] | has($k))
		then .[0][$k] else error("no field \($k) in one JSON document") end' <<<"$output"
}

# Snapshot of everything in a repository that a reader must not change.
repo_state() {
	local gd
	gd=$(git -C "$1" rev-parse --absolute-git-dir)
	(cd "$gd" && find . -type f ! -name 'index.lock' -printf '%p %s %T@\n' | LC_ALL=C sort)
	git -C "$1" for-each-ref
}

# lake_kept: whether a side's .lake outlives profile-run, so that a test can
# read what the candidate wrote there: a root operator's stays (closed, the
# run's uid's); any other operator's is removed after each side
# (Documentation/threat-model.txt "Sealed measurement").  Where it is gone,
# a test checks the verdicts alone.
lake_kept() { [ "$EUID" -eq 0 ]; }

# Run as root, the sandbox runs as `nobody` (sc-sandbox-exec's default
# --sandbox-user): it must be able to reach the test's folders, which bats
# creates 0700.
# One chmod for every folder on the way, parents found with bash's own
# string operations: a dirname and a chmod per level, in every test, were a
# tenth of the suite's process starts.
sandbox_reach() {
	# any other operator's sandbox runs as itself, and may not chmod /tmp
	[ "$EUID" -eq 0 ] || return 0
	local d dirs=()
	for d in "$@"; do
		[[ $d == /* ]] || d=$PWD/$d
		while [ -n "$d" ] && [ "$d" != / ]; do
			dirs+=("$d")
			d=${d%/*}
		done
	done
	[ ${#dirs[@]} -eq 0 ] || chmod o+x -- "${dirs[@]}"
}
# The build folder (sc-pid1) and the fixture toolchain are mounted into every
# sandbox: a checkout under a 0700 folder (/root) gets search permission
# (never read permission) along their paths.  Once per file: bats sources
# this for setup_file, and each test inherits the exported mark.
if [ "$EUID" -eq 0 ] && [ "${SC_TEST_REACHED-}" != "$SC_BIN:${SC_FIXTURE-}" ]; then
	sandbox_reach "$SC_BIN" "${SC_FIXTURE:-$SC_BIN}"
	export SC_TEST_REACHED="$SC_BIN:${SC_FIXTURE-}"
fi

# sandbox_dirs: the folders of one sandboxed run, in the test's own folder:
# TC (fixture toolchain), W (the test folder), T (tree, writable for the
# sandbox user), D (dependencies), R (raw time files).
sandbox_dirs() {
	TC="${SC_FIXTURE:?}/toolchain"
	W="$BATS_TEST_TMPDIR"
	T="$W/tree" D="$W/deps" R="$W/raw"
	mkdir -p "$T" "$D" "$R"
	chmod 0777 "$T"
	sandbox_reach "$D" "$W"
}

# host_has_task_clock: this process may open an inherited perf task clock on
# itself (what sc-sandbox-exec attaches to its wrapper), asked of the kernel
# directly so that a build without the counter cannot skip its own test.
host_has_task_clock() {
	/usr/bin/python3 - <<'PY'
import ctypes, os, platform, struct, sys
nr = {"x86_64": 298, "aarch64": 241}.get(platform.machine())
if nr is None:
    sys.exit(1)
attr = ctypes.create_string_buffer(128)
struct.pack_into("IIQ", attr, 0, 1, 128, 1)  # PERF_TYPE_SOFTWARE, size, PERF_COUNT_SW_TASK_CLOCK
struct.pack_into("Q", attr, 40, (1 << 1) | (1 << 5) | (1 << 6))  # inherit, exclude_kernel, exclude_hv
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.syscall(nr, attr, 0, -1, -1, 8)  # PERF_FLAG_FD_CLOEXEC
sys.exit(0 if fd >= 0 else 1)
PY
}
