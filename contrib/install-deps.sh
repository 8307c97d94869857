#!/bin/bash
# Install the Debian packages sphereceti needs.  Idempotent: installs only
# what is missing.  Run as root.
#   install-deps.sh run   build and run (what `make demo` needs)
#   install-deps.sh all   run + the test tools of `make check` (the default)
set -euo pipefail
what=${1:-all}
run_pkgs=(build-essential pkg-config git libyajl-dev bubblewrap time man-db)
test_pkgs=(check bats clang libclang-rt-14-dev valgrind iproute2 procps jq python3 xxd cmark-gfm
           python3-yaml groff-base bash-completion)
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
