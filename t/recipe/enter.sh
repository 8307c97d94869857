#!/bin/bash
# enter.sh LOWER SCRATCH BINDS -- CMD...: run CMD as root inside the root
# file system LOWER, never writing it: an overlay whose upper layer is
# SCRATCH/upper, entered with pivot_root in a mount and PID namespace of
# its own (run it under `unshare --mount --pid --fork`), with a fresh
# /proc, /dev and /sys of the host, private /tmp and /run, and the folders
# BINDS names ("SOURCE TARGET ro|rw" per line) bound in.
#
# pivot_root, not chroot: the kernel refuses a new user namespace to a
# chrooted process (CLONE_NEWUSER is EPERM when the caller's root is not
# its mount namespace's root), and bubblewrap needs one.
set -euo pipefail
lower=$1 scratch=$2 binds=$3
shift 3
[ "${1:-}" = -- ] && shift
new=$scratch/root
mkdir -p "$scratch/upper" "$scratch/work" "$new"
mount --make-rprivate /
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$scratch/upper,workdir=$scratch/work" "$new"
mount --rbind /dev "$new/dev"
mount -t proc proc "$new/proc"
mount --rbind /sys "$new/sys"
mount -t tmpfs -o mode=1777 tmpfs "$new/tmp"
mount -t tmpfs -o mode=0755 tmpfs "$new/run"
while read -r src dst mode; do
	[ -n "$src" ] || continue
	mkdir -p "$new$dst"
	mount --bind "$src" "$new$dst"
	if [ "$mode" = ro ]; then
		mount -o remount,bind,ro "$new$dst"
	fi
done <"$binds"
cp /etc/resolv.conf "$new/etc/resolv.conf"
printf '127.0.1.1\t%s\n' "$(hostname)" >>"$new/etc/hosts"
cd "$new"
mkdir -p .oldroot
pivot_root . .oldroot
cd /
umount -l /.oldroot
rmdir /.oldroot
exec "$@"
