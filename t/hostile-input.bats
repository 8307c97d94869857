#!/usr/bin/env bats
# Hostile repository input to sc-plan and sc-materialize: crafted trees
# (git hash-object --literally / commit-tree, bypassing git's own checks)
# with names holding newlines, "..", a slash, a leading "-", 255- and
# 256-byte components, paths far beyond PATH_MAX, 10,000 entries, and a
# 128 MiB blob.  Every case: a correct result or one clean error line, and
# nothing written outside the destination.  (t/materialize.bats covers the
# single-name refusals of sc-materialize in detail.)

bats_require_minimum_version 1.5.0
load helpers

setup() {
	umask 022
	W=$BATS_TEST_TMPDIR
	R=$W/repo
	git init -q "$R"
	printf '[profile]\n\tlibrary = Demo\n\troadmap = Roadmap\n' >"$R/.sphereceti"
	mkdir -p "$R/Demo"
	echo 'def a := 1' >"$R/Demo/A.lean"
	git -C "$R" add -A
	git -C "$R" commit -q -m base
	M=$(git -C "$R" rev-parse HEAD)
	CFG=$(git -C "$R" rev-parse HEAD:.sphereceti)
	A=$(git -C "$R" rev-parse HEAD:Demo/A.lean)
	mkdir "$W/box"
}

teardown() {
	rm -rf "$W/box" "$W/zero"
}

# entry MODE NAME OID: one raw tree entry (NAME may hold any byte but NUL).
entry() {
	printf '%s %s\0' "$1" "$2"
	printf '%s' "$3" | xxd -r -p
}
# Raw entries on stdin -> tree ID.
mktree_raw() { git -C "$R" hash-object --literally -t tree -w --stdin; }
blob() { printf '%s' "$1" | git -C "$R" hash-object -w --stdin; }

# head_with DEMO_TREE [OTHER ENTRIES FILE]: a commit on top of M whose root
# holds .sphereceti, Demo = DEMO_TREE and the extra root entries; sets $H.
head_with() {
	local extra=${2:-/dev/null}
	H=$(
		{
			entry 100644 .sphereceti "$CFG"
			entry 40000 Demo "$1"
			cat "$extra"
		} | mktree_raw | xargs git -C "$R" commit-tree -p "$M" -m crafted
	)
}

# Demo's tree: A.lean plus the given raw entries (file on stdin).
demo_with() { { entry 100644 A.lean "$A"; cat; } | mktree_raw; }

plan() {
	run --separate-stderr sc-plan --repo "$R" --tooling "$M" --base "$M" --head "$H"
}

materialize() { # DEST [flags]
	local d=$1
	shift
	run --separate-stderr sc-materialize --repo "$R" --commit "$H" --dest "$d" "$@"
}

# Everything in the test folder but the box, the repository's own state,
# for "nothing written outside the destination".
outside() {
	(cd "$W" && find . -path ./box -prune -o -path ./repo/.git -prune -o ! -name 'separate-stderr-*' -printf '%p %s\n' | LC_ALL=C sort)
	repo_state "$R"
}

@test "sc-plan: hostile names inside a root fail with one line, outside the roots they are ignored" {
	local b sub name
	b=$(blob 'def x := 2')
	sub=$(entry 100644 X.lean "$b" | mktree_raw)
	local -a bad=($'ba\nd.lean' '-rf.lean' '--help.lean' '/abs.lean' 'a/../../x.lean' \
		$'\x1b[31mred.lean' '.lean')
	for name in "${bad[@]}"; do
		head_with "$(entry 100644 "$name" "$b" | demo_with)"
		plan
		echo "$name -> $status: $stderr"
		[ "$status" -eq 4 ]
		assert_error_line sc-plan
		grep -q 'unsupported module name' <<<"$stderr"
		# The same name outside every root is not the plan's business.
		entry 100644 "$name" "$b" >"$W/extra"
		head_with "$(demo_with </dev/null)" "$W/extra"
		plan
		[ "$status" -eq 0 ]
		[ "$(jq -r .status <<<"$output")" = no_changes ]
	done
	# Directories named "..", "-x" or with a newline under a root, too.
	for name in .. -x $'new\nline'; do
		head_with "$(entry 40000 "$name" "$sub" | demo_with)"
		plan
		[ "$status" -eq 4 ]
		assert_error_line sc-plan
	done
	# One name twice in a crafted tree: git reports the path twice.
	head_with "$({ entry 100644 A.lean "$b"; entry 100644 A.lean "$A"; } | mktree_raw)"
	plan
	[ "$status" -eq 4 ]
	assert_error_line sc-plan
	grep -q 'a tree lists one path twice: Demo/A.lean' <<<"$stderr"
	# A 255-byte identifier is a fine module name.
	name="$(printf 'L%.0s' $(seq 250)).lean"
	head_with "$(entry 100644 "$name" "$b" | demo_with)"
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r '.files[0].path' <<<"$output")" = "Demo/$name" ]
}

@test "sc-materialize: hostile names are refused before anything is written, nothing lands outside" {
	local b sub name before
	b=$(blob pwned)
	sub=$(entry 100644 pwned "$b" | mktree_raw)
	local -a heads=()
	for name in .. . .git a/../../pwned /pwned ''; do
		head_with "$(entry 40000 "$name" "$sub" | demo_with)"
		heads+=("$H")
	done
	before=$(outside)
	for H in "${heads[@]}"; do
		materialize "$W/box/out"
		echo "$status: $stderr"
		[ "$status" -eq 2 ]
		assert_error_line sc-materialize
		[ ! -e "$W/box/out" ]
	done
	diff <(echo "$before") <(outside)
	[ -z "$(ls -A "$W/box")" ]
}

@test "sc-materialize: newline and dash names, 255-byte names, a path of 40 KB are written exactly" {
	local b long deep
	b=$(blob data)
	long=$(printf 'n%.0s' $(seq 255))
	# 200 levels of 200-byte directory names: ten times PATH_MAX.  The
	# chain of tree IDs is computed here, then git writes all 201 trees.
	mkdir "$W/deep"
	deep=$(/usr/bin/python3 -c '
import hashlib, sys
oid, out = bytes.fromhex(sys.argv[1]), sys.argv[2]
entry = b"100644 leaf\0" + oid
for i in range(201):
    body = entry
    oid = hashlib.sha1(b"tree %d\0" % len(body) + body).digest()
    with open(f"{out}/{i}", "wb") as f:
        f.write(body)
    entry = b"40000 %03d" % (i + 1) + b"d" * 197 + b"\0" + oid
print(oid.hex())
' "$b" "$W/deep")
	ls "$W"/deep/* | git -C "$R" hash-object --literally -t tree -w --stdin-paths >/dev/null
	rm -r "$W/deep"
	head_with "$({
		entry 100644 $'new\nline.lean' "$b"
		entry 100644 '-rf' "$b"
		entry 100644 '--help' "$b"
		entry 100644 "$long" "$b"
		entry 40000 deep "$deep"
	} | demo_with)"
	local before
	before=$(outside)
	materialize "$W/box/out"
	[ "$status" -eq 0 ]
	jq -e '.files == 7 and .directories == 202' <<<"$output"
	[ "$(cat "$W/box/out/Demo/new"$'\n'"line.lean")" = data ]
	[ "$(cat -- "$W/box/out/Demo/-rf")" = data ]
	[ "$(cat -- "$W/box/out/Demo/$long")" = data ]
	local leaf
	leaf=$(find "$W/box/out/Demo/deep" -name leaf)
	[ "${#leaf}" -gt 40000 ]
	[ "$(find "$W/box/out/Demo/deep" -type f -name leaf -size 4c | wc -l)" -eq 1 ]
	diff <(echo "$before") <(outside)
}

@test "256- and 300-byte names: planned if they are identifiers, one clean error line when written, nothing outside" {
	local b before long
	b=$(blob data)
	head_with "$(entry 100644 "$(printf 'L%.0s' $(seq 295)).lean" "$b" | demo_with)"
	long=$H
	head_with "$(entry 100644 "$(printf 'n%.0s' $(seq 256))" "$b" | demo_with)"
	before=$(outside)
	materialize "$W/box/out"
	[ "$status" -eq 2 ]
	assert_error_line sc-materialize
	grep -qi 'name too long' <<<"$stderr"
	# A 300-byte Lean identifier under a root: a fine module name for the
	# plan, a clean error when it is written.
	H=$long
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r '.files[0].change' <<<"$output")" = added ]
	materialize "$W/box/out2"
	[ "$status" -eq 2 ]
	assert_error_line sc-materialize
	grep -qi 'name too long' <<<"$stderr"
	diff <(echo "$before") <(outside)
}

@test "10,000 entries: sc-plan refuses them under a root and ignores them outside; sc-materialize writes them all" {
	local b
	b=$(blob 'def x := 3')
	/usr/bin/python3 -c '
import sys
oid = bytes.fromhex(sys.argv[1])
sys.stdout.buffer.write(b"".join(b"100644 F%05d.lean\0" % i + oid for i in range(1, 10001)))
' "$b" >"$W/many.bin"
	local many
	many=$(mktree_raw <"$W/many.bin")
	# Under the library root: far more than profile.maxFiles changed files.
	head_with "$(entry 40000 Big "$many" | demo_with)"
	local t0=$SECONDS
	plan
	[ "$status" -eq 4 ]
	assert_error_line sc-plan
	grep -q '10000 changed Lean files, more than 256 (profile.maxFiles)' <<<"$stderr"
	# Outside the roots: ignored; and all 10,001 files are written.
	entry 40000 data "$many" >"$W/extra"
	head_with "$(demo_with </dev/null)" "$W/extra"
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r .status <<<"$output")" = no_changes ]
	materialize "$W/box/out"
	[ "$status" -eq 0 ]
	jq -e '.files == 10002' <<<"$output"
	[ "$(find "$W/box/out/data" -type f | wc -l)" -eq 10000 ]
	echo "two plans and a materialize of 10,000 entries: $((SECONDS - t0)) s"
	[ -n "${SC_VALGRIND:-}" ] || [ $((SECONDS - t0)) -lt 60 ]
}

@test "a blob twice the memory bound: sc-plan never reads it (peak RSS far below its size)" {
	# sc-materialize's streaming of a big blob is t/materialize.bats' 50 MiB
	# test, with a tighter bound (its own VmHWM, floor + 8 MiB); here what
	# only a blob bigger than the bound shows: planning it costs no memory.
	truncate -s 128M "$W/zero"
	local big
	big=$(git -C "$R" hash-object -w "$W/zero")
	rm -f "$W/zero"
	head_with "$(entry 100644 Big.lean "$big" | demo_with)"
	/usr/bin/time -f '%M' -o "$W/plan.rss" sc-plan --repo "$R" --tooling "$M" --base "$M" --head "$H" >"$W/plan.json"
	[ "$(jq -r '.files[0].path' "$W/plan.json")" = Demo/Big.lean ]
	echo "peak RSS: sc-plan $(cat "$W/plan.rss") KiB"
	[ -z "${SC_VALGRIND:-}" ] || skip "under check-valgrind the peak is valgrind's"
	[ "$(cat "$W/plan.rss")" -lt $((64 << 10)) ]
}

@test "error lines quote hostile names without control bytes" {
	local evil
	evil=$(printf '%s/x\033]0;pwned\007\033[31m' "$W")
	run --separate-stderr sc-plan --repo "$evil" --tooling "$M" --base "$M" --head "$M"
	assert_error_line sc-plan
	[[ "$stderr" == *'x\x1b]0;pwned\x07\x1b[31m'* ]]
	run ! env LC_ALL=C grep -q "$(printf '[\001-\037\177]')" < <(printf '%s' "$stderr")
}

# bomb_tree LEVELS: a tree of LEVELS levels of ten folders over ten files,
# 10^(LEVELS+1) paths from a few kilobytes of objects; prints its ID.
bomb_tree() {
	local t b
	b=$(blob 'def x := 1')
	t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '100644 blob %s\tF%s.lean\n' "$b" "$i"; done | git -C "$R" mktree)
	for _ in $(seq "$1"); do
		t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '040000 tree %s\tD%s\n' "$t" "$i"; done | git -C "$R" mktree)
	done
	echo "$t"
}

@test "a tree bomb under a root: sc-plan counts what differs before git diffs it (exit 4, not measured) in bounded memory; outside the roots it costs nothing" {
	local bomb
	bomb=$(bomb_tree 6)
	head_with "$(entry 40000 Bomb "$bomb" | demo_with)"
	run --separate-stderr /usr/bin/time -f '%M' -o "$W/cost" sc-plan --repo "$R" --tooling "$M" --base "$M" --head "$H"
	[ "$status" -eq 4 ]
	assert_error_line sc-plan
	[ "$stderr" = "sc-plan: error: not measured: more than 250000 files and folders differ under the roots, far more than a pull request changes (merge base..head)" ]
	# git diff-tree on these ten million paths holds gigabytes
	[ "$(tail -n 1 "$W/cost")" -lt $((64 << 10)) ]
	# outside the roots: never listed, with importers as without
	entry 40000 Bomb "$bomb" >"$W/extra"
	head_with "$(entry 100644 A.lean "$(blob 'def a := 2')" | mktree_raw)" "$W/extra"
	run --separate-stderr /usr/bin/time -f '%M' -o "$W/cost" sc-plan --repo "$R" --tooling "$M" --base "$M" --head "$H" --importers 4
	[ "$status" -eq 0 ]
	[ "$(jq -r '.files[].path' <<<"$output")" = Demo/A.lean ]
	[ "$(tail -n 1 "$W/cost")" -lt $((64 << 10)) ]
}
