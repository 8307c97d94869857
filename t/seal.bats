#!/usr/bin/env bats
# Sealed measurement: candidate code, run as real python3/bash
# programs of the candidate's tree through the fixture's hooks (build-run
# during the prebuild, run/run-first during the sample), cannot change what
# is measured, and nothing it makes outlives the run.

bats_require_minimum_version 1.5.0
load helpers
load lib/project

setup() {
	project_base
}

# script PATH LINES...: an executable program of the candidate's tree.
script() {
	local p=$1
	shift
	printf '%s\n' "$@" >"$R/$p"
	chmod 755 "$R/$p"
}

# attempt_py WHAT CODE: python3 lines that try CODE and log "WHAT ok" or
# "WHAT <exception class>" to .lake/attack (the one writable folder).
attempt_py() {
	printf '%s\n' '#!/usr/bin/python3' 'import os, shutil' 'try:' "$2" \
		"    r = 'ok'" 'except OSError as e:' '    r = e.__class__.__name__' \
		"open('.lake/attack', 'a').write('$1 ' + r + '\\n')"
}

# evil_in_prebuild DIRECTIVE: the head's Demo/Helper.lean runs $R/evil.py
# while the prebuild builds it (Demo/Basic.lean's cone); Demo/Basic.lean
# imports it with the fixture DIRECTIVE; the head committed.
evil_in_prebuild() {
	chmod 755 "$R/evil.py"
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-run=./evil.py'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper' "-- fixture: $1"
	head_commit
}

@test "attack: a prebuild that deletes leanOptions from lakefile.toml: the option still applies, the flag stays" {
	printf 'leanOptions = { heavyLint = true }\n' | cat - "$R/lakefile.toml" >"$R/lf" && mv "$R/lf" "$R/lakefile.toml"
	M=$(ex_commit "$R" "a costly linter on")
	T=$M B=$M
	candidate
	attempt_py lakefile.toml '    s = open("lakefile.toml").read()
    open("lakefile.toml", "w").write("".join(l for l in s.splitlines(True) if not l.startswith("leanOptions")))' >"$R/evil.py"
	evil_in_prebuild 'option-cpu=heavyLint:2.0'
	profile --threshold-delta 1
	echo "$stderr"
	if lake_kept; then cat "$WS/head/.lake/attack"; fi
	[ "$status" -eq 0 ]
	[ "$(file_field Demo/Basic.lean .flagged)" = true ]
	cmp "$WS/head/lakefile.toml" "$R/lakefile.toml"
	if lake_kept; then grep -qxE 'lakefile.toml (PermissionError|OSError)' "$WS/head/.lake/attack"; fi
}

@test "attack: a prebuild that points lake-manifest.json's packagesDir at its own copy changes nothing" {
	candidate
	attempt_py manifest '    shutil.copytree(".lake/packages/tinylib", ".lake/evil/tinylib", symlinks=True)
    s = open("lake-manifest.json").read()
    open("lake-manifest.json", "w").write(s.replace(".lake/packages", ".lake/evil"))' >"$R/evil.py"
	evil_in_prebuild 'cpu=0.06'
	profile
	echo "$stderr"
	if lake_kept; then cat "$WS/head/.lake/attack"; fi
	[ "$status" -eq 0 ]
	cmp "$WS/head/lake-manifest.json" <(git -C "$R" show "$H:lake-manifest.json")
	if lake_kept; then grep -qxE 'manifest (PermissionError|OSError)' "$WS/head/.lake/attack"; fi
	[ "$(file_field Demo/Basic.lean '.head.error // empty')" = "" ]
}

@test "attack: a prebuild that writes .lake/package-overrides.json (Lake would take a dependency from it): the side's samples are source_changed" {
	candidate
	attempt_py overrides '    shutil.copytree(".lake/packages/tinylib", ".lake/evil/tinylib", symlinks=True)
    open(".lake/package-overrides.json", "w").write("{\"version\": \"1.1.0\", \"packages\": [{\"type\": \"path\", \"name\": \"tinylib\", \"dir\": \".lake/evil/tinylib\", \"inherited\": false}]}\n")' >"$R/evil.py"
	evil_in_prebuild 'cpu=0.06'
	profile
	echo "$stderr"
	if lake_kept; then cat "$WS/head/.lake/attack"; fi
	[ "$status" -eq 1 ]
	if lake_kept; then grep -qx 'overrides ok' "$WS/head/.lake/attack"; fi
	[ "$(file_field Demo/Basic.lean .head.error)" = source_changed ]
	file_field Demo/Basic.lean .head.detail | grep -q 'package-overrides.json appeared'
	[ "$(file_field Demo/Basic.lean '.base.error // empty')" = "" ]
}

@test "attack: code that swaps the selected source before Lean reads it, and puts it back, cannot: the file measured as planned" {
	candidate
	# swap for a cheap file, restore it from a child once lean has read it
	attempt_py swap '    heavy = open("Demo/Ring.lean").read()
    open("Demo/Ring.lean", "w").write("-- fixture: cpu=0\n")
    if os.fork() == 0:
        import time; time.sleep(0.5); open("Demo/Ring.lean", "w").write(heavy); os._exit(0)' >"$R/swap.py"
	chmod 755 "$R/swap.py"
	ex_lean "$R" Demo/Ring.lean '-- fixture: run-first=./swap.py cpu=1.2'
	head_commit
	profile --threshold-delta 1
	echo "$stderr"
	if lake_kept; then cat "$WS/head/.lake/attack"; fi
	[ "$status" -eq 0 ]
	jq -e '.files[] | select(.path == "Demo/Ring.lean") | .head.cpu_s >= 1.1' "$WS/report.json"
	[ "$(file_field Demo/Ring.lean .flagged)" = true ]
	if lake_kept; then grep -qxE 'swap (PermissionError|OSError)' "$WS/head/.lake/attack"; fi
}

@test "the source is checked after its sample too: a change while it runs is source_changed" {
	candidate
	waiting_script
	ex_lean "$R" Demo/Ring.lean '-- fixture: run=./wait.py cpu=0.05'
	head_commit
	change_during_sample Demo/Ring.lean
	[ "$rc" -eq 1 ]
	[ "$(file_field Demo/Ring.lean .head.error)" = source_changed ]
	grep -q 'after its sample' "$WS/samples.jsonl"
	grep -q 'head Demo/Ring.lean: not measured (source changed after its sample' "$BATS_TEST_TMPDIR/err"
}

@test "attack: sc-sandbox-exec alone leaves no setuid or setgid file, deep or not, and follows no link" {
	sandbox_dirs
	echo 'leanprover/lean4:v4.34.0-rc1' >"$T/lean-toolchain"
	# a setuid file of the operator's outside, which a link from inside names
	cp /usr/bin/true "$W/outside"
	chmod 4755 "$W/outside"
	cat >"$T/setid.py" <<PY
import os, shutil
def make(p, mode):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    shutil.copy("/usr/bin/true", p); os.chmod(p, mode)
make(".lake/suid", 0o4755)
make(".lake/sgid", 0o2755)
make(".lake/" + "/".join(["d"] * 40) + "/deep", 0o6755)
os.symlink("$W/outside", ".lake/link")
os.makedirs(".lake/sdir"); os.chmod(".lake/sdir", 0o2775)
open(".lake/made", "w").close()
PY
	run --separate-stderr sc-sandbox-exec --tree "$T" --toolchain "$TC" --dependencies "$D" \
		--time-file "$R/t.time" --timeout 60 -- /usr/bin/python3 /project/setid.py
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ -e "$T/.lake/made" ]
	[ -e "$T/.lake/$(printf 'd/%.0s' {1..40})deep" ]
	[ "$(find "$T" -perm /6000 | wc -l)" -eq 0 ]
	[ -L "$T/.lake/link" ]
	[ "$(stat -c %a:%u "$W/outside")" = "4755:$(id -u)" ]
}

@test "attack: beyond the walk's depth bound a folder is closed; .lake is the run's own uid's and closed after profile-run, never the operator's" {
	[ "$(id -u)" -eq 0 ] || skip "as another operator .lake is removed (the non-root test below)"
	candidate
	script deep.py '#!/usr/bin/python3' 'import os, shutil' \
		'p = ".lake/" + "/".join(["d"] * 80)' 'os.makedirs(p)' \
		'shutil.copy("/usr/bin/true", p + "/x"); os.chmod(p + "/x", 0o4755)'
	ex_lean "$R" Demo/Ring.lean '-- fixture: run=./deep.py cpu=0.05'
	head_commit
	profile
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(find "$WS/head" -maxdepth 66 -perm /6000 | wc -l)" -eq 0 ]
	local closed uid
	closed=$(find "$WS/head/.lake" -mindepth 1 -type d -perm 000 | head -1)
	[ -n "$closed" ]
	uid=$(jqr .environment.sandbox_user | cut -d: -f1)
	[ "$(stat -c %u:%a "$WS/head/.lake")" = "$uid:0" ]
	[ "$uid" -ne 0 ]
	run ! setpriv --reuid=65534 --regid=65534 --clear-groups ls "$closed"
	# the sources are the operator's; nothing below .lake is
	[ "$(find "$WS/base" "$WS/head" -path '*/.lake' -prune -o ! -uid 0 -print | wc -l)" -eq 0 ]
	[ "$(find "$WS/head/.lake" -uid 0 | wc -l)" -eq 0 ]
}

@test "attack: a repository with a core.fsmonitor hook left in .lake never becomes root's: git as root there refuses it" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator"
	candidate
	script plant.sh '#!/usr/bin/bash' 'set -e' 'git init -q .lake/trap' \
		"printf '#!/usr/bin/bash\\ntouch /project/.lake/pwned\\n' > .lake/trap/hook" 'chmod 755 .lake/trap/hook' \
		'git -C .lake/trap config core.fsmonitor "$PWD/.lake/trap/hook"'
	ex_lean "$R" Demo/Ring.lean '-- fixture: run=./plant.sh cpu=0.05'
	head_commit
	profile
	echo "$stderr"
	[ "$status" -eq 0 ]
	local trap=$WS/head/.lake/trap
	[ -d "$trap/.git" ]
	[ "$(stat -c %u "$trap")" -ne 0 ]
	# the operator runs git status there, as root, with no safe.directory
	run env -u GIT_CONFIG_GLOBAL HOME="$BATS_TEST_TMPDIR/roothome" git -C "$trap" status
	[ "$status" -ne 0 ]
	[[ "$output" == *"dubious ownership"* ]]
	[ ! -e "$WS/head/.lake/pwned" ]
}

@test "attack: a non-root operator's run removes .lake, closed folders and setuid files and all; the workspace can be deleted" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to become another user"
	candidate
	script closed.py '#!/usr/bin/python3' 'import os, shutil' \
		'for i in range(40):' '    d = ".lake/c%d" % i' '    os.makedirs(d + "/inner")' \
		'    shutil.copy("/usr/bin/true", d + "/inner/x"); os.chmod(d + "/inner/x", 0o4755)' \
		'    os.chmod(d + "/inner", 0); os.chmod(d, 0)' \
		'p = ".lake/" + "/".join(["d"] * 150)' 'os.makedirs(p)' 'os.chmod(".lake/d", 0)'
	ex_lean "$R" Demo/Ring.lean '-- fixture: run=./closed.py cpu=0.05'
	head_commit
	local home=$BATS_TEST_TMPDIR/nobody
	profile_as_nobody --workspace "$home/ws"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ -f "$home/ws/report.json" ]
	[ ! -e "$home/ws/head/.lake" ]
	[ ! -e "$home/ws/base/.lake" ]
	[ -f "$home/ws/head/Demo/Ring.lean" ]
	run setpriv --reuid=65534 --regid=65534 --clear-groups rm -rf "$home/ws"
	[ "$status" -eq 0 ]
	[ ! -e "$home/ws" ]
}

@test "attack: an added module that memoises its work in .lake while an importer's prebuild elaborates it is measured at its real cost (flagged)" {
	candidate
	# its #eval: 1.5 s of work, skipped when the memo is there
	script memo.py '#!/usr/bin/python3' 'import os, time' \
		'if os.path.exists(".lake/memo"): raise SystemExit(0)' \
		't = time.process_time()' 'while time.process_time() - t < 1.5: pass' \
		'open(".lake/memo", "w").close()'
	ex_lean "$R" Demo/Field.lean '-- fixture: build-run=./memo.py run=./memo.py cpu=0.01'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Field' '-- fixture: cpu=0.05'
	head_commit
	profile --threshold-added 1 --threshold-delta 1
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(file_field Demo/Field.lean .flagged)" = true ]
	jq -e '.files[] | select(.path == "Demo/Field.lean") | .head.cpu_s >= 1.4' "$WS/report.json"
	# Field's layer first: its sample ran before anything built it
	grep -q 'head prebuild, layer 1 of 2 (1 module)' <<<"$stderr"
	grep -q 'head prebuild, layer 2 of 2 (1 module)' <<<"$stderr"
	# the base side has no Field: one layer, as a plain pull request has
	grep -q 'base prebuild (1 module)' <<<"$stderr"
}

@test "attack: the memo again, the import spelt import«Demo».Field (Lean ends the keyword at «): still ordered, still flagged" {
	candidate
	script memo.py '#!/usr/bin/python3' 'import os, time' \
		'if os.path.exists(".lake/memo"): raise SystemExit(0)' \
		't = time.process_time()' 'while time.process_time() - t < 1.5: pass' \
		'open(".lake/memo", "w").close()'
	ex_lean "$R" Demo/Field.lean '-- fixture: build-run=./memo.py run=./memo.py cpu=0.01'
	ex_lean "$R" Demo/Basic.lean $'import\xc2\xabDemo\xc2\xbb.Field' '-- fixture: cpu=0.05'
	head_commit
	profile --threshold-added 1 --threshold-delta 1
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(file_field Demo/Field.lean .flagged)" = true ]
	jq -e '.files[] | select(.path == "Demo/Field.lean") | .head.cpu_s >= 1.4' "$WS/report.json"
	grep -q 'head prebuild, layer 1 of 2 (1 module)' <<<"$stderr"
}

@test "attack: a header Lake and Lean read apart (importDemo.Field: an import to Lake, a name to Lean) is imports_unreadable, never guessed" {
	candidate
	ex_lean "$R" Demo/Field.lean '-- fixture: cpu=0.01'
	ex_lean "$R" Demo/Basic.lean 'importDemo.Field' '-- fixture: cpu=0.05'
	head_commit
	profile
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Basic.lean .head.error)" = imports_unreadable ]
	file_field Demo/Basic.lean .head.detail | grep -q 'Lake and Lean read its imports differently'
	[ "$(file_field Demo/Field.lean '.head.error // empty')" = "" ]
}

@test "every printed line is quoted: CR, LF, ESC, :: and % in names a candidate chose reach no line raw" {
	candidate
	# a module outside the roots, its name full of control bytes, its
	# header unreadable; the changed module imports it
	local evil=$'Evil\r\n::warning::forged 100%\x1b[2J'
	printf 'import \xc2\xab\n' >"$R/$evil.lean"
	printf 'import \xc2\xab%s\xc2\xbb\n-- fixture: cpu=0.01\n' "$evil" >"$R/Demo/Basic.lean"
	head_commit
	profile
	[ "$status" -eq 1 ]
	# every line is one of ours: a progress line, an error line, a report path
	run ! grep -v -E '^(\[[0-9]+/[0-9]+\] |sc-[a-z-]+: (error|warning): |report: )' <<<"$stderr$output"
	run ! grep -q $'\x1b' <<<"$stderr$output"
	run ! grep -q $'\r' <<<"$stderr$output"
	grep -q '^\[[0-9]*/[0-9]*\] head Demo/Basic.lean: not run (imports_unreadable: the header of Demo.Basic cannot be read: ' <<<"$stderr"
	# no selected module's order read: the head's prebuild is that sample
	[ "$(jqr .prebuild.head.error)" = imports_unreadable ]
}

@test "attack: a prebuild that builds a later layer's module early (its olean made by hand) makes order_violated, never a verdict, whatever the reader saw" {
	candidate
	# Helper's build runs in the first layer's prebuild and leaves Basic's
	# outputs where Lake would have built them: a later layer's module
	# built before its turn, as a reader that missed an import would let it be.
	script evil.py '#!/usr/bin/python3' 'import os' \
		'os.makedirs(".lake/build/lib/lean/Demo", exist_ok=True)' \
		'open(".lake/build/lib/lean/Demo/Basic.olean", "w").write("fake")'
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-run=./evil.py'
	ex_lean "$R" Demo/Field.lean 'import Demo.Helper' '-- fixture: cpu=0.01'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Field' '-- fixture: cpu=0.01'
	head_commit
	profile
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Field.lean .head.error)" = order_violated ]
	file_field Demo/Field.lean .head.detail | grep -q '^Demo.Basic is already built (.lake/build/lib/lean/Demo/Basic.olean), before its own sample$'
	[ "$(file_field Demo/Basic.lean .head.error)" = order_violated ]
	grep -q 'head Demo/Field.lean: not run (order_violated: Demo.Basic is already built' <<<"$stderr"
	[ "$(file_field Demo/Basic.lean '.base.error // empty')" = "" ]
}

@test "a selected module whose imports cannot be read is imports_unreadable, never guessed; the others are measured" {
	candidate
	printf 'import Demo.\xc2\xabHelper\n-- fixture: cpu=0.05\n' >"$R/Demo/Basic.lean"
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Basic.lean .head.error)" = imports_unreadable ]
	file_field Demo/Basic.lean .head.detail | grep -q 'the header of Demo.Basic cannot be read: Lake cannot read it: unterminated identifier escape (line 1)'
	[ "$(file_field Demo/Ring.lean '.head.error // empty')" = "" ]
	[ "$(file_field Demo/Basic.lean '.base.error // empty')" = "" ]
}

# small_fs SIZE [INODES]: a size-bounded tmpfs at $BATS_TEST_TMPDIR/small
# (unmounted in teardown), with at most INODES inodes when given.
small_fs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
	SMALL=$BATS_TEST_TMPDIR/small
	mkdir -p "$SMALL"
	mount -t tmpfs -o "size=$1,mode=0755${2:+,nr_inodes=$2}" tmpfs "$SMALL"
}
teardown() {
	if [ -n "${SMALL:-}" ] && mountpoint -q "$SMALL"; then umount -l "$SMALL"; fi
}

# fill_script: ./fill.py in the candidate's tree, which writes .lake/fill
# until the disk is full.
fill_script() {
	script fill.py '#!/usr/bin/python3' 'n = 0' 'try:' '    with open(".lake/fill", "wb") as f:' \
		'        while True:' '            f.write(b"x" * (1 << 20)); f.flush(); n += 1' 'except OSError:' '    pass'
}

@test "attack: a prebuild that fills the disk: its side is disk_full, the report is written, exit 1" {
	small_fs 64M
	WS=$SMALL/ws
	candidate
	fill_script
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-run=./fill.py'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper' '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile --keep-logs
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(jqr .status)" = error ]
	[ "$(file_field Demo/Basic.lean .head.error)" = disk_full ]
	[ "$(jqr .prebuild.head.error)" = disk_full ]
	[ "$(file_field Demo/Ring.lean '.base.error // empty')" = "" ]
	grep -q 'disk_full' "$WS/report.md"
	[ ! -e "$WS/INCOMPLETE" ]
	grep -q 'head prebuild, layer 2 of 2: not run (disk_full)' <<<"$stderr"
}

@test "attack: a prebuild that fills the disk before a file's repeats: each repeat is disk_full, bound as that repeat" {
	small_fs 64M
	WS=$SMALL/ws
	fill_script
	# X comes after Y on the base side, first on the head's: its repeats
	# wait for the second layer, whose head prebuild (Helper, for Z) fills
	# the disk.
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-run=./fill.py'
	ex_lean "$R" Demo/Y.lean '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/X.lean 'import Demo.Y' '-- fixture: cpu=0.05'
	M=$(ex_commit "$R" "a base where X imports Y")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Y.lean '-- reworded' '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/X.lean '-- fixture: cpu=0.6'
	ex_lean "$R" Demo/W.lean '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/Z.lean 'import Demo.W' 'import Demo.Helper' '-- fixture: cpu=0.05'
	head_commit
	profile --confirm 2 --threshold-delta 0.1
	[ "$status" -eq 1 ]
	[ "$(file_field Demo/Z.lean .head.error)" = disk_full ]
	[ "$(jq -r 'select(.sample | test("Demo.X$")) | "\(.sample) \(.repeat // 0) \(.error // "ok")"' "$WS/samples.jsonl" | tr '\n' ,)" = "head:Demo.X 0 ok,base:Demo.X 0 ok,base:Demo.X 1 disk_full,head:Demo.X 1 disk_full,base:Demo.X 2 disk_full,head:Demo.X 2 disk_full," ]
	grep -q '^\[[0-9]*/[0-9]*\] base Demo/X.lean, repeat 1: not run (disk_full)$' <<<"$stderr"
	[ ! -e "$WS/INCOMPLETE" ]
}

@test "attack: a prebuild that takes every inode (bytes to spare): its side is disk_full, the report is written, exit 1, and the next run can start" {
	small_fs 256M 3000
	WS=$SMALL/ws
	candidate
	script inodes.py '#!/usr/bin/python3' 'import os' 'os.makedirs(".lake/i", exist_ok=True)' 'n = 0' 'try:' \
		'    while True:' '        open(".lake/i/%d" % n, "w").close(); n += 1' 'except OSError:' '    pass'
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-run=./inodes.py'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper' '-- fixture: cpu=0.05'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(jqr .status)" = error ]
	[ "$(file_field Demo/Basic.lean .head.error)" = disk_full ]
	[ "$(jqr .prebuild.head.error)" = disk_full ]
	[ -f "$WS/report.md" ]
	[ ! -e "$WS/INCOMPLETE" ]
	[ ! -e "$WS/.reserve" ]
	# what the candidate took is given back: the next run can start
	[ "$(stat -f -c %d "$SMALL")" -ge 1024 ]
}

# refused_for_room SIZE INODES WANT: on a small file system, a plain run is
# refused before anything runs (exit 2, nothing created), saying WANT.
refused_for_room() {
	small_fs "$1" "$2"
	WS=$SMALL/ws
	candidate
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[[ "$stderr" == *"$3 ($SMALL)"* ]]
	[ ! -e "$WS" ]
}

@test "too few free inodes where the workspace goes is refused before anything runs, with the numbers" {
	refused_for_room 64M 600 "inodes free where the workspace goes; profile-run needs at least 1024"
}

@test "too little free space where the workspace goes is refused before anything runs, with the numbers" {
	refused_for_room 20M "" "only 20 MiB free where the workspace goes; profile-run needs at least 32 MiB"
}

@test "attack: Lake's compiled configuration the preflight made is read-only to the prebuild and the samples" {
	# the root package configuration, compiled by the preflight (Lake reads
	# it before lakefile.toml: its libraries are the project's)
	printf '%s\n' 'import Lake' 'open Lake DSL' 'package demo' 'lean_lib Demo' 'lean_lib Roadmap' >"$R/lakefile.lean"
	M=$(ex_commit "$R" "a lakefile.lean")
	T=$M B=$M
	candidate
	attempt_py config '    open(".lake/config/0/lakefile.olean.trace", "w").write("stale\n")' >"$R/evil.py"
	attempt_py config-rename '    os.rename(".lake/config", ".lake/config.old"); os.makedirs(".lake/config/0")' >>"$R/evil.py"
	evil_in_prebuild 'cpu=0.05'
	profile
	echo "$stderr"
	if lake_kept; then cat "$WS/head/.lake/attack"; fi
	[ "$status" -eq 0 ]
	if lake_kept; then
		grep -q configHash "$WS/head/.lake/config/0/lakefile.olean.trace"
		[ ! -e "$WS/head/.lake/config.old" ]
		grep -qxE 'config (PermissionError|OSError)' "$WS/head/.lake/attack"
		grep -qxE 'config-rename (PermissionError|OSError)' "$WS/head/.lake/attack"
	fi
}

@test "attack: an olean named like a dependency module, planted in the root package's build folder by the prebuild, is not loaded" {
	lake_kept || skip "what Lean loaded is in .lake, removed after each side for an operator who is not root"
	candidate
	attempt_py plant '    os.makedirs(".lake/build/lib/lean/Tiny", exist_ok=True)
    open(".lake/build/lib/lean/Tiny/Core.olean", "w").write("planted\n")' >"$R/plant.py"
	chmod 755 "$R/plant.py"
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-run=./plant.py'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper' '-- fixture: log-imports cpu=0.05'
	head_commit
	profile
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -qx 'plant ok' "$WS/head/.lake/attack"
	[ "$(cat "$WS/head/.lake/build/lib/lean/Tiny/Core.olean")" = planted ]
	grep -qx 'import Tiny.Core -> /project/.lake/packages/tinylib/.lake/build/lib/lean/Tiny/Core.olean' \
		"$WS/head/.lake/.fixture-log"
	run ! grep -q 'import Tiny.Core -> /project/.lake/build' "$WS/head/.lake/.fixture-log"
}

@test "attack: Lean's profile forged (control bytes, deep, malformed, huge, a link, a FIFO) ends in a note, never a crash or a forged line" {
	candidate
	# a frame whose name tries a terminal escape, a bare CR and a workflow command
	local evil='{"meta":{"categories":[{"name":"Elab\u001b[2J"}]},"threads":[{"samples":{"stack":[1],"weight":[500]},"stackTable":{"frame":[0,1],"prefix":[null,0],"category":[0,0]},"frameTable":{"func":[0,1]},"funcTable":{"name":[0,1]},"stringArray":["runFrontend","Elab.command: Lean.Parser.Command.eval: #eval 1\u001b]0;x\u0007\r::error::forged%0A"]}]}'
	printf '%s' "$evil" >"$R/evil.json"
	python3 -c 'print("{\"x\": " + "[" * 100000 + "]" * 100000 + "}")' >"$R/deep.json"
	printf '{"threads": [' >"$R/cut.json"
	script big.py '#!/usr/bin/python3' \
		'with open(".lake/big.json", "w") as f:' \
		'    f.write("{\"x\": \"" + "a" * (33 << 20) + "\", \"threads\": []}")'
	# code of the file, run while Lean elaborates it, reads Lean's command
	# line and plants a link to a file outside the tree, or a FIFO, where
	# Lean will write its profile
	local find='import os; a = open("/proc/%d/cmdline" % os.getppid(), "rb").read().split(b"\0"); p = [x[len(b"-Dtrace.profiler.output="):] for x in a if x.startswith(b"-Dtrace.profiler.output=")]'
	script link.py '#!/usr/bin/python3' "$find" 'p and os.symlink("/etc/passwd", p[0])'
	script fifo.py '#!/usr/bin/python3' "$find" 'p and os.mkfifo(p[0])'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.3 profile-forged=evil.json'
	ex_lean "$R" Demo/Basic.lean '-- fixture: cpu=0.3 profile-forged=deep.json'
	ex_lean "$R" Demo/Cut.lean '-- fixture: cpu=0.3 profile-forged=cut.json'
	ex_lean "$R" Demo/Big.lean '-- fixture: cpu=0.3 run=./big.py profile-forged=.lake/big.json'
	ex_lean "$R" Demo/Link.lean '-- fixture: cpu=0.3 run=./link.py'
	ex_lean "$R" Demo/Fifo.lean '-- fixture: cpu=0.3 run=./fifo.py'
	head_commit
	profile --attribute --threshold-delta 0.1 --threshold-added 0.1 --sample-timeout 5
	echo "$stderr"
	[ "$status" -eq 0 ]
	local note='.attribution.files[] | select(.path == $p) | .head.note'
	[ "$(jq -r --arg p Demo/Basic.lean "$note" "$WS/report.json")" = "Lean's profile was not read: nested deeper than Lean's profile is" ]
	jq -r --arg p Demo/Cut.lean "$note" "$WS/report.json" | grep -q "^Lean's profile was not read: not JSON$"
	jq -r --arg p Demo/Big.lean "$note" "$WS/report.json" | grep -q "^Lean's profile is larger than 32 MiB$"
	jq -r --arg p Demo/Link.lean "$note" "$WS/report.json" | grep -q "^Lean wrote no profile"
	jq -r --arg p Demo/Fifo.lean "$note" "$WS/report.json" | grep -q "^the run ended in timeout.*; Lean's profile is not a regular file$"
	# the forged names are summed, cut at the line's end, their bytes inert
	[ "$(jq -r '.attribution.files[] | select(.path == "Demo/Ring.lean") | .declarations[0].name' "$WS/report.json")" = '#eval 1?]0;x?' ]
	run ! grep -q $'\x1b\|\r\|::error::forged' "$WS/report.md"
	run ! grep -q $'\x1b\|::error::forged' <<<"$stderr"
	# the verdicts stand, the samples untouched
	[ "$(jqr '[.files[] | select(.verdict == "flagged")] | length')" = 6 ]
	[ "$(jqr .status)" = ok ]
	# nothing outside the tree was read: /etc/passwd is in no kept profile
	run ! grep -rq root: "$WS/attribution"
}

@test "attack: a base prebuild that fills the disk: every later step of the run, the head's too, is disk_full" {
	small_fs 64M
	WS=$SMALL/ws
	fill_script
	ex_lean "$R" Demo/Helper.lean '-- fixture: build-run=./fill.py'
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper' '-- fixture: cpu=0.05'
	M=$(ex_commit "$R" "a base whose prebuild fills the disk")
	T=$M B=$M
	candidate
	ex_lean "$R" Demo/Basic.lean 'import Demo.Helper' '-- fixture: cpu=0.06'
	ex_lean "$R" Demo/Ring.lean '-- fixture: cpu=0.06'
	head_commit
	profile
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(jqr .prebuild.base.error)" = disk_full ]
	[ "$(file_field Demo/Ring.lean .base.error)" = disk_full ]
	[ "$(jqr .prebuild.head.error)" = disk_full ]
	[ "$(file_field Demo/Ring.lean .head.error)" = disk_full ]
	[ "$(file_field Demo/Basic.lean .head.error)" = disk_full ]
	[ ! -e "$WS/INCOMPLETE" ]
}
