#!/usr/bin/env bats
# sc-materialize: a commit's tree written from raw blobs, compared with what
# `git archive | tar -x` produces, and refused or confined for hostile trees.
load helpers
bats_require_minimum_version 1.5.0

setup() {
	umask 022
	T=$BATS_TEST_TMPDIR
	R=$T/repo
	git init -q "$R"
}

commit_all() { # REPO MSG -> prints the new commit ID
	git -C "$1" add -A
	git -C "$1" commit -q -m "$2"
	git -C "$1" rev-parse HEAD
}

# What git would give for C: archive entries carry the umask we run with.
archive_tree() { # REPO COMMIT DIR
	mkdir "$3"
	git -C "$1" -c tar.umask=user archive "$2" | tar -x --no-same-owner --no-same-permissions -C "$3"
}

# Type, mode and size of everything below DIR, one line each.
listing() { (cd "$1" && find . -printf '%y %m %s %p\n' | LC_ALL=C sort -k4); }

# A plan (common/contract/plan.h schema) naming M as merge base and H as head.
make_plan() { # OUT M H FORMAT LIBRARY-JSON ROADMAP-JSON
	jq -n --arg m "$2" --arg h "$3" --arg f "$4" --argjson lib "$5" --argjson road "$6" '{
		schema: "sphereceti.plan/1", profiler_version: "0.1.0", object_format: $f,
		revisions: {tooling: $h, base_tip: $m, merge_base: $m, head: $h},
		config: {library: $lib, roadmap: $road, github: null, tooling_path: null,
		         bwrap_pins: []},
		lake: {"lakefile.toml": null, "lakefile.lean": null,
		       "lake-manifest.json": null, "lean-toolchain": null},
		lean_toolchain: null, status: "no_changes", files: []}' >"$1"
}

# Raw tree object from "MODE NAME OID" lines (NAME may hold any byte but
# NUL and newline; use mk_entry for those), bypassing git's own checks.
mk_entry() { # MODE NAME OID -> binary entry on stdout
	printf '%s %s\0' "$1" "$2"
	printf '%s' "$3" | xxd -r -p
}
hash_tree() { # FILE-WITH-ENTRIES -> tree ID
	git -C "$R" hash-object --literally -t tree -w "$1"
}
commit_tree() { git -C "$R" commit-tree -m crafted "$1"; }

blob() { printf '%s' "$1" | git -C "$R" hash-object -w --stdin; }

@test "tree equals git archive | tar -x, byte for byte and mode for mode" {
	mkdir -p "$R/Lib/Deep/Er" "$R/docs" "$R/empty-dir-holder"
	printf 'def x := 1\n' >"$R/Lib/A.lean"
	printf 'crlf\r\nline\r\n' >"$R/Lib/Deep/Er/B.lean"
	printf '#!/bin/sh\necho hi\n' >"$R/run.sh"
	chmod 755 "$R/run.sh"
	: >"$R/docs/empty"
	: >"$R/empty-dir-holder/.keep"
	printf '$Format:%%H$\n' >"$R/docs/subst.txt"
	head -c 300000 /dev/urandom >"$R/docs/random.bin"
	printf 'x' >"$R/-leading-dash"
	c=$(commit_all "$R" one)
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/mat"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	archive_tree "$R" "$c" "$T/arc"
	diff -r "$T/mat" "$T/arc"
	[ "$(listing "$T/mat")" = "$(listing "$T/arc")" ]
	# The listing really sees modes: the script is executable, the rest not.
	listing "$T/mat" | grep -qx 'f 755 [0-9]* ./run.sh'
	listing "$T/mat" | grep -qx 'f 644 0 ./docs/empty'
	# Summary: schema, commit, tree, counts.
	tree=$(git -C "$R" rev-parse "$c^{tree}")
	jq -e --arg c "$c" --arg t "$tree" '.schema == "sphereceti.materialize/1" and
		.commit == $c and .tree == $t and .object_format == "sha1" and
		.files == 8 and .directories == 5 and .skipped == []' <<<"$output"
	bytes=$(find "$T/mat" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
	jq -e --argjson b "$bytes" '.bytes == $b' <<<"$output"
}

@test "attributes have no effect: files keep the raw blob bytes" {
	printf '*.txt export-subst\n*.crlf eol=crlf\n*.t text\nsecret.txt export-ignore\n' >"$R/.gitattributes"
	printf 'hash $Format:%%H$\n' >"$R/subst.txt"
	printf 'one\ntwo\n' >"$R/lines.crlf"
	printf 'a\nb\n' >"$R/plain.t"
	printf 'kept\n' >"$R/secret.txt"
	c=$(commit_all "$R" attrs)
	run sc-materialize --repo "$R" --commit "$c" --dest "$T/mat"
	[ "$status" -eq 0 ]
	for f in subst.txt lines.crlf plain.t secret.txt .gitattributes; do
		git -C "$R" cat-file blob "$c:$f" | cmp - "$T/mat/$f"
	done
	# The archive does apply them, so this comparison can fail.
	archive_tree "$R" "$c" "$T/arc"
	run ! diff -r "$T/mat" "$T/arc" >/dev/null
	run ! cmp -s "$T/mat/subst.txt" "$T/arc/subst.txt"
	run ! cmp -s "$T/mat/lines.crlf" "$T/arc/lines.crlf"
	[ ! -e "$T/arc/secret.txt" ]
}

@test "existing destination, missing parent, dest in the git dir are refused" {
	printf 'x\n' >"$R/f"
	c=$(commit_all "$R" one)
	mkdir "$T/exists"
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/exists"
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"already exists"* ]]
	[ -z "$(ls -A "$T/exists")" ]
	ln -s "$T/nowhere" "$T/dangling"
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/dangling"
	assert_error_line sc-materialize
	[ ! -e "$T/nowhere" ]
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/no/such/out"
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"parent directory does not exist"* ]]
	[ ! -e "$T/no" ]
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$R/.git/out"
	assert_error_line sc-materialize
	[ ! -e "$R/.git/out" ]
}

@test "bad flags and bad commit IDs are refused with one error line" {
	printf 'x\n' >"$R/f"
	c=$(commit_all "$R" one)
	tree=$(git -C "$R" rev-parse "$c^{tree}")
	blob=$(git -C "$R" rev-parse "$c:f")
	for bad in "${c:0:12}" HEAD main "$tree" "$blob" "${c}0" "zz${c:2}" "" \
	           "$(printf '%040d' 1)"; do
		run --separate-stderr sc-materialize --repo "$R" --commit "$bad" --dest "$T/out"
		assert_error_line sc-materialize
		[ "$status" -eq 2 ]
		[ ! -e "$T/out" ]
	done
	run --separate-stderr sc-materialize --repo "$R" --commit "$c"
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	grep -q '(--dest)$' <<<"$stderr"
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/o" --bogus
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --commit "$c" --dest "$T/o"
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	grep -q 'given twice (--commit)$' <<<"$stderr"
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/o" --plan ""
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/o" stray
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	run --separate-stderr sc-materialize --repo "$T/not-a-repo" --commit "$c" --dest "$T/o"
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	[ ! -e "$T/o" ]
	run sc-materialize --help
	[ "$status" -eq 0 ]
	grep -q -- '--dest NEWDIR' <<<"$output"
	run sc-materialize --version
	[ "$status" -eq 0 ]
	[[ "$output" == "sc-materialize "* ]]
	# Upper-case hex is the same full ID.
	run sc-materialize --repo "$R" --commit "${c^^}" --dest "$T/upper"
	[ "$status" -eq 0 ]
	[ -f "$T/upper/f" ]
}

@test "repository refs, index and objects are unchanged afterwards" {
	printf '*.txt export-subst\n' >"$R/.gitattributes"
	printf '$Format:%%H$\n' >"$R/a.txt"
	c=$(commit_all "$R" one)
	before=$(repo_state "$R")
	sc-materialize --repo "$R" --commit "$c" --dest "$T/mat" >/dev/null
	[ "$(repo_state "$R")" = "$before" ]
	[ -z "$(git -C "$R" status --porcelain)" ]
}

@test "symlinks and submodules are skipped and listed, without a plan anywhere" {
	mkdir -p "$R/Lib" "$R/docs"
	printf 'x\n' >"$R/Lib/A.lean"
	ln -s ../Lib/A.lean "$R/docs/link"
	ln -s /etc/passwd "$R/Lib/Evil.lean"
	git -C "$R" add -A
	git -C "$R" update-index --add --cacheinfo "160000,$(printf '%040d' 7),vendor/sub"
	git -C "$R" commit -q -m links
	c=$(git -C "$R" rev-parse HEAD)
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/mat"
	[ "$status" -eq 0 ]
	jq -e '.skipped == [
		{path: "Lib/Evil.lean", mode: "120000", reason: "symlink"},
		{path: "docs/link", mode: "120000", reason: "symlink"},
		{path: "vendor/sub", mode: "160000", reason: "submodule"}]' <<<"$output"
	[ ! -e "$T/mat/Lib/Evil.lean" ]
	[ ! -L "$T/mat/Lib/Evil.lean" ]
	[ ! -L "$T/mat/docs/link" ]
	[ -d "$T/mat/vendor" ]
	[ -z "$(ls -A "$T/mat/vendor")" ]
	[ -z "$(find "$T/mat" -type l)" ]
}

@test "with a plan: links outside the roots are skipped, inside or on the way they fail" {
	mkdir -p "$R/Lib" "$R/Road/Map" "$R/docs"
	printf 'x\n' >"$R/Lib/A.lean"
	printf 'y\n' >"$R/Road/Map/B.lean"
	ln -s ../Lib/A.lean "$R/docs/link"
	c=$(commit_all "$R" ok)
	plan=$T/plan.json
	make_plan "$plan" "$c" "$c" sha1 '["Lib"]' '["Road/Map"]'
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/ok" --plan "$plan"
	[ "$status" -eq 0 ]
	jq -e '.skipped == [{path: "docs/link", mode: "120000", reason: "symlink"}]' <<<"$output"

	n=0
	for bad in Lib/Evil.lean Lib/deeper/notes.txt Lib.lean Road/Map/X.lean Road \
	           lakefile.lean lean-toolchain lake-manifest.json lakefile.toml; do
		n=$((n + 1))
		git -C "$R" checkout -q "$c"
		mkdir -p "$R/$(dirname "$bad")"
		ln -s /etc/passwd "$R/$bad.tmp"
		rm -rf "${R:?}/$bad"
		mv "$R/$bad.tmp" "$R/$bad"
		cb=$(commit_all "$R" "bad $bad")
		make_plan "$plan" "$c" "$cb" sha1 '["Lib"]' '["Road/Map"]'
		run --separate-stderr sc-materialize --repo "$R" --commit "$cb" --dest "$T/bad$n" --plan "$plan"
		assert_error_line sc-materialize
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"symbolic link"*"($bad)" ]]
		[ ! -e "$T/bad$n" ]
	done

	# A submodule that is the library root itself.
	git -C "$R" checkout -q "$c"
	git -C "$R" rm -rq Lib
	git -C "$R" update-index --add --cacheinfo "160000,$(printf '%040d' 7),Lib"
	git -C "$R" commit -q -m sub
	cs=$(git -C "$R" rev-parse HEAD)
	make_plan "$plan" "$c" "$cs" sha1 '["Lib"]' '[]'
	run --separate-stderr sc-materialize --repo "$R" --commit "$cs" --dest "$T/sub" --plan "$plan"
	assert_error_line sc-materialize
	[[ "$stderr" == *"submodule"*"(Lib)" ]]
}

@test "with a plan: commit must be the plan's merge base or head, same object format" {
	printf 'x\n' >"$R/f"
	c1=$(commit_all "$R" one)
	printf 'y\n' >"$R/f"
	c2=$(commit_all "$R" two)
	printf 'z\n' >"$R/f"
	c3=$(commit_all "$R" three)
	make_plan "$T/plan.json" "$c1" "$c2" sha1 '["Lib"]' '[]'
	run sc-materialize --repo "$R" --commit "$c1" --dest "$T/base" --plan "$T/plan.json"
	[ "$status" -eq 0 ]
	run sc-materialize --repo "$R" --commit "$c2" --dest "$T/head" --plan "$T/plan.json"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/head/f")" = y ]
	run --separate-stderr sc-materialize --repo "$R" --commit "$c3" --dest "$T/other" --plan "$T/plan.json"
	assert_error_line sc-materialize
	[[ "$stderr" == *"neither the plan's merge_base nor its head"* ]]
	[ ! -e "$T/other" ]
	pad=$(printf '%064d' 0)
	make_plan "$T/p256.json" "$pad" "$pad" sha256 '["Lib"]' '[]'
	run --separate-stderr sc-materialize --repo "$R" --commit "$c1" --dest "$T/fmt" --plan "$T/p256.json"
	assert_error_line sc-materialize
	[[ "$stderr" == *"sha256"* ]]
	printf '{"schema": "nope"}' >"$T/bad.json"
	run --separate-stderr sc-materialize --repo "$R" --commit "$c1" --dest "$T/badplan" --plan "$T/bad.json"
	assert_error_line sc-materialize
	[ ! -e "$T/badplan" ]
}

@test "bare and SHA-256 repositories" {
	printf 'x\n' >"$R/f"
	printf '#!/bin/sh\n' >"$R/x.sh"
	chmod +x "$R/x.sh"
	c=$(commit_all "$R" one)
	git clone -q --bare "$R" "$T/bare.git"
	run sc-materialize --repo "$T/bare.git" --commit "$c" --dest "$T/from-bare"
	[ "$status" -eq 0 ]
	[ -x "$T/from-bare/x.sh" ]
	[ "$(cat "$T/from-bare/f")" = x ]

	git init -q --object-format=sha256 "$T/r256"
	mkdir "$T/r256/d"
	printf 'hello\n' >"$T/r256/d/h"
	c256=$(commit_all "$T/r256" one)
	[ "${#c256}" -eq 64 ]
	run --separate-stderr sc-materialize --repo "$T/r256" --commit "$c256" --dest "$T/m256"
	[ "$status" -eq 0 ]
	jq -e '.object_format == "sha256" and .files == 1' <<<"$output"
	archive_tree "$T/r256" "$c256" "$T/a256"
	diff -r "$T/m256" "$T/a256"
	# A SHA-1-length ID in a SHA-256 repository is not a full ID.
	run --separate-stderr sc-materialize --repo "$T/r256" --commit "${c256:0:40}" --dest "$T/short"
	assert_error_line sc-materialize
}

# Crafted trees: each must be refused before anything is written, or written
# strictly inside NEWDIR.  The destination lives in a box we can inspect.
refused_tree() { # TREE-ENTRIES-FILE EXPECTED-MESSAGE-PART
	tree=$(hash_tree "$1")
	cc=$(commit_tree "$tree")
	mkdir -p "$T/box"
	run --separate-stderr sc-materialize --repo "$R" --commit "$cc" --dest "$T/box/out"
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"$2"* ]] || { echo "stderr: $stderr"; false; }
	[ -z "$(ls -A "$T/box")" ]
}

@test "hostile names are refused: . .. .git (any case) / and duplicates" {
	b=$(blob hi)
	sub=$( (mk_entry 100644 pwned "$b") >"$T/sub.bin"; hash_tree "$T/sub.bin")
	for name in .. . .git .GIT .Git; do
		(mk_entry 100644 ok "$b"; mk_entry 40000 "$name" "$sub") >"$T/t.bin"
		refused_tree "$T/t.bin" "unsafe name"
	done
	(mk_entry 100644 ".git" "$b") >"$T/t.bin"
	refused_tree "$T/t.bin" "unsafe name"
	(mk_entry 100644 "a/../../escape" "$b") >"$T/t.bin"
	refused_tree "$T/t.bin" "unsafe name"
	(mk_entry 100644 same "$b"; mk_entry 40000 same "$sub") >"$T/t.bin"
	refused_tree "$T/t.bin" "duplicate name"
	(mk_entry 100644 zz "$b"; mk_entry 100644 aa "$b"; mk_entry 100644 zz "$b") >"$T/t.bin"
	refused_tree "$T/t.bin" "duplicate name"
	# Nested: the bad entry is deep, still nothing is written.
	(mk_entry 40000 "..X" "$sub"; mk_entry 40000 ".." "$sub") >"$T/inner.bin"
	inner=$(hash_tree "$T/inner.bin")
	(mk_entry 40000 d "$inner") >"$T/t.bin"
	refused_tree "$T/t.bin" "unsafe name in tree (d/..)"
	# Bad modes and objects of the wrong type.
	(mk_entry 100600 f "$b") >"$T/t.bin"
	refused_tree "$T/t.bin" "unsupported mode"
	(mk_entry 100644 f "$sub") >"$T/t.bin"
	tree=$(hash_tree "$T/t.bin")
	cc=$(commit_tree "$tree")
	run --separate-stderr sc-materialize --repo "$R" --commit "$cc" --dest "$T/box/wrongtype"
	assert_error_line sc-materialize
	[[ "$stderr" == *"object is a tree"*"(f)" ]]
	[ ! -e "$T/pwned" ]
	[ ! -e "$T/box/pwned" ]
}

@test "odd but safe names (newline, leading dash, spaces, ..X) stay inside NEWDIR" {
	b=$(blob data)
	(mk_entry 100644 $'new\nline' "$b"; mk_entry 100644 -rf "$b"; mk_entry 100644 '..X' "$b"
	 mk_entry 100644 'sp ace' "$b"; mk_entry 100644 $'tab\there' "$b"; mk_entry 100644 '.gitx' "$b") >"$T/t.bin"
	tree=$(hash_tree "$T/t.bin")
	cc=$(commit_tree "$tree")
	mkdir "$T/box"
	run sc-materialize --repo "$R" --commit "$cc" --dest "$T/box/out"
	[ "$status" -eq 0 ]
	[ "$(ls -A "$T/box")" = out ]
	[ "$(find "$T/box/out" -type f -printf x | wc -c)" -eq 6 ]
	[ "$(cat "$T/box/out/new"$'\n'"line")" = data ]
	[ "$(cat -- "$T/box/out/-rf")" = data ]
}

@test "a symlink with a newline in its name is listed exactly in the JSON" {
	b=$(blob target)
	(mk_entry 120000 $'li\nnk' "$b") >"$T/t.bin"
	cc=$(commit_tree "$(hash_tree "$T/t.bin")")
	run --separate-stderr sc-materialize --repo "$R" --commit "$cc" --dest "$T/out"
	[ "$status" -eq 0 ]
	jq -e '.skipped[0].path == "li\nnk"' <<<"$output"
}

@test "a tree deeper than 256 levels is refused with a clear error" {
	# Both commits in one git fast-import, not a hash-object per level: a
	# file leaf under 256 folders d/, and under 257.
	local p
	p=$(printf 'd/%.0s' {1..256})
	printf 'commit refs/heads/%s\ncommitter T <t@example.invalid> 0 +0000\ndata 0\nM 100644 inline %sleaf\ndata 4\nleaf\n' \
		ok "$p" deep "d/$p" | git -C "$R" fast-import --quiet
	[ "$(git -C "$R" ls-tree -r --name-only deep)" = "d/${p}leaf" ]
	# 256 directory levels are fine.
	run sc-materialize --repo "$R" --commit "$(git -C "$R" rev-parse ok)" --dest "$T/ok"
	[ "$status" -eq 0 ]
	jq -e '.directories == 256 and .files == 1' <<<"$output"
	run --separate-stderr sc-materialize --repo "$R" --commit "$(git -C "$R" rev-parse deep)" --dest "$T/deep"
	assert_error_line sc-materialize
	[[ "$stderr" == *"deeper than 256 levels"* ]]
	[ ! -e "$T/deep" ]
}

# bomb REPO LEVELS: a commit whose tree holds a folder bomb/ of LEVELS
# levels of ten folders each over one ten-file tree: 10^LEVELS files from a
# few kilobytes of objects.  Prints the commit.
bomb() {
	local r=$1 t blob
	blob=$(printf 'x\n' | git -C "$r" hash-object -w --stdin)
	t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '100644 blob %s\tf%s\n' "$blob" "$i"; done | git -C "$r" mktree)
	for _ in $(seq "$2"); do
		t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '040000 tree %s\td%s\n' "$t" "$i"; done | git -C "$r" mktree)
	done
	t=$(printf '040000 tree %s\tbomb\n100644 blob %s\tREADME\n' "$t" "$blob" | git -C "$r" mktree)
	git -C "$r" commit-tree -m bomb "$t"
}

@test "a tree bomb (10^7 paths from a few KiB of objects) is refused before anything is written: exit 2, the bound named, memory bounded" {
	local c
	c=$(bomb "$R" 6)
	/usr/bin/time -f '%M' -o "$T/peak" sc-materialize --repo "$R" --commit "$c" --dest "$T/out" 2>"$T/err" && false
	local rc=$?
	echo "rc: $(cat "$T/err")"
	run cat "$T/err"
	[ "$(wc -l <"$T/err")" -eq 1 ]
	grep -q "^sc-materialize: error: the tree of commit $c holds more than [0-9]* entries (files and folders): the bound is the free inodes where it goes ([0-9]*), at most 250000 (--commit $c)$" "$T/err"
	[ ! -e "$T/out" ]
	[ -z "$(find "$T" -maxdepth 1 -name '.out.tmp-*')" ]
	# memory: the bound's entries, never the bomb's
	echo "peak $(cat "$T/peak") KiB"
	[ "$(tail -n 1 "$T/peak")" -lt $((256 << 10)) ]
	# exit 2: bad input
	run sc-materialize --repo "$R" --commit "$c" --dest "$T/out"
	[ "$status" -eq 2 ]
}

@test "a tree whose files outgrow the free space where it goes is refused before anything is written" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir -p "$T/small"
	mount -t tmpfs -o size=4m tmpfs "$T/small"
	head -c $((3 << 20)) /dev/zero >"$R/a.bin"
	cp "$R/a.bin" "$R/b.bin"
	local c
	c=$(commit_all "$R" "6 MiB in two files of one blob")
	run --separate-stderr sc-materialize --repo "$R" --commit "$c" --dest "$T/small/out"
	umount "$T/small"
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sc-materialize: error: the tree of commit $c: its files hold more than "*" bytes, the free space where it goes (--commit $c)" ]]
}

@test "a 50 MiB blob is streamed in bounded memory" {
	[ -z "${SC_VALGRIND:-}" ] || skip "under make check-valgrind the memory is valgrind's"
	# The floor: the same tool on a one-file tree.  GNU time's %M is the
	# largest single process of the run, so it covers our own start-up
	# (about 2 MiB natively, about 18 MiB under ASan's shadow memory).
	echo small >"$R/small.txt"
	c=$(commit_all "$R" small)
	/usr/bin/time -f '%M' -o "$T/floor" sc-materialize --repo "$R" --commit "$c" --dest "$T/small" >/dev/null
	floor=$(cat "$T/floor")
	rm "$R/small.txt"
	head -c $((50 << 20)) /dev/urandom >"$R/big.bin"
	c=$(commit_all "$R" big)
	# GNU time's %M would also count git cat-file, which maps the whole
	# object itself; our own peak is VmHWM of our process.  It only grows,
	# so a whole-blob buffer would show in every sample taken after it.
	sc-materialize --repo "$R" --commit "$c" --dest "$T/out" >"$T/summary" &
	pid=$!
	peak=0 samples=0
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
		if [ -n "$v" ]; then
			samples=$((samples + 1))
			[ "$v" -le "$peak" ] || peak=$v
		fi
		sleep 0.002 # lint-allow: sleep the sampling interval of a memory probe, not an ordering
	done
	wait "$pid"
	cmp "$R/big.bin" "$T/out/big.bin"
	jq -e '.bytes == 52428800' "$T/summary"
	echo "peak ${peak} KiB over $samples samples, floor ${floor} KiB"
	[ "$samples" -gt 0 ]
	# A buffer holding the blob would add 50 MiB to the floor.
	[ "$peak" -lt $((floor + (8 << 10))) ]
}

@test "a summary that cannot be written (stdout on a full disk) is a system failure: exit 3" {
	printf 'x\n' >"$R/f"
	c=$(commit_all "$R" one)
	run --separate-stderr bash -c 'sc-materialize --repo "$1" --commit "$2" --dest "$3" >/dev/full' - "$R" "$c" "$T/out"
	assert_error_line sc-materialize
	[ "$status" -eq 3 ]
	grep -q 'cannot write summary: no space left on device (stdout)' <<<"$stderr"
	# Exit 3 is not a tree: none stands under NEWDIR, nor a temporary.
	[ ! -e "$T/out" ]
	run ls -A "$T"
	[[ "$output" != *.out.tmp-* ]]
}

# A git whose cat-file (the object reader's, not --batch-check's) stalls after its first MiB: sc-materialize is
# then mid-blob, the blob's first bytes written.  It says so on the FIFO
# ready, and passes the rest on once hold is opened.  (dd, not head: head
# holds what it passes on in a buffer.)
stalling_git() { # DIR
	local git
	git=$(command -v git)
	mkdir -p "$1/bin"
	mkfifo "$1/ready" "$1/hold"
	cat >"$1/bin/git" <<-GIT
		#!/bin/bash
		case " \$* " in
		*" cat-file --batch "* | *" cat-file --batch-command "*)
			"$git" "\$@" | { dd bs=64K count=1M iflag=count_bytes status=none; echo stalled >"$1/ready"; cat "$1/hold" >/dev/null; cat; } ;;
		*) exec "$git" "\$@" ;;
		esac
	GIT
	chmod +x "$1/bin/git"
}

@test "killed mid-write: nothing stands under NEWDIR, only a temporary beside it" {
	head -c $((8 << 20)) /dev/urandom >"$R/big.bin"
	echo small >"$R/a-small.txt"
	c=$(commit_all "$R" big)
	stalling_git "$T/g"
	mkdir "$T/dest"
	PATH="$T/g/bin:$PATH" sc-materialize --repo "$R" --commit "$c" --dest "$T/dest/out" >"$T/summary" &
	pid=$!
	# bounded: a git the wrapper missed never says it stalled
	exec 8<>"$T/g/ready"
	read -r -t 60 word <&8 || true
	exec 8>&-
	[ "$word" = stalled ]
	kill -KILL "$pid"
	st=0
	wait "$pid" || st=$?
	: >"$T/g/hold" # the stalled git ends too (a broken pipe)
	[ "$st" -eq 137 ]
	[ ! -s "$T/summary" ]
	# A truncated big.bin under the final name would look whole.
	[ ! -e "$T/dest/out" ]
	run ls -A "$T/dest"
	[[ "$output" == .out.tmp-* ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "a failure while writing leaves nothing: no NEWDIR, no temporary" {
	b=$(blob early)
	missing=$(printf '%040d' 5)
	(mk_entry 100644 a-first "$b"; mk_entry 100644 b-missing "$missing"; mk_entry 100644 c-late "$b") >"$T/t.bin"
	cc=$(commit_tree "$(hash_tree "$T/t.bin")")
	mkdir "$T/dest"
	run --separate-stderr sc-materialize --repo "$R" --commit "$cc" --dest "$T/dest/out"
	assert_error_line sc-materialize
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"missing blob object (b-missing)"* ]]
	[ -z "$output" ]
	run ls -A "$T/dest"
	[ -z "$output" ]
}

@test "a blob that breaks off mid-stream leaves nothing: no NEWDIR, no temporary" {
	# A loose object whose zlib stream is cut in half: its header reads
	# fine, so only the copy itself finds out.
	oid=$(python3 - "$R/.git/objects" <<-'PY'
		import hashlib, os, sys, zlib
		content = bytes(range(256)) * 1024
		raw = b"blob %d\0" % len(content) + content
		oid = hashlib.sha1(raw).hexdigest()
		z = zlib.compress(raw)
		os.makedirs(os.path.join(sys.argv[1], oid[:2]), exist_ok=True)
		with open(os.path.join(sys.argv[1], oid[:2], oid[2:]), "wb") as f:
		    f.write(z[: len(z) // 2])
		print(oid)
	PY
	)
	b=$(blob early)
	(mk_entry 100644 a-first "$b"; mk_entry 100644 b-broken "$oid"; mk_entry 100644 c-late "$b") >"$T/t.bin"
	cc=$(commit_tree "$(hash_tree "$T/t.bin")")
	mkdir "$T/dest"
	run --separate-stderr sc-materialize --repo "$R" --commit "$cc" --dest "$T/dest/out"
	assert_error_line sc-materialize
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"unable to stream $oid"* ]]
	[ -z "$output" ]
	run ls -A "$T/dest"
	[ -z "$output" ]
}

@test "a destination that appears while writing is never replaced, even an empty one" {
	head -c $((8 << 20)) /dev/urandom >"$R/big.bin"
	c=$(commit_all "$R" big)
	stalling_git "$T/g"
	mkdir "$T/dest"
	PATH="$T/g/bin:$PATH" sc-materialize --repo "$R" --commit "$c" --dest "$T/dest/out" >"$T/summary" 2>"$T/err" &
	pid=$!
	# bounded: a git the wrapper missed never says it stalled
	exec 8<>"$T/g/ready"
	read -r -t 60 word <&8 || true
	exec 8>&-
	[ "$word" = stalled ]
	mkdir "$T/dest/out" # a plain rename would put the tree in its place
	: >"$T/g/hold"
	st=0
	wait "$pid" || st=$?
	cat "$T/err"
	[ "$st" -eq 2 ]
	[ "$(cat "$T/err")" = "sc-materialize: error: destination appeared while writing (--dest $T/dest/out)" ]
	[ ! -s "$T/summary" ]
	run ls -A "$T/dest/out"
	[ -z "$output" ]
	run ls -A "$T/dest"
	[ "$output" = out ]
}
