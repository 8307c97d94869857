#!/bin/bash
# make check-mutants: break one rule of Documentation/ at a time in a scratch copy
# of this tree, rebuild, run the tests that should notice, and fail if any
# mutant survives (every test it ran stays green with the rule broken).
#
#   t/mutants/run.sh [NAME-REGEX]      only the mutants whose name matches
#
# The table is t/mutants/mutants.tsv, one mutant a line, tab-separated:
#   NAME  FILE[@FUNCTION]  FROM  TO  TESTS
# FROM must occur exactly once in FILE, or with @FUNCTION once in that C
# function's body (else the table is stale: we fail, never skip); the
# mutant is FILE with FROM replaced by TO there, both literal text.  A row
# keyed on a function survives code moving around it and the same text
# elsewhere in the file: a refactor that keeps behaviour leaves it alone.  TESTS is a ';'-separated list of X.bats:REGEX (bats -f REGEX on
# t/X.bats; X.bats@N:REGEX bounds each test at N seconds, for a mutant that
# makes its test hang) and unit:NAME (the check program t/unit/NAME.c), run
# in order until one fails.  Lines starting with # are comments.
#
# The working tree is never touched: its tracked and untracked-but-not-
# ignored files are copied to a scratch folder once, built once (from this
# tree's build folder: only what is out of date there), and each
# mutant is applied there, rebuilt incrementally (only the touched objects
# recompile) and reverted.  Before any mutant, the unmutated copy must pass
# every test the table names, so a red test cannot pass for a catch.  Tests
# run in their own PID and mount namespaces (unshare, as root) so that
# nothing a mutant leaves running outlives its tests or is seen by other
# suites on the host; each test is bounded by BATS_TEST_TIMEOUT.
#
# Environment: SC_MUTANTS_BASELINE=done (skip the unmutated run: the caller
# has just passed make check on this tree), SC_MUTANTS_TABLE (another table), SC_MUTANTS_DIR (scratch folder; default a new one under
# TMPDIR, removed at the end unless SC_MUTANTS_KEEP=1), SC_MUTANTS_JOBS
# (make -j, default 2), SC_MUTANTS_PAR (mutants tried at once, each in a
# copy of its own, default 2), SC_MUTANTS_TEST_TIMEOUT (seconds per test, 60),
# SC_MUTANTS_SETUP_SECONDS (added to a bats run's bound: the sum of its
# tests' bounds; 30).  A bats run that outlives its bound is a catch: the
# unmutated copy passed the same tests in time.
set -euo pipefail
export LC_ALL=C

SRC=$(cd "$(dirname "$0")/../.." && pwd)
TABLE=${SC_MUTANTS_TABLE:-$SRC/t/mutants/mutants.tsv}
FILTER=${1:-}
JOBS=${SC_MUTANTS_JOBS:-2}
PAR=${SC_MUTANTS_PAR:-2}
[[ $PAR =~ ^[1-9][0-9]*$ ]] || { echo "check-mutants: error: SC_MUTANTS_PAR must be a positive number ($PAR)" >&2; exit 2; }
export BATS_TEST_TIMEOUT=${SC_MUTANTS_TEST_TIMEOUT:-60}
SETUP_SECONDS=${SC_MUTANTS_SETUP_SECONDS:-30}
[[ $SETUP_SECONDS =~ ^[1-9][0-9]*$ ]] || { echo "check-mutants: error: SC_MUTANTS_SETUP_SECONDS must be a positive number ($SETUP_SECONDS)" >&2; exit 2; }
# The copy's build folder is named as the one whose tools the caller tests
# (SC_BIN: build-asan under make check-asan), when that is a folder of this
# tree, and starts as a copy of it: with the same name and the same flags
# (the sanitizers reach us through MAKEFLAGS) make rebuilds only what is
# out of date there, not the whole tree once more (all of it when the flags
# differ: build-flags).
B=build
case ${SC_BIN:-} in "$SRC"/*) [[ ${SC_BIN#"$SRC"/} == */* ]] || B=${SC_BIN#"$SRC"/} ;; esac

die() {
	echo "check-mutants: error: $1" >&2
	exit 2
}

# ---- the table ----

names=() files=() funcs=() froms=() tos=() tests=()
# split_tab LINE: fields of a tab-separated line into $fields (empty kept).
split_tab() {
	local rest=$1
	fields=()
	while [[ $rest == *$'\t'* ]]; do
		fields+=("${rest%%$'\t'*}")
		rest=${rest#*$'\t'}
	done
	fields+=("$rest")
}

# occurrences TEXT NEEDLE: how many times NEEDLE occurs in TEXT.
# function_lines FILE FUNCTION: "FIRST LAST", the lines of FUNCTION's
# definition in FILE (its signature starts a line and, over one line or
# more, ends in "{" where a declaration's ends in ";"; its body ends at the
# first "}" alone on a line), or nothing.
function_lines() {
	awk -v f="$2" '
		!start && !cand && $0 ~ "^[A-Za-z_].*[^A-Za-z0-9_]" f "\\(" { cand = NR }
		cand && !start { if ($0 ~ /;[ \t]*$/) cand = 0; else if ($0 ~ /[{][ \t]*$/) start = cand }
		start && /^}$/ { print start, NR; exit }' "$1"
}

# scoped_text FILE FUNCTION: the text a row's FROM is looked for in: FILE,
# or FUNCTION's lines of it (empty when FUNCTION is not there).
scoped_text() {
	if [ -z "$2" ]; then
		cat "$1"
		return
	fi
	local range
	range=$(function_lines "$1" "$2")
	if [ -n "$range" ]; then
		sed -n "${range% *},${range#* }p" "$1"
	fi
}

# mutate FILE FUNCTION FROM TO OUT: FILE with the one FROM (in FUNCTION,
# when given) replaced by TO, written to OUT.
mutate() {
	local text body
	text=$(<"$1")
	if [ -z "$2" ]; then
		printf '%s\n' "${text/"$3"/"$4"}" >"$5"
		return
	fi
	local range first last
	range=$(function_lines "$1" "$2")
	first=${range% *} last=${range#* }
	body=$(sed -n "${first},${last}p" "$1")
	{
		[ "$first" -gt 1 ] && sed -n "1,$((first - 1))p" "$1"
		printf '%s\n' "${body/"$3"/"$4"}"
		sed -n "$((last + 1)),\$p" "$1"
	} >"$5"
}

occurrences() {
	local without=${1//"$2"/}
	echo $(((${#1} - ${#without}) / ${#2}))
}

# count_tests SUITE REGEX: how many test names of SUITE match REGEX (as
# bats -f matches them).
count_tests() {
	local t n=0
	while IFS= read -r t; do
		[[ $t =~ $2 ]] && n=$((n + 1))
	done < <(sed -n 's/^@test "\(.*\)" {$/\1/p' "$1")
	echo "$n"
}
matches_a_test() { [ "$(count_tests "$1" "$2")" -gt 0 ]; }

read_table() {
	local line n=0 seen=" "
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ -z $line || $line == \#* ]] && continue
		split_tab "$line"
		[ ${#fields[@]} -eq 5 ] || die "line $n has ${#fields[@]} fields, not 5 ($TABLE:$n)"
		local name=${fields[0]} file=${fields[1]%@*} func='' from=${fields[2]} to=${fields[3]} t=${fields[4]}
		[[ ${fields[1]} == *@* ]] && func=${fields[1]#*@}
		[[ $name =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "bad mutant name '$name' ($TABLE:$n)"
		[[ $seen != *" $name "* ]] || die "mutant $name is listed twice ($TABLE:$n)"
		seen+="$name "
		[ -f "$SRC/$file" ] || die "mutant $name: no file $file ($TABLE:$n)"
		[ -n "$from" ] && [ "$from" != "$to" ] || die "mutant $name changes nothing ($TABLE:$n)"
		[ -n "$t" ] || die "mutant $name names no tests ($TABLE:$n)"
		local text count
		text=$(scoped_text "$SRC/$file" "$func")
		[ -n "$text" ] || die "mutant $name: no function $func in $file ($TABLE:$n)"
		count=$(occurrences "$text" "$from")
		[ "$count" -eq 1 ] ||
			die "mutant $name: its pattern occurs $count times in ${fields[1]}, not once: update the table ($TABLE:$n)"
		local spec
		IFS=';' read -r -a specs <<<"$t"
		for spec in "${specs[@]}"; do
			case $spec in
			unit:*) [ -f "$SRC/t/unit/${spec#unit:}.c" ] || die "mutant $name: no unit test ${spec#unit:} ($TABLE:$n)" ;;
			*.bats:?* | *.bats@[1-9]*:?*)
				local suite=${spec%%:*}
				[ -f "$SRC/t/${suite%@*}" ] || die "mutant $name: no suite t/${suite%@*} ($TABLE:$n)"
				matches_a_test "$SRC/t/${suite%@*}" "${spec#*:}" ||
					die "mutant $name: '${spec#*:}' matches no test of t/${suite%@*} ($TABLE:$n)" ;;
			*) die "mutant $name: bad test spec '$spec' ($TABLE:$n)" ;;
			esac
		done
		[ -z "$FILTER" ] || [[ $name =~ $FILTER ]] || continue
		names+=("$name") files+=("$file") funcs+=("$func") froms+=("$from") tos+=("$to") tests+=("$t")
	done <"$TABLE"
	[ ${#names[@]} -gt 0 ] || die "no mutant matches '$FILTER' ($TABLE)"
}

# ---- the scratch copy ----

copy_tree() {
	(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -) | tar -xf - -C "$S"
}

# build [fixture] UNIT...: incremental build of the tools (and the fixture)
# and the named unit tests.
build() {
	local targets=(all) u
	for u in "$@"; do
		if [ "$u" = fixture ]; then targets+=(fixture); else targets+=("$B/t/unit/$u"); fi
	done
	make -C "$S" -j"$JOBS" BUILD="$B" DEVELOPER=1 "${targets[@]}" >>"$LOG" 2>&1
}

# unit_names SPECS...: the unit programs among test specs.
unit_names() {
	local s
	for s in "$@"; do [[ $s == unit:* ]] && echo "${s#unit:}"; done | sort -u
}

# ---- running tests ----

# run_spec SPEC: run one test spec in the scratch tree.  Sets ran (tests
# run), failed (first failing test's name, empty if all passed).
run_spec() {
	local spec=$1 out rc=0
	ran=0 failed=""
	if [[ $spec == unit:* ]]; then
		local u=${spec#unit:}
		out=$(cd "$S" && CK_FORK=yes timeout -k 10 "$BATS_TEST_TIMEOUT" "$B/t/unit/$u" 2>&1) || rc=$?
		printf '%s\n' "$out" >>"$LOG"
		ran=$(printf '%s\n' "$out" | sed -n 's/^[0-9]*%: Checks: \([0-9]*\).*/\1/p' | head -1)
		ran=${ran:-0}
		if [ "$rc" -ne 0 ]; then
			# check: FILE:LINE:F:TCASE:TEST:...  (E for errors)
			failed=$(printf '%s\n' "$out" | awk -F: '$3 == "F" || $3 == "E" { print $5; exit }')
			failed="$u: ${failed:-exit $rc}"
		fi
		return 0
	fi
	local suite=${spec%%:*} regex=${spec#*:} limit=$BATS_TEST_TIMEOUT outer
	if [[ $suite == *@* ]]; then limit=${suite#*@} suite=${suite%@*}; fi
	# bats's own BATS_TEST_TIMEOUT cannot end a test whose `run` waits on
	# a pipe a hung process still holds: the whole bats run is bounded
	# too, at LIMIT per matching test and SETUP_SECONDS for the setups.
	outer=$((limit * $(count_tests "$S/t/$suite" "$regex") + SETUP_SECONDS))
	# A PID and mount namespace of their own: when bats ends, whatever a
	# mutant left running ends too.
	out=$(cd "$S" && SC_BIN="$S/$B" SC_FIXTURE="$S/$B/fixture" BATS_TEST_TIMEOUT=$limit \
		timeout -k 10 "$outer" \
		unshare --pid --fork --mount-proc --kill-child -- \
		bats ${bats_jobs:+--jobs "$bats_jobs"} -f "$regex" "t/$suite" 2>&1) || rc=$?
	printf '%s\n' "$out" >>"$LOG"
	ran=$(printf '%s\n' "$out" | grep -cE '^(not )?ok ' || true)
	failed=$(printf '%s\n' "$out" | sed -n 's/^not ok [0-9]* //p' | head -1)
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		# the unmutated tree passed these tests in time: a hang is noticed
		ran=$((ran + 1))
		failed="$suite: no result within ${outer}s (a test hangs)"
	elif [ "$rc" -ne 0 ] && [ -z "$failed" ]; then
		failed="$suite: exit $rc"
	elif [ -n "$failed" ]; then
		failed="$suite: $failed"
	fi
}

# run_specs SPEC...: in order until one fails.  Sets total, caught.
run_specs() {
	local spec
	total=0 caught=""
	for spec in "$@"; do
		run_spec "$spec"
		total=$((total + ran))
		[ "$ran" -gt 0 ] || { caught="!! $spec ran no test"; return; }
		if [ -n "$failed" ]; then
			caught=$failed
			return
		fi
	done
}

# ---- main ----

read_table
command -v unshare >/dev/null || die "unshare (util-linux) is required"
[ "$(id -u)" = 0 ] || die "run as root: tests run in their own PID namespace (unshare)"

if [ -n "${SC_MUTANTS_DIR:-}" ]; then
	S=$SC_MUTANTS_DIR
	mkdir -p "$S"
	[ -z "$(ls -A "$S")" ] || die "SC_MUTANTS_DIR is not empty ($S)"
else
	S=$(mktemp -d "${TMPDIR:-/tmp}/sc-mutants.XXXXXX")
fi
# the sandbox user (nobody, for a root operator) must reach the fixture
# toolchain and sc-pid1 in the scratch build folder
chmod 0755 "$S"
cleanup() {
	# restore whatever mutant was applied when we were stopped
	[ -z "${applied:-}" ] || cp "$SRC/$applied" "$S/$applied"
	[ "${SC_MUTANTS_KEEP:-0}" = 1 ] || rm -rf "$S" "$S".w*
}
trap cleanup EXIT
LOG="$S/mutants.log"
copy_tree
[ ! -d "$SRC/$B" ] || cp -a "$SRC/$B" "$S/$B"

all_specs=()
for t in "${tests[@]}"; do
	IFS=';' read -r -a specs <<<"$t"
	all_specs+=("${specs[@]}")
done
mapfile -t units < <(unit_names "${all_specs[@]}")
echo "check-mutants: ${#names[@]} mutants; scratch copy $S"
fixture=()
[[ " ${all_specs[*]}" != *".bats"* ]] || fixture=(fixture)
build "${fixture[@]}" "${units[@]}" || { tail -30 "$LOG"; SC_MUTANTS_KEEP=1; die "the unmutated copy does not build ($LOG)"; }

# The unmutated copy passes every test of the table: one bats run per suite
# with the union of its filters.
declare -A union=()
for spec in "${all_specs[@]}"; do
	[[ $spec == unit:* ]] && { union[$spec]=1; continue; }
	s=${spec%%:*} r=${spec#*:}
	s=${s%@*}
	union[$s]="${union[$s]:+${union[$s]}|}($r)"
done
# (each suite's tests side by side, as make check runs them)
t0=$SECONDS
bats_jobs=$(nproc)
# SC_MUTANTS_BASELINE=done: the caller has just run the whole suite green
# on this very tree (.ci/run runs make check first), so the unmutated copy's
# run would repeat it; anything else runs it.
[ "${SC_MUTANTS_BASELINE:-}" != "done" ] || union=()
for key in "${!union[@]}"; do
	if [[ $key == unit:* ]]; then spec=$key; else spec="$key:${union[$key]}"; fi
	run_spec "$spec"
	if [ -n "$failed" ]; then
		tail -40 "$LOG"
		SC_MUTANTS_KEEP=1
		die "the unmutated copy fails $failed: fix that first ($LOG)"
	fi
done
if [ "${SC_MUTANTS_BASELINE:-}" = "done" ]; then
	echo "check-mutants: the unmutated copy is not run again (SC_MUTANTS_BASELINE=done: the suite passed on this tree)"
else
	echo "check-mutants: the unmutated copy passes every listed test ($((SECONDS - t0)) s)"
fi
bats_jobs=

# try_mutant I: apply mutant I in this worker's copy ($S), rebuild, run its
# tests, revert; its table row goes to $RES/I (kind TAB row), its line to
# stdout.
try_mutant() {
	local i=$1 name=${names[$1]} file=${files[$1]} kind=caught t0=$SECONDS text
	total=0
	echo "== $name ($file)" >>"$LOG"
	applied=$file
	mutate "$SRC/$file" "${funcs[$i]}" "${froms[$i]}" "${tos[$i]}" "$S/$file"
	IFS=';' read -r -a specs <<<"${tests[$i]}"
	mapfile -t u < <(unit_names "${specs[@]}")
	if ! build "${u[@]}"; then
		caught="!! does not build" kind=error
	else
		run_specs "${specs[@]}"
		if [ -z "$caught" ]; then
			caught="!! SURVIVED" kind=survivor
		elif [[ $caught == '!!'* ]]; then
			kind=error
		fi
	fi
	# a fresh mtime: make rebuilds the original on the next round
	cp "$SRC/$file" "$S/$file"
	applied=""
	printf '%s\t%s\n' "$kind" "$name"$'\t'"$file"$'\t'"$total: ${tests[$i]}"$'\t'"$caught"$'\t'"$((SECONDS - t0)) s" >"$RES/$i"
	printf '%-26s %-4s %s\n' "$name" "$((SECONDS - t0))s" "$caught"
}

# Mutants run PAR at a time, each worker in a copy of its own: worker 0 in
# $S, worker K in $S.wK, a cp -a of the built $S (so each mutant recompiles
# only what it touched there).  Tests already run in PID and mount
# namespaces of their own, so two mutants' tests cannot see each other's
# processes; the suites are safe to run side by side (make check runs them
# with bats --jobs).  Worker K takes mutants K, K+PAR, ...; the table below
# keeps the table's order.
RES=$S.wres
mkdir -p "$RES"
[ "$PAR" -le "${#names[@]}" ] || PAR=${#names[@]}
workers=()
for ((k = 1; k < PAR; k++)); do
	rm -rf "$S.w$k"
	cp -a "$S" "$S.w$k"
	: >"$S.w$k/mutants.log"
done
for ((k = 0; k < PAR; k++)); do
	(
		if [ "$k" -gt 0 ]; then
			LOG=$S.w$k/mutants.log
			S=$S.w$k
		fi
		trap '[ -z "${applied:-}" ] || cp "$SRC/$applied" "$S/$applied"' EXIT
		for ((i = k; i < ${#names[@]}; i += PAR)); do try_mutant "$i"; done
	) &
	workers+=($!)
done
for w in "${workers[@]}"; do wait "$w" || die "a mutant worker failed (log: $LOG)"; done
rows=() survivors=() errors=()
for i in "${!names[@]}"; do
	[ -f "$RES/$i" ] || die "mutant ${names[$i]} has no result (log: $LOG)"
	IFS=$'\t' read -r kind row <"$RES/$i"
	rows+=("$row")
	case $kind in
	survivor) survivors+=("${names[$i]}") ;;
	error) errors+=("${names[$i]}") ;;
	esac
done
for ((k = 1; k < PAR; k++)); do
	cat "$S.w$k/mutants.log" >>"$LOG"
done

echo
{
	printf 'mutant\tfile\ttests run\tcaught by\ttime\n'
	printf '%s\n' "${rows[@]}"
} | awk -F'\t' '{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
	END { for (r = 1; r <= NR; r++) { for (i = 1; i <= 5; i++) printf "%-*s%s", w[i], c[r, i], i < 5 ? "  " : "\n" } }'
echo
if [ ${#survivors[@]} -gt 0 ] || [ ${#errors[@]} -gt 0 ]; then
	[ ${#survivors[@]} -eq 0 ] || echo "check-mutants: SURVIVED (no listed test notices): ${survivors[*]}"
	[ ${#errors[@]} -eq 0 ] || echo "check-mutants: broken table rows: ${errors[*]} (log: $LOG)"
	SC_MUTANTS_KEEP=1
	echo "check-mutants: scratch copy and log kept in $S"
	exit 1
fi
echo "check-mutants: all ${#names[@]} mutants caught"
