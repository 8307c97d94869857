# Small repositories for sc-plan tests, built with git.
# plan_repo [git init flags...]: $R with one commit (tagged "base", T=B=M)
# holding .sphereceti (library Lib, roadmap Lib/Road), Lake configuration
# and three Lean files; the checkout stays on branch "head".

plan_repo() {
	R=$BATS_TEST_TMPDIR/repo
	git init -q "$@" "$R"
	mkdir -p "$R/Lib/Sub" "$R/Lib/Road"
	printf '[profile]\n\tlibrary = Lib\n\troadmap = Lib/Road\n\tgithub = owner/name\n' >"$R/.sphereceti"
	printf 'leanprover/lean4:v4.34.0-rc1\n' >"$R/lean-toolchain"
	printf '{"version": 7, "packagesDir": ".lake/packages", "packages": []}\n' >"$R/lake-manifest.json"
	printf 'name = "demo"\n\n[[lean_lib]]\nname = "Lib"\n' >"$R/lakefile.toml"
	echo 'def a := 1' >"$R/Lib/A.lean"
	echo 'def b := 1' >"$R/Lib/Sub/B.lean"
	echo 'def r := 1' >"$R/Lib/Road/R.lean"
	echo 'docs' >"$R/README.md"
	T=$(pcommit base)
	B=$T
	git -C "$R" tag base
	git -C "$R" checkout -q -b head
}

# plan_template (setup_file) and plan_copy (setup): plan_repo once for a
# file; each test gets a copy (same commit IDs: the dates are fixed), not a
# git init and a commit of its own.
plan_template() {
	BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR plan_repo
	export PLAN_TEMPLATE=$R PLAN_BASE=$T
}
plan_copy() {
	R=$BATS_TEST_TMPDIR/repo
	cp -a "$PLAN_TEMPLATE" "$R"
	T=$PLAN_BASE B=$PLAN_BASE
}

# pcommit MSG: commit everything, print the commit ID.
pcommit() {
	git -C "$R" add -A
	git -C "$R" commit -q --allow-empty -m "$1"
	git -C "$R" rev-parse HEAD
}

# plan [T B H]: run sc-plan (defaults $T $B $H), stderr kept apart.
plan() {
	run --separate-stderr sc-plan --repo "$R" --tooling "${1:-$T}" --base "${2:-$B}" --head "${3:-$H}"
}

# files_of: "change role path" per planned file, from $output.
files_of() { jq -r '.files[] | "\(.change) \(.role) \(.path)"' <<<"$output"; }

# plan_fails PATTERN [T B H]: sc-plan failed with one error line matching,
# exit 2 (bad input).
plan_fails() {
	local pat=$1
	shift
	plan "$@"
	assert_error_line sc-plan
	[[ "$stderr" == *$pat* ]] || { echo "error line lacks '$pat': $stderr"; return 1; }
	[ "$status" -eq 2 ] || { echo "exit $status, not 2 (bad input)"; return 1; }
}

# plan_not_measured PATTERN [T B H]: sc-plan refused a change it does not
# measure: exit 4, one line "sc-plan: error: not measured: ..." matching.
plan_not_measured() {
	local pat=$1
	shift
	plan "$@"
	assert_error_line sc-plan
	[[ "$stderr" == "sc-plan: error: not measured: "*$pat* ]] || { echo "error line lacks 'not measured: ...$pat': $stderr"; return 1; }
	[ "$status" -eq 4 ] || { echo "exit $status, not 4 (not measured)"; return 1; }
}
