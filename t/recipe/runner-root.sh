#!/bin/bash
# runner-root.sh DIR: a Debian root shaped like GitHub's ubuntu-24.04 runner,
# as far as the recipe in contrib/github/ can tell, built once and kept.
#
# What it holds: debootstrap's minbase (the essential and required
# packages), the runner image's vital packages (actions/runner-images,
# images/ubuntu/toolsets/toolset-2404.json, apt.vital_packages), the
# image's packages the recipe's steps call (pkg-config, dpkg-dev, sudo,
# time, parallel, git, python3), and a `runner` user with passwordless sudo,
# as the image has.  Nothing sphereceti installs for itself (libyajl-dev,
# libseccomp-dev, bubblewrap): the recipe's own install step must bring
# those, and make check-recipe proves it does.
#
# Packages come from the mirror this machine's apt sources name, for this
# machine's release.  DIR/.stamp records the list: a root built from
# another list is built again; the same list is reused as it is (the
# recipe replay never writes into DIR: it runs on an overlay).
set -euo pipefail
root=${1:?usage: runner-root.sh DIR}
vital=(bzip2 curl g++ gcc make jq tar unzip wget)
image=(pkg-config dpkg-dev sudo time parallel git python3 ca-certificates)
# shellcheck disable=SC1091
. /etc/os-release
suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/\?$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(http[^ ]*\/debian\)\/\? .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
include=$(IFS=,; echo "${vital[*]},${image[*]}")
stamp="minbase $suite $mirror $include runner-sudo-v1"
if [ -f "$root/.stamp" ] && [ "$(cat "$root/.stamp")" = "$stamp" ]; then
	exit 0
fi
command -v debootstrap >/dev/null || {
	echo "runner-root: error: debootstrap is not installed (contrib/install-deps.sh all)" >&2
	exit 2
}
tmp=$root.new
rm -rf "$tmp"
mkdir -p "$(dirname "$root")"
echo "runner-root: debootstrap --variant=minbase $suite from $mirror into $tmp" >&2
debootstrap --variant=minbase --include="$include" "$suite" "$tmp" "$mirror" >"$tmp.log" 2>&1 || {
	tail -n 20 "$tmp.log" >&2
	echo "runner-root: error: debootstrap failed (log: $tmp.log)" >&2
	exit 1
}
# The runner's user: uid 1001 as on GitHub's images, passwordless sudo.
chroot "$tmp" /usr/sbin/groupadd -g 1001 runner
chroot "$tmp" /usr/sbin/useradd -m -u 1001 -g 1001 -s /bin/bash runner
printf 'runner ALL=(ALL) NOPASSWD:ALL\n' >"$tmp/etc/sudoers.d/runner"
chmod 0440 "$tmp/etc/sudoers.d/runner"
cp /etc/resolv.conf "$tmp/etc/resolv.conf" 2>/dev/null || true
rm -rf "$tmp"/var/cache/apt/archives/*.deb
printf '%s\n' "$stamp" >"$tmp/.stamp"
rm -rf "$root" "$tmp.log"
mv "$tmp" "$root"
echo "runner-root: ready: $root" >&2
