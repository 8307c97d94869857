# GitHub as the recipe replays see it (t/github.bats, t/recipe/check.sh).
# shellcheck shell=bash

# sphereceti_origin SRC DIR: DIR/sphereceti.git, a bare repository standing
# in for sphereceti's own on GitHub: one commit of SRC's tracked and
# untracked (not ignored) files, as they are now (SRC outside a Git
# checkout, as the mutants' scratch copy is: every file but the build
# folders and .tools).  Sets SC_COMMIT.
sphereceti_origin() {
	local src=$1 dir=$2 w=$2/sphereceti-src
	rm -rf "$w" "$dir/sphereceti.git"
	mkdir -p "$w"
	if git -C "$src" rev-parse --show-toplevel 2>/dev/null | grep -qxF "$(cd "$src" && pwd -P)"; then
		(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$w" 2>/dev/null || true)
	else
		(cd "$src" && tar --exclude='./build*' --exclude=./.git --exclude=./.tools -cf - .) | tar -xf - -C "$w"
	fi
	git -C "$w" init -q
	git -C "$w" add -A
	git -C "$w" commit -q -m "sphereceti, as tested"
	SC_COMMIT=$(git -C "$w" rev-parse HEAD)
	git clone -q --bare "$w" "$dir/sphereceti.git"
	rm -rf "$w"
}

# github_origin SRC DIR TOOLCHAIN BIN: in DIR, the example project
# (contrib/example) set up as a maintainer would, with BIN's `sphereceti
# init` (sc-setup): .sphereceti and the two workflows, pinned to the
# commit of DIR/sphereceti.git (sphereceti_origin), and a bare repository
# DIR/origin.git standing in for GitHub:
#   main               B0 (init's three files), then B (the root module Demo
#                      edited: the saver's second push rebuilds only it;
#                      with ORIGIN_FILES_PER_SHARD=N set, B's .sphereceti
#                      deals N files to a runner: profile.filesPerShard)
#   refs/pull/7/head   H: the example's candidate (Demo/Ring.lean 6x slower)
#   refs/pull/8/head   H8: Demo/Basic.lean reworded, no slower
#   refs/pull/9/head   H9: H with a toolchain bump
# and DIR/cache-store holding B's prepared dependencies under the key the
# workflows compute.  Sets B0, B, H, H8, H9, KEY, SC_COMMIT; commits as the
# caller's GIT_* identity; needs contrib/example/example.bash.
github_origin() {
	local src=$1 dir=$2 tc=$3 bin=$4
	local ex=$dir/example
	mkdir -p "$dir"
	sphereceti_origin "$src" "$dir"
	bash "$src/contrib/example/make-example.sh" "$ex" "$tc" >/dev/null
	# shellcheck disable=SC1091
	. "$ex/revs"
	local r=$ex/repo m
	m=$(ex_git -C "$r" merge-base "$B" "$H")
	# the example came with a .sphereceti: init writes its own
	ex_git -C "$r" rm -q .sphereceti
	# no origin here names a default branch: init is told the base branch
	"$bin/sc-setup" --repo "$r" --sphereceti-commit "$SC_COMMIT" \
		--base-branch "$(ex_git -C "$r" symbolic-ref --short HEAD)" >/dev/null
	B0=$(ex_commit "$r" "sphereceti init")
	ex_lean "$r" Demo.lean 'import Demo.Basic' '-- The library, one more line.' '-- fixture: cpu=0.05'
	[ -z "${ORIGIN_FILES_PER_SHARD:-}" ] ||
		ex_git -C "$r" config -f .sphereceti profile.filesPerShard "$ORIGIN_FILES_PER_SHARD"
	B=$(ex_commit "$r" "Demo: one more line")
	ex_git -C "$r" checkout -q --detach "$m"
	ex_lean "$r" Demo/Basic.lean '-- Basic facts, said again.' '-- fixture: cpu=0.30'
	H8=$(ex_commit "$r" "Demo: reword Basic")
	ex_git -C "$r" checkout -q --detach "$H"
	printf 'leanprover/lean4:v4.35.0\n' >"$r/lean-toolchain"
	H9=$(ex_commit "$r" "bump the toolchain")
	ex_git -C "$r" checkout -q main
	git clone -q --bare "$r" "$dir/origin.git"
	git -C "$dir/origin.git" update-ref refs/pull/7/head "$H"
	git -C "$dir/origin.git" update-ref refs/pull/8/head "$H8"
	git -C "$dir/origin.git" update-ref refs/pull/9/head "$H9"
	KEY=sphereceti-deps-v2-Linux-$(git -C "$r" rev-parse "$B:lean-toolchain")-$(git -C "$r" rev-parse "$B:lake-manifest.json")
	mkdir -p "$dir/cache-store/$KEY/packages"
	cp -a "$ex/deps/tinylib" "$dir/cache-store/$KEY/packages/"
}
