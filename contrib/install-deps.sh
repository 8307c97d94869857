#!/bin/bash
# Install the Debian packages sphereceti needs to build, test and run.
# Idempotent: installs only what is missing.  Run as root.
set -euo pipefail
pkgs=(build-essential pkg-config git libyajl-dev check bats bubblewrap time
      clang libclang-rt-14-dev valgrind iproute2 procps jq python3 xxd cmark-gfm)
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
