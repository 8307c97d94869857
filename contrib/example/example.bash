# Building blocks for a small Lake project in a Git repository, shaped like
# a Mathlib-style downstream project: lean-toolchain, lakefile.toml, a
# lake-manifest.json naming one Git dependency, a .sphereceti with library
# and roadmap roots and the bubblewrap pin of this machine.  Used by
# contrib/demo.sh and by the test suites (t/lib/project.bash).
#
# Sources use the fixture toolchain's directive comments
# (`-- fixture: cpu=S` etc., see t/fixture/README); a real Lean ignores them.

EX_LEAN_VERSION=${EX_LEAN_VERSION:-4.34.0-rc1}

ex_git() { git -c init.defaultBranch=main -c core.autocrlf=false "$@"; }

# ex_commit REPO MESSAGE: commit everything in REPO's work tree; prints SHA.
ex_commit() {
	ex_git -C "$1" add -A
	ex_git -C "$1" commit -q --allow-empty -m "$2"
	ex_git -C "$1" rev-parse HEAD
}

# ex_dependency DEPS TOOLCHAIN: a Git checkout DEPS/tinylib with a prebuilt
# .olean, as an operator would prepare it; prints its commit.
ex_dependency() {
	local d="$1/tinylib" tc=$2
	mkdir -p "$d/Tiny"
	ex_git init -q "$d"
	printf 'leanprover/lean4:v%s\n' "$EX_LEAN_VERSION" >"$d/lean-toolchain"
	printf 'name = "tinylib"\n[[lean_lib]]\nname = "Tiny"\n' >"$d/lakefile.toml"
	printf '/.lake\n' >"$d/.gitignore"
	printf -- '-- A dependency module, prebuilt by the operator.\ndef tinyValue : Nat := 42\n' \
		>"$d/Tiny/Core.lean"
	local rev
	rev=$(ex_commit "$d" "tinylib")
	(cd "$d" && "$tc/bin/lake" build +Tiny.Core >/dev/null)
	echo "$rev"
}

# ex_project REPO DEP_REV [LIBRARY_ROOT]: the project skeleton (not committed).
ex_project() {
	local r=$1 rev=$2 lib=${3:-Demo}
	ex_git init -q "$r"
	printf 'leanprover/lean4:v%s\n' "$EX_LEAN_VERSION" >"$r/lean-toolchain"
	printf 'name = "demo"\ndefaultTargets = ["%s"]\n\n[[require]]\nname = "tinylib"\n\n[[lean_lib]]\nname = "%s"\n\n[[lean_lib]]\nname = "Roadmap"\n' \
		"$lib" "$lib" >"$r/lakefile.toml"
	cat >"$r/lake-manifest.json" <<JSON
{"version": "1.1.0",
 "packagesDir": ".lake/packages",
 "packages":
 [{"url": "https://example.invalid/tinylib",
   "type": "git",
   "subDir": null,
   "scope": "",
   "rev": "$rev",
   "name": "tinylib",
   "manifestFile": "lake-manifest.json",
   "inputRev": "main",
   "inherited": false,
   "configFile": "lakefile.toml"}],
 "name": "demo",
 "lakeDir": ".lake"}
JSON
	printf '/.lake\n' >"$r/.gitignore"
	ex_sphereceti "$r" "$lib"
}

# ex_sphereceti REPO LIBRARY_ROOT: configuration pinned to this machine's bwrap.
# No profile.github: the example has no hosted repository to link to.
ex_sphereceti() {
	local bwrap sha ver
	bwrap=$(command -v bwrap)
	sha=$(sha256sum "$bwrap" | cut -d' ' -f1)
	ver=$("$bwrap" --version | sed -n 's/^bubblewrap //p')
	cat >"$1/.sphereceti" <<CFG
[profile]
	library = $2
	roadmap = Roadmap
[sandbox]
	bwrapSha256 = $sha
	bwrapVersion = $ver
CFG
}

# ex_lean REPO PATH [LINES...]: write a Lean source importing the dependency.
ex_lean() {
	local r=$1 p=$2
	shift 2
	mkdir -p "$(dirname "$r/$p")"
	{
		printf 'import Tiny.Core\n\n'
		printf '%s\n' "$@"
	} >"$r/$p"
}

# ex_trusted_build REPO REV DEPS CHECKOUT [CACHE]: the operator's trusted
# build of REV: a fresh clone at CHECKOUT, each prepared dependency of DEPS
# cloned into its .lake/packages as Lake would have it, then `lake build`
# of every library module (the fixture builds only named targets).  With
# CACHE, the build writes Lake's artifact cache there
# (LAKE_ARTIFACT_CACHE=true): what `--cache CACHE` then reads.
ex_trusted_build() {
	local repo=$1 rev=$2 deps=$3 co=$4 cache=${5:-} d tc
	tc=${EX_TOOLCHAIN:?set EX_TOOLCHAIN to the toolchain folder}
	ex_git clone -q "$repo" "$co"
	ex_git -C "$co" checkout -q --detach "$rev"
	mkdir -p "$co/.lake/packages"
	for d in "$deps"/*/; do
		d=${d%/}
		ex_git clone -q "$d" "$co/.lake/packages/${d##*/}"
		ex_git -C "$co/.lake/packages/${d##*/}" checkout -q --detach "$(ex_git -C "$d" rev-parse HEAD)"
	done
	local -a targets
	mapfile -t targets < <(ex_git -C "$co" ls-files '*.lean' | grep -v '^lakefile\.lean$')
	if [ -n "$cache" ]; then
		(cd "$co" && LAKE_CACHE_DIR=$cache LAKE_ARTIFACT_CACHE=true "$tc/bin/lake" build "${targets[@]}" >/dev/null)
	else
		(cd "$co" && "$tc/bin/lake" build "${targets[@]}" >/dev/null)
	fi
}
