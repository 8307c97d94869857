#!/usr/bin/env bats
# Packaging as Debian expects: the caller's CPPFLAGS/CFLAGS/LDFLAGS reach
# every compile and link, -Werror only for development, install paths as
# variables with DESTDIR, and an uninstall that removes what install put.
load helpers
bats_require_minimum_version 1.5.0

# The self-tests run the installed sc-pid1, under the test's folder, as the
# sandbox user: it must reach it (alone, the file failed; it passed only when
# another file's test had opened the run's folders).
setup() {
	unset MAKEFLAGS MFLAGS MAKELEVEL DEVELOPER SAN
	sandbox_reach "$BATS_TEST_TMPDIR"
}

# Not two tests at once under make check's bats --jobs: the install tests
# make into the one build folder with other paths (paths.h, relinks) while
# the others read its binaries.
BATS_NO_PARALLELIZE_WITHIN_FILE=true

setup_file() {
	command -v dpkg-buildflags >/dev/null || skip "no dpkg-buildflags (dpkg-dev)"
	SRC=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	export SRC PKG=$BATS_FILE_TMPDIR/pkg
	export DEB_BUILD_MAINT_OPTIONS=hardening=+all
	# Not the calling make's variables (make check passes DEVELOPER=1 and
	# check-asan SAN=... down, in MAKEFLAGS and the environment): a
	# packager's clean build.
	unset MAKEFLAGS MFLAGS MAKELEVEL DEVELOPER SAN
	PKG_CPPFLAGS=$(dpkg-buildflags --get CPPFLAGS)
	PKG_CFLAGS=$(dpkg-buildflags --get CFLAGS)
	PKG_LDFLAGS=$(dpkg-buildflags --get LDFLAGS)
	export PKG_CPPFLAGS PKG_CFLAGS PKG_LDFLAGS
	# Built once, with the paths of the first install test: its install then
	# only copies (other flags or paths would rebuild or relink).
	make -C "$SRC" BUILD="$PKG" CPPFLAGS="$PKG_CPPFLAGS" CFLAGS="$PKG_CFLAGS" LDFLAGS="$PKG_LDFLAGS" \
		prefix=/usr libexecdir=/usr/libexec mandir=/usr/share/man \
		all fixture >"$BATS_FILE_TMPDIR/build.log" 2>&1
}

# pkg_vars VAR=VALUE...: $vars, make's variables for this build folder, its
# flags and the given paths.
pkg_vars() {
	vars=(BUILD="$PKG" CPPFLAGS="$PKG_CPPFLAGS" CFLAGS="$PKG_CFLAGS" LDFLAGS="$PKG_LDFLAGS" "$@")
}

@test "dpkg-buildflags reach every compile and link line, the standalone programs and the fixture included" {
	for b in sc-confine sc-pid1 sc-sandbox-probe; do
		[ -x "$PKG/$b" ]
	done
	[ -x "$PKG/fixture/toolchain/bin/lean" ]
	run grep -E '^(cc|gcc|\$\(CC\)) ' "$BATS_FILE_TMPDIR/build.log"
	[ "$status" -eq 0 ]
	read -ra cflags <<<"$(cd "$SRC" && dpkg-buildflags --get CPPFLAGS) $(cd "$SRC" && dpkg-buildflags --get CFLAGS)"
	read -ra ldflags <<<"$(dpkg-buildflags --get LDFLAGS)"
	[[ " ${cflags[*]} " == *" -D_FORTIFY_SOURCE=2 "* ]]
	[[ " ${ldflags[*]} " == *" -Wl,-z,now "* ]]
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		for f in "${cflags[@]}"; do
			[[ "$line " == *" $f "* ]] || { echo "missing $f: $line"; false; }
		done
		[[ "$line" != *" -c "* ]] || continue
		for f in "${ldflags[@]}"; do
			[[ "$line " == *" $f "* ]] || { echo "link without $f: $line"; false; }
		done
	done <<<"$output"
	[ "$n" -ge 10 ]
	# ... and are in the binaries: full RELRO (the standalone programs are
	# static: no dynamic section, nothing to bind).
	for b in sphereceti sc-plan sc-sandbox-exec sc-confine sc-pid1 sc-sandbox-probe; do
		readelf -lW "$PKG/$b" | grep -q GNU_RELRO
		case $b in sc-confine | sc-pid1 | sc-sandbox-probe) continue ;; esac
		readelf -dW "$PKG/$b" | grep -qE 'BIND_NOW|FLAGS.*NOW'
	done
	# static: nothing loaded from a /usr candidate code could have touched
	for b in sc-confine sc-pid1 sc-sandbox-probe; do
		run readelf -lW "$PKG/$b"
		[[ "$output" != *INTERP* ]]
	done
}

@test "a distribution build does not turn warnings into errors; DEVELOPER=1 and make check do" {
	run grep -c -- '-Werror ' "$BATS_FILE_TMPDIR/build.log"
	[ "$output" = 0 ]
	run make -s -n -C "$SRC" BUILD="$PKG" DEVELOPER=1 "$PKG/common/util/die.o" -W common/util/die.c
	[ "$status" -eq 0 ]
	[[ "$output" == *" -Werror "* ]]
	run make -n -C "$SRC" BUILD="$PKG" check
	[ "$status" -eq 0 ]
	[[ "$output" == *"DEVELOPER=1 check-lint check-layers check-shape check-unit check-bats"* ]]
}

@test "install honours DESTDIR, bindir, libexecdir and mandir; uninstall removes it all" {
	local d=$BATS_TEST_TMPDIR/dest
	pkg_vars DESTDIR="$d" prefix=/usr bindir=/usr/bin libexecdir=/usr/libexec mandir=/usr/share/man
	make -C "$SRC" "${vars[@]}" install >"$BATS_TEST_TMPDIR/install.log"
	# built in setup_file with the same flags and paths: install only
	# copies, as a packager's make then make install does
	run grep -E '^(cc|gcc) ' "$BATS_TEST_TMPDIR/install.log"
	[ "$status" -eq 1 ]
	for b in sphereceti sc-plan sc-materialize sc-sandbox-exec sc-parse-time sc-report sc-profile-run; do
		[ -x "$d/usr/bin/$b" ]
	done
	for b in sc-confine sc-pid1 sc-sandbox-probe; do
		[ -x "$d/usr/libexec/sphereceti/$b" ]
		[ ! -e "$d/usr/bin/$b" ]
	done
	[ -f "$d/usr/share/man/man1/sc-profile-run.1" ]
	[ -f "$d/usr/share/man/man1/sphereceti.1" ]
	# completion where bash-completion looks (its pkg-config completionsdir
	# under our datadir), one name per program
	[ -f "$d/usr/share/bash-completion/completions/sphereceti" ]
	for b in sc-plan sc-materialize sc-sandbox-exec sc-parse-time sc-report sc-profile-run; do
		[ "$(readlink "$d/usr/share/bash-completion/completions/$b")" = sphereceti ]
	done
	cmp "$SRC/contrib/completion/sphereceti.bash" "$d/usr/share/bash-completion/completions/sphereceti"
	run find "$d" -type f -path '*gen*'
	[ -z "$output" ]
	if [ -z "${SC_VALGRIND:-}" ]; then
		run --separate-stderr "$d/usr/bin/sphereceti" sandbox-exec --self-test
		[ "$status" -eq 0 ]
		run --separate-stderr env MANPAGER=cat MANPATH=/nonexistent "$d/usr/bin/sphereceti" help report
		[ "$status" -eq 0 ]
		[[ "$output" == SC-REPORT\(1\)* ]]
	fi
	make -s -C "$SRC" "${vars[@]}" uninstall >/dev/null
	run find "$d" -type f
	[ -z "$output" ]
	run find "$d" -type l
	[ -z "$output" ]
}

@test "a libexecdir and mandir apart from bindir are built in: sc-pid1 and the pages are found there" {
	[ -z "${SC_VALGRIND:-}" ] || skip "needs the real binaries, not valgrind's wrappers"
	local p=$BATS_TEST_TMPDIR/p
	pkg_vars prefix="$p/usr" libexecdir="$p/lib/pkg" mandir="$p/doc/man"
	make -s -C "$SRC" "${vars[@]}" install >/dev/null
	for b in sc-confine sc-pid1 sc-sandbox-probe; do
		[ -x "$p/lib/pkg/sphereceti/$b" ]
	done
	[ ! -e "$p/usr/libexec" ]
	[ -f "$p/usr/share/bash-completion/completions/sphereceti" ]
	run --separate-stderr "$p/usr/bin/sphereceti" sandbox-exec --self-test
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run --separate-stderr env MANPAGER=cat MANPATH=/nonexistent "$p/usr/bin/sphereceti" help plan
	[ "$status" -eq 0 ]
	[[ "$output" == SC-PLAN\(1\)* ]]
	make -s -C "$SRC" "${vars[@]}" uninstall >/dev/null
	run find "$p" -type f
	[ -z "$output" ]
}
