#!/usr/bin/env bats
# The fixture toolchain (t/fixture/): prove every directive and the `lake
# build` cone behaviour, against the built $SC_FIXTURE/toolchain, no sandbox.
# Run: make BUILD=build-fixture fixture && SC_FIXTURE=$PWD/build-fixture/fixture bats t/fixture.bats

bats_require_minimum_version 1.5.0
load lib/wait
shopt -s inherit_errexit # as t/helpers.bash: $(...) stops at a failure

setup() {
    TC="${SC_FIXTURE:?set SC_FIXTURE to the built fixture directory}/toolchain"
    [ -x "$TC/bin/lean" ]
    [ -x "$TC/bin/lake" ]
    PATH="$TC/bin:$PATH"
    P="$BATS_TEST_TMPDIR/pkg"
    mkdir -p "$P"
    cd "$P"
    echo 'leanprover/lean4:v4.34.0-rc1' > lean-toolchain
    # one library whose globs cover the modules the tests write (Nope stays unknown)
    printf '%s\n' 'name = "pkg"' '[[lean_lib]]' 'name = "Pkg"' \
        'globs = ["A.*", "B.*", "C.*", "D.*", "E.*", "F.*", "P.*", "X.*", "Y.*", "Z.*", "Two.*", "Sub.*"]' > lakefile.toml
}

teardown() {
    # Orphans of orphan-* tests: never leave them behind.
    local pid
    # Only while the PID is still an orphan of this test (its cwd is this
    # test's folder): once it is gone, its PID may be another test's
    # process (the suites run side by side).
    for pid in $(sed -n 's/^orphan-[a-z]* pid=\([0-9]*\) -> started$/\1/p' "$P/.fixture-log" 2>/dev/null); do
        if [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$(readlink -f "$P")" ]; then
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
}

# gitdep NAME: make .lake/packages/NAME a Git checkout (Lake checks its HEAD);
# prints the commit.  .lake/ is ignored, as in real dependencies.
gitdep() {
    local d=".lake/packages/$1"
    mkdir -p "$d"
    printf '/.lake\n' > "$d/.gitignore"
    git -C "$d" init -q
    git -C "$d" add -A
    git -C "$d" -c user.name=t -c user.email=t@t commit -q -m dep
    git -C "$d" rev-parse HEAD
}

# manifest VERSION NAME REV [NAME REV...]: a lake-manifest.json (entries in
# the shape of that version: V6's {"git": {...}} below 7) built with python3's json.
manifest() {
    /usr/bin/python3 - "$@" > lake-manifest.json <<'PY'
import json, sys
ver = json.loads(sys.argv[1]); a = sys.argv[2:]
pk = []
for name, rev in zip(a[0::2], a[1::2]):
    e = {"url": "https://example.invalid/" + name, "rev": rev, "name": name, "inherited": False}
    v6 = ver < 7 if isinstance(ver, int) else isinstance(ver, str) and ver.startswith(("0.5.", "0.6."))
    if v6:
        pk.append({"git": dict(e, **{"inputRev?": "main", "subDir?": None, "opts": {}})})
    else:
        pk.append(dict(e, type="git", subDir=None, scope="", inputRev="main", configFile="lakefile.toml"))
import os
print(json.dumps({os.environ.get("MANIFEST_KEY", "version"): ver, "packagesDir": ".lake/packages", "packages": pk, "name": "root", "lakeDir": ".lake"}))
PY
}

# mod A.B 'line' 'line'...: write A/B.lean in the cwd
mod() {
    local f="${1//.//}.lean"
    shift
    mkdir -p "$(dirname "$f")"
    printf '%s\n' "$@" > "$f"
}

# cpu CMD...: run CMD under GNU time; $cpu = user+system seconds, $rc = status
cpu() {
    rc=0
    /usr/bin/time -f '%U %S' -o "$BATS_TEST_TMPDIR/time" "$@" > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" 3>&- || rc=$?
    cpu=$(tail -n 1 "$BATS_TEST_TMPDIR/time" | awk '{ printf "%.2f", $1 + $2 }')
}

# between X LO HI: LO <= X <= HI
between() {
    awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }' || {
        echo "expected $1 in [$2, $3]" >&2
        return 1
    }
}

wait_gone() { wait_for "$2" gone "$1"; } # wait_gone PID SECONDS

# logged LINE: .fixture-log has LINE.
logged() { grep -qx -- "$1" .fixture-log 2>/dev/null; }

# ---- versions and shape ----

@test "lean and lake --version print real-looking lines from lib/fixture-version" {
    run lean --version
    [ "$status" -eq 0 ]
    [[ "$output" =~ ^Lean\ \(version\ 4\.34\.0-rc1,\ [a-z0-9_]+-unknown-linux-gnu,\ commit\ 0123456789abcdef,\ Release\)$ ]]
    run lake --version
    [ "$status" -eq 0 ]
    [ "$output" = "Lake version 5.0.0-0123456 (Lean version 4.34.0-rc1)" ]
    [ "$(cat "$TC/lib/fixture-version")" = "4.34.0-rc1" ]
}

@test "a copied toolchain with an edited fixture-version reports that version; the original does not change" {
    cp -a "$TC" "$BATS_TEST_TMPDIR/tc2"
    echo 4.99.0 > "$BATS_TEST_TMPDIR/tc2/lib/fixture-version"
    run "$BATS_TEST_TMPDIR/tc2/bin/lean" --version
    [[ "$output" == "Lean (version 4.99.0, "* ]]
    run "$BATS_TEST_TMPDIR/tc2/bin/lake" --version
    [ "$output" = "Lake version 5.0.0-0123456 (Lean version 4.99.0)" ]
    run lean --version
    [[ "$output" == "Lean (version 4.34.0-rc1, "* ]]
    # an empty environment, as the profiler's check runs it
    run env -i "$BATS_TEST_TMPDIR/tc2/bin/lean" --version
    [[ "$output" == "Lean (version 4.99.0, "* ]]
    rm "$BATS_TEST_TMPDIR/tc2/lib/fixture-version"
    run "$BATS_TEST_TMPDIR/tc2/bin/lean" --version
    [ "$status" -ne 0 ]
}

@test "bin/lean and bin/lake are dynamic ELF binaries needing lib/libfixturelean.so via \$ORIGIN/../lib" {
    for b in lean lake; do
        [ "$(head -c 4 "$TC/bin/$b" | od -An -c | tr -d ' ')" = '177ELF' ]
        run readelf -d "$TC/bin/$b"
        [[ "$output" == *"(NEEDED)"*"[libfixturelean.so]"* ]]
        [[ "$output" == *"(NEEDED)"*"[libc.so.6]"* ]]
        [[ "$output" == *"[\$ORIGIN/../lib]"* ]]
    done
    cp -a "$TC" "$BATS_TEST_TMPDIR/tc3"
    rm "$BATS_TEST_TMPDIR/tc3/lib/libfixturelean.so"
    run -127 "$BATS_TEST_TMPDIR/tc3/bin/lean" --version
    [[ "$output" == *libfixturelean.so* ]]
}

# ---- lake build ----

@test "lake build builds exactly the import cone, in dependency order" {
    mod C 'def c := 1'
    mod Sub.B '-- a comment' '/- a /- nested -/ block -/' 'import C' 'def b := 1'
    mod A 'import Sub.B' 'import C' 'import Lean' 'def a := 1'
    mod D 'import C'
    mod E 'def e := 1'
    run lake build A
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "Built C" ]
    [ "${lines[1]}" = "Built Sub.B" ]
    [ "${lines[2]}" = "Built A" ]
    [ "${lines[3]}" = "Build completed successfully (3 built)." ]
    [ "${#lines[@]}" -eq 4 ]
    [ -s .lake/build/lib/lean/A.olean ]
    [ -s .lake/build/lib/lean/Sub/B.olean ]
    [ -s .lake/build/lib/lean/C.olean ]
    [ ! -e .lake/build/lib/lean/D.olean ]
    [ ! -e .lake/build/lib/lean/E.olean ]
    [ ! -e .lake/build/lib/lean/Lean.olean ] # toolchain core module, not rebuilt
}

@test "lake build is incremental: nothing when up to date, the reverse cone after an edit" {
    mod C 'def c := 1'
    mod B 'import C'
    mod A 'import B'
    mod X 'def x := 1'
    lake build A X
    run lake build A
    [ "$output" = "Build completed successfully (0 built)." ]
    echo '-- edited' >> B.lean
    run lake build +A
    [ "${lines[0]}" = "Built B" ]
    [ "${lines[1]}" = "Built A" ]
    [ "${#lines[@]}" -eq 3 ]
    echo '-- edited' >> C.lean
    run lake build A.lean X
    [ "$output" = "$(printf 'Built C\nBuilt B\nBuilt A\nBuild completed successfully (3 built).')" ]
}

@test "headers are read as Lake's parseImports' reads them: import«A».B, a keyword as a prefix, escapes, the module system" {
    mod C 'def c := 1'
    mod B 'def b := 1'
    mod D 'def d := 1'
    printf 'import\xc2\xabC\xc2\xbb\nimportB\n/- x --/ import D -/\ndef a := 1\n' > A.lean
    run lake build A
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | grep '^Built ' | sort | tr '\n' ' ')" = "Built A Built B Built C " ]
    printf 'module\npublic meta import all \xc2\xabD\xc2\xbb\n' > E.lean
    run lake build E
    [ "$status" -eq 0 ]
    [[ "$output" == *"Built D"* ]]
    # a modifier without `module` is an error, as parseImports' says
    printf 'public import D\n' > F.lean
    run lake build F
    [ "$status" -eq 1 ]
}

@test "lake build with no target builds the defaultTargets: a lean_lib's glob-matched modules, a module; none, nothing" {
    mod A 'def a := 1'
    run lake build
    [ "$status" -eq 0 ]
    [ "$output" = "Build completed successfully (0 built)." ]
    [ ! -e .lake ]
    # A lean_lib: each glob's modules with their import cones (Config/Glob.lean).
    printf '%s\n' 'name = "pkg"' 'defaultTargets = ["L", "X"]' '[[lean_lib]]' 'name = "L"' \
        'globs = ["S.*", "T.+", "U"]' '[[lean_lib]]' 'name = "Other"' 'globs = ["X", "Y"]' > lakefile.toml
    mod S 'import S.a'
    mod S.a 'def x := 1'
    mod T 'def t := 1'
    mod T.b.c 'def x := 1'
    mod U 'def u := 1'
    mod U.v 'def x := 1'
    mod X 'def x := 1'
    mod Y 'def y := 1'
    run lake build
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | grep '^Built ' | sort | tr '\n' ' ')" = "Built S Built S.a Built T.b.c Built U Built X " ]
    # An unknown default target fails as Lake's would.
    printf '%s\n' 'name = "pkg"' 'defaultTargets = ["Nope"]' '[[lean_lib]]' 'name = "L"' > lakefile.toml
    run lake build
    [ "$status" -eq 1 ]
    [[ "$output" == *"unknown target \`Nope\`"* ]]
}

@test "lake build needs lean-toolchain at the package root" {
    mod A 'def a := 1'
    rm lean-toolchain
    run lake build A
    [ "$status" -ne 0 ]
    [[ "$output" == *lean-toolchain* ]]
    [ ! -e .lake ]
}

@test "a missing import, an unknown target and an import cycle fail the build" {
    mod A 'import B' 'import Nope.Missing'
    mod B 'def b := 1'
    run lake build A
    [ "$status" -ne 0 ]
    [[ "$output" == *"bad import 'Nope.Missing'"* ]]
    [ ! -e .lake/build/lib/lean/A.olean ]
    run lake build Nope
    [ "$status" -ne 0 ]
    [[ "$output" == *'unknown module `Nope`'* ]]
    mod X 'import Y'
    mod Y 'import Z'
    mod Z 'import X'
    run lake build X
    [ "$status" -ne 0 ]
    [[ "$output" == *"import cycle"* ]]
    [ ! -e .lake/build/lib/lean/X.olean ]
}

@test "-- fixture: build-fail fails the build after its imports were built" {
    mod B 'def b := 1'
    mod A 'import B' '-- fixture: build-fail'
    run lake build A
    [ "$status" -ne 0 ]
    [[ "$output" == *"build failing as asked"* ]]
    [ -e .lake/build/lib/lean/B.olean ]
    [ ! -e .lake/build/lib/lean/A.olean ]
}

@test "-- fixture: build-cpu=0.5 burns CPU in lake build, not when up to date" {
    mod A '-- fixture: build-cpu=0.5'
    cpu lake build A
    [ "$rc" -eq 0 ]
    between "$cpu" 0.4 2
    cpu lake build A
    [ "$rc" -eq 0 ]
    between "$cpu" 0 0.2
    # lean ignores build directives
    cpu lean -j1 A.lean
    [ "$rc" -eq 0 ]
    between "$cpu" 0 0.2
}

# depdir NAME LIB: a dependency package NAME with one lean_lib LIB (its lakefile.toml).
depdir() {
    mkdir -p ".lake/packages/$1"
    printf 'name = "%s"\n[[lean_lib]]\nname = "%s"\n' "$1" "$2" > ".lake/packages/$1/lakefile.toml"
    cp lean-toolchain ".lake/packages/$1/"
}

@test "dependency modules are found only through the dependency's lean_libs; built in it, they are replayed, not rebuilt" {
    depdir dep Dep
    mkdir -p .lake/packages/dep/Dep .lake/packages/other/Dep
    printf 'def d := 1\n-- fixture: build-cpu=0.3\n' > .lake/packages/dep/Dep/Core.lean
    echo 'def stray := 1' > .lake/packages/other/Dep/Stray.lean # no lean_lib of other has it
    manifest '"1.1.0"' dep "$(gitdep dep)" other "$(gitdep other)"
    mod A 'import Dep.Core' 'def a := 1'
    (cd .lake/packages/dep && lake build Dep.Core >/dev/null) # the operator's build, in the dependency
    [ -s .lake/packages/dep/.lake/build/lib/lean/Dep/Core.olean.hash ]
    grep -q '^depHash ' .lake/packages/dep/.lake/build/lib/lean/Dep/Core.trace
    cpu lake build A
    [ "$rc" -eq 0 ]
    between "$cpu" 0 0.25 # Dep.Core's 0.3 s build is not paid again
    [ "$(head -1 "$BATS_TEST_TMPDIR/out")" = "Built A" ]
    [ ! -e .lake/build/lib/lean/Dep ]
    run lake env
    # Config/Workspace.lean leanPath: the last dependency first, the root package last
    [ "$output" = "LEAN_PATH=$P/.lake/packages/other/.lake/build/lib/lean:$P/.lake/packages/dep/.lake/build/lib/lean:$P/.lake/build/lib/lean:$TC/lib/lean" ]
    run lake env lean -j1 A.lean
    [ "$status" -eq 0 ]
    mod X 'import Dep.Stray'
    run lake build X
    [ "$status" -eq 1 ]
    [[ "$output" == *"bad import 'Dep.Stray'"* ]]
    rm .lake/packages/dep/.lake/build/lib/lean/Dep/Core.olean
    run lake env lean -j1 A.lean
    [ "$status" -eq 1 ]
    [[ "$output" == *"A.lean:1:0: error: object file $P/.lake/packages/dep/.lake/build/lib/lean/Dep/Core.olean of module Dep.Core does not exist"* ]]
}

@test "a stale dependency trace (another Lean githash, other options) rebuilds it: on a read-only mount the write fails as Lake's would" {
    depdir dep Dep
    mkdir -p .lake/packages/dep/Dep
    echo 'def d := 1' > .lake/packages/dep/Dep/Core.lean
    manifest '"1.1.0"' dep "$(gitdep dep)"
    mod A 'import Dep.Core'
    (cd .lake/packages/dep && lake build Dep.Core >/dev/null)
    ro() { bwrap --bind / / --dev /dev --proc /proc --ro-bind "$P/.lake/packages" "$P/.lake/packages" --chdir "$P" "$@"; }
    run ro lake build A
    [ "$status" -eq 0 ]
    run ro env LEAN_GITHASH=feedfacefeedface lake build A
    [ "$status" -eq 1 ]
    [[ "$output" == *"cannot write .lake/packages/dep/.lake/build/lib/lean/Dep/Core.olean: Read-only file system"* ]]
    run ro lake build --no-build +A:deps
    [ "$status" -eq 0 ]
    run ro env LEAN_GITHASH=feedfacefeedface lake build --no-build +A:deps
    [ "$status" -eq 3 ]
    [[ "$output" == *"error: dep: module 'Dep.Core' is out of date and needs to be rebuilt"* ]]
    printf 'name = "dep"\nleanOptions = { autoImplicit = false }\n[[lean_lib]]\nname = "Dep"\n' > .lake/packages/dep/lakefile.toml
    run ro lake build A
    [ "$status" -eq 1 ]
    [[ "$output" == *"Dep/Core.olean: Read-only file system"* ]]
}

@test "root modules: trace and .hash per module; a changed source rebuilds it and its importers only; another githash rebuilds all" {
    mod B 'def b := 1'
    mod C 'import B'
    mod D 'def d := 1'
    mod E 'import C' 'import D'
    run lake build E
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 5 ]
    for m in B C D E; do
        [ -s ".lake/build/lib/lean/$m.olean.hash" ]
        grep -q '^depHash [0-9a-f]\{16\}$' ".lake/build/lib/lean/$m.trace"
    done
    run lake build E
    [ "$output" = "Build completed successfully (0 built)." ]
    mod B 'def b := 2'
    run lake build E
    [ "${lines[0]}" = "Built B" ]
    [ "${lines[1]}" = "Built C" ]
    [ "${lines[2]}" = "Built E" ]
    [ "${#lines[@]}" -eq 4 ]
    run env LEAN_GITHASH=feedfacefeedface lake build E
    [ "${#lines[@]}" -eq 5 ]
}

@test "Lake's artifact cache: a writable one saves by input hash; a fresh tree restores from it read-only; false switches it off" {
    mod B 'def b := 1' '-- fixture: build-cpu=0.3'
    mod C 'import B'
    C="$BATS_TEST_TMPDIR/cache"
    run env LAKE_CACHE_DIR="$C" LAKE_ARTIFACT_CACHE=true lake build C
    [ "$status" -eq 0 ]
    [ "$(find "$C/artifacts" -name '*.olean' | wc -l)" -eq 2 ]
    [ "$(find "$C/outputs/pkg" -name '*.json' | wc -l)" -eq 2 ]
    rm -rf .lake
    chmod -R a-w "$C"
    before=$(find "$C" -printf '%p %m %s\n' | sort)
    cpu env LAKE_CACHE_DIR="$C" lake build C # unspecified: reads on, writes off
    [ "$rc" -eq 0 ]
    between "$cpu" 0 0.25
    [ "$(cat "$BATS_TEST_TMPDIR/out")" = "$(printf 'Restored B\nRestored C\nBuild completed successfully (0 built).')" ]
    [ -s .lake/build/lib/lean/C.olean ]
    [ "$before" = "$(find "$C" -printf '%p %m %s\n' | sort)" ]
    run env LAKE_CACHE_DIR="$C" lake build C
    [ "$output" = "Build completed successfully (0 built)." ]
    rm -rf .lake
    run env LAKE_CACHE_DIR="$C" LAKE_ARTIFACT_CACHE=false lake build C
    [ "${lines[0]}" = "Built B" ]
    mod B 'def b := 2'
    rm -rf .lake
    run env LAKE_CACHE_DIR="$C" lake build C # other inputs: no entry
    [ "${lines[0]}" = "Built B" ]
    [ "${lines[1]}" = "Built C" ]
    chmod -R u+w "$C"
}

@test "a package's enableArtifactCache wins over LAKE_ARTIFACT_CACHE; an empty LAKE_CACHE_DIR means the workspace's .lake/cache" {
    printf '%s\n' 'name = "pkg"' 'enableArtifactCache = true' '[[lean_lib]]' 'name = "Pkg"' 'globs = ["B"]' > lakefile.toml
    mod B 'def b := 1'
    run env LAKE_CACHE_DIR= LAKE_ARTIFACT_CACHE=false lake build B
    [ "$status" -eq 0 ]
    [ "$(find .lake/cache/artifacts -name '*.olean' | wc -l)" -eq 1 ]
}

@test "lakefile.lean takes precedence over lakefile.toml (its lean_lib declarations)" {
    mod Q 'def q := 1'
    run lake build Q
    [ "$status" -eq 1 ]
    printf 'import Lake\nopen Lake DSL\npackage pkg\nlean_lib «Q»\n' > lakefile.lean
    run lake build Q
    [ "$status" -eq 0 ]
    [[ "$output" == *"info: [root]: lakefile.lean and lakefile.toml are both present; using lakefile.lean"* ]]
    [[ "$output" == *"Built Q"* ]]
    run lake build A
    [ "$status" -eq 1 ]
    [[ "$output" == *'unknown module `A`'* ]]
}

@test "lake lean passes the file's absolute path to lean" {
    mod A '-- fixture: warn'
    run lake lean A.lean
    [ "$status" -eq 0 ]
    [ "$output" = "$(realpath A.lean):1:0: warning: fixture warning" ]
}

# ---- lake env lean ----

@test "lake env lean -j1 F fails without built imports and succeeds after lake build" {
    mod B 'def b := 1'
    mod A 'import B' 'def a := 1'
    run lake env lean -j1 A.lean
    [ "$status" -eq 1 ]
    # Lean's text (Lean/Util/Path.lean findOLean), then each search path entry
    [ "${lines[0]}" = "A.lean:1:0: error: unknown module prefix 'B'" ]
    [ "${lines[1]}" = "No directory 'B' or file 'B.olean' in the search path entries:" ]
    [ "${lines[2]}" = "$P/.lake/build/lib/lean" ]
    [ "${lines[-1]}" = "$TC/lib/lean" ]
    run lake build A
    [ "$status" -eq 0 ]
    run lake env lean -j1 A.lean
    [ "$status" -eq 0 ]
    [ "$output" = "" ]
    run lake env lean A.lean
    [ "$status" -eq 0 ]
    # without lake env there is no LEAN_PATH to find B
    run env -u LEAN_PATH lean -j1 A.lean
    [ "$status" -eq 1 ]
    run -127 lake env no-such-command-xyz
    [[ "$output" == *"failed to execute 'no-such-command-xyz'"* ]]
}

@test "lean needs the toolchain's Init.olean unless the file says prelude" {
    cp -a "$TC" "$BATS_TEST_TMPDIR/tc4"
    rm "$BATS_TEST_TMPDIR/tc4/lib/lean/Init.olean"
    mod A 'def a := 1'
    mod P 'prelude' 'def p := 1'
    run "$BATS_TEST_TMPDIR/tc4/bin/lean" A.lean
    [ "$status" -eq 1 ]
    [[ "$output" == *Init* ]]
    run "$BATS_TEST_TMPDIR/tc4/bin/lean" P.lean
    [ "$status" -eq 0 ]
}

@test "imports end with the header; an import after a command is not an import" {
    mod B 'def b := 1'
    mod A '/- doc -/' 'module' 'public import B' 'import all B' 'def a := 1' 'import Nope'
    lake build A
    run lake env lean -j1 A.lean
    [ "$status" -eq 0 ]
    run lean --bogus A.lean
    [ "$status" -eq 1 ]
    run lean -j1 Missing.lean
    [ "$status" -eq 1 ]
}

# ---- lean directives ----

@test "-- fixture: cpu=0.5 burns between 0.4 and 2 s of CPU; no directive burns nothing" {
    mod A '-- fixture: cpu=0.5'
    cpu lean -j1 A.lean
    [ "$rc" -eq 0 ]
    between "$cpu" 0.4 2
    mod Z 'def z := 1'
    cpu lean -j1 Z.lean
    [ "$rc" -eq 0 ]
    between "$cpu" 0 0.1
    mod Two '-- fixture: cpu=0.25' 'def t := 1' '  -- fixture: cpu=0.25'
    cpu lake env lean -j1 Two.lean
    [ "$rc" -eq 0 ]
    between "$cpu" 0.4 2
}

@test "-- fixture: fail exits 1 after burning" {
    mod A '-- fixture: cpu=0.3 fail'
    cpu lean -j1 A.lean
    [ "$rc" -eq 1 ]
    between "$cpu" 0.25 2
    grep -q "failing as asked" "$BATS_TEST_TMPDIR/err"
}

@test "unknown or malformed directives are errors, not silently ignored" {
    mod A '-- fixture: cpuu=0.3'
    run lean A.lean
    [ "$status" -eq 1 ]
    [[ "$output" == *"unknown fixture directive 'cpuu'"* ]]
    mod B '-- fixture: cpu=abc'
    run lean B.lean
    [ "$status" -eq 1 ]
    mod C '-- fixture: write'
    run lean C.lean
    [ "$status" -eq 1 ]
}

@test "-- fixture: child-cpu=0.5 runs in a waited-for child, counted by GNU time" {
    mod A '-- fixture: child-cpu=0.5'
    cpu lean -j1 A.lean
    [ "$rc" -eq 0 ]
    between "$cpu" 0.4 2
    grep -Eq '^child-cpu pid=[0-9]+ -> done$' .fixture-log
}

@test "-- fixture: orphan-cpu leaves a grandchild that outlives lean and later ends" {
    mod A '-- fixture: orphan-cpu=1'
    cpu lean -j1 A.lean
    [ "$rc" -eq 0 ]
    run ! grep -q 'orphan-cpu.* -> done' .fixture-log # lean did not wait for its 1 s
    between "$cpu" 0 0.3                           # nor is its CPU counted (no sandbox init here)
    pid=$(sed -n 's/^orphan-cpu pid=\([0-9]*\) -> started$/\1/p' .fixture-log)
    [ -n "$pid" ]
    kill -0 "$pid"
    wait_gone "$pid" 60
    grep -qx "orphan-cpu pid=$pid -> done" .fixture-log
}

@test "-- fixture: orphan-hang leaves a grandchild that ignores SIGTERM and sleeps forever" {
    mod A '-- fixture: orphan-hang'
    cpu lean -j1 A.lean
    [ "$rc" -eq 0 ]
    pid=$(sed -n 's/^orphan-hang pid=\([0-9]*\) -> started$/\1/p' .fixture-log)
    [ -n "$pid" ]
    wait_for 30 ignores "$pid" 15 # the grandchild's own SIG_IGN, set after "started"
    survives "$pid" TERM
    kill -KILL "$pid"
    wait_gone "$pid" 30
}

@test "-- fixture: hang never exits; SIGTERM ends it unless ignore-term" {
    mod A '-- fixture: hang'
    rc=0
    lean -j1 A.lean 3>&- &
    pid=$!
    wait_for 30 logged 'hang -> ready'
    kill -0 "$pid"
    kill -TERM "$pid"
    wait "$pid" || rc=$? # not `run wait`: run's subshell is not lean's parent
    [ "$rc" -eq 143 ]

    mod B '-- fixture: hang ignore-term'
    rm .fixture-log
    lean -j1 B.lean 3>&- &
    pid=$!
    wait_for 30 logged 'hang -> ready'
    survives "$pid" TERM
    kill -KILL "$pid"
    rc=0
    wait "$pid" || rc=$?
    [ "$rc" -eq 137 ]
}

@test "-- fixture: ignore-term also applies to the children lean spawns" {
    mod A '-- fixture: ignore-term' '-- fixture: orphan-cpu=30'
    lean -j1 A.lean > /dev/null 2>&1 3>&-
    pid=$(sed -n 's/^orphan-cpu pid=\([0-9]*\) -> started$/\1/p' .fixture-log)
    [ -n "$pid" ]
    survives "$pid" TERM
    kill -KILL "$pid"
    wait_gone "$pid" 30
}

# ---- hostile candidate directives: each attempt lands in .fixture-log ----

@test "-- fixture: print-counters forges GNU time lines and ::error:: on stdout and stderr" {
    mod A '-- fixture: print-counters'
    run --separate-stderr lean -j1 A.lean
    [ "$status" -eq 0 ]
    for s in "$output" "$stderr"; do
        [[ "$s" == *"0.00user 0.00system 0:00.00elapsed"* ]]
        [[ "$s" == *"Command exited with non-zero status 0"* ]]
        [[ "$s" == *"user=0.01 sys=0.00"* ]]
        [[ "$s" == *"::error::forged"* ]]
    done
    [ "$(cat .fixture-log)" = "print-counters -> printed" ]
}

@test "-- fixture: read-env logs whether a variable is set and its value" {
    mod A '-- fixture: read-env=SC_SECRET read-env=SC_ABSENT'
    SC_SECRET=hunter2 lean -j1 A.lean 2>/dev/null
    [ "$(sed -n 1p .fixture-log)" = "read-env SC_SECRET -> set hunter2" ]
    [ "$(sed -n 2p .fixture-log)" = "read-env SC_ABSENT -> unset" ]
    [ "$(wc -l < .fixture-log)" -eq 2 ]
}

@test "-- fixture: write logs a successful and a failed write outside the tree" {
    out="$BATS_TEST_TMPDIR/outside"
    mod A "-- fixture: write=$out" '-- fixture: write=/nonexistent-dir/x'
    lean -j1 A.lean 2>/dev/null
    [ "$(cat "$out")" = fixture-write ]
    grep -qx "write $out -> ok" .fixture-log
    grep -qx "write /nonexistent-dir/x -> ENOENT" .fixture-log
}

@test "-- fixture: read logs bytes read or the error" {
    printf '12345' > "$BATS_TEST_TMPDIR/secret"
    mod A "-- fixture: read=$BATS_TEST_TMPDIR/secret read=/nonexistent-file"
    lean -j1 A.lean 2>/dev/null
    grep -qx "read $BATS_TEST_TMPDIR/secret -> ok 5 bytes" .fixture-log
    grep -qx "read /nonexistent-file -> ENOENT" .fixture-log
}

@test "-- fixture: connect logs a refused and an accepted TCP connection" {
    # a port nobody listens on: bind one, then close it
    port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    mod A "-- fixture: connect=127.0.0.1:$port"
    lean -j1 A.lean 2>/dev/null
    grep -qx "connect 127.0.0.1:$port -> ECONNREFUSED" .fixture-log
    /usr/bin/python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); sys.stdout.close()
s.settimeout(10); c, _ = s.accept(); c.close()' > "$BATS_TEST_TMPDIR/port" 3>&- &
    wait_for 30 test -s "$BATS_TEST_TMPDIR/port"
    port=$(cat "$BATS_TEST_TMPDIR/port")
    mod B "-- fixture: connect=127.0.0.1:$port"
    lean -j1 B.lean 2>/dev/null
    wait
    grep -qx "connect 127.0.0.1:$port -> connected" .fixture-log
}

@test "-- fixture: run=PATH spawns a program of the tree at elaboration time and waits for it" {
    printf '#!/usr/bin/bash\necho ran > "$PWD/ran-by-lean"\nexit 3\n' > hook.sh
    chmod 755 hook.sh
    mod A '-- fixture: run=./hook.sh run=./missing.sh'
    lean -j1 A.lean 2>/dev/null
    [ "$(cat ran-by-lean)" = ran ]
    grep -qx 'run ./hook.sh -> exit 3' .fixture-log
    grep -qx 'run ./missing.sh -> exit 127' .fixture-log
}

@test "-- fixture: run-first=PATH runs before lean reads the contents it elaborates" {
    # the hook swaps the file for a cheap one: lean elaborates what it reads after the hook
    printf '%s\n' '#!/usr/bin/python3' 'open("A.lean", "w").write("-- fixture: cpu=0\n")' > swap.py
    chmod 755 swap.py
    mod A '-- fixture: run-first=./swap.py cpu=3'
    /usr/bin/time -f '%U %S' -o cpu.txt lean -j1 A.lean 2>/dev/null
    grep -qx 'run-first ./swap.py -> exit 0' .fixture-log
    awk '{ exit !($1 + $2 < 1) }' cpu.txt
    [ "$(cat A.lean)" = '-- fixture: cpu=0' ]
}

@test "-- fixture: build-run=PATH runs while lake build builds that module, not when up to date" {
    printf '#!/usr/bin/bash\necho built >> "$PWD/build-runs"\n' > hook.sh
    chmod 755 hook.sh
    mod A '-- fixture: build-run=./hook.sh'
    mod B 'import A'
    lake build +B:deps
    grep -qx 'build-run ./hook.sh -> exit 0' .fixture-log
    lake build +B:deps
    [ "$(wc -l < build-runs)" -eq 1 ]
}

@test "the log goes to .lake/.fixture-log where the folder is read-only (the sandbox's tree)" {
    mkdir -p .lake
    mod A '-- fixture: read-env=HOME'
    if [ "$(id -u)" -eq 0 ]; then
        # root writes through modes: a read-only mount with .lake writable, as in the sandbox
        unshare -m sh -c 'mount --bind "$1" "$1" && mount --bind "$1/.lake" "$1/.lake" &&
            mount -o remount,bind,ro "$1" && cd "$1" && lean -j1 A.lean' sh "$P" 2>/dev/null
    else
        chmod 555 .
        lean -j1 A.lean 2>/dev/null || true
        chmod 755 .
    fi
    [ ! -e .fixture-log ]
    grep -q '^read-env HOME -> ' .lake/.fixture-log
}

# ---- the workspace load every lake command does ----
# Sources: leanprover/lean4 src/lake/Lake/Load/Materialize.lean
# (PackageEntry.materialize, updateGitRepo), Util/Git.lean.

@test "workspace load: a dependency at its manifest rev passes; local changes only warn (git diff)" {
    mkdir -p .lake/packages/dep/Dep
    echo 'def d := 1' > .lake/packages/dep/Dep/Core.lean
    manifest '"1.1.0"' dep "$(gitdep dep)"
    run lake env true
    [ "$status" -eq 0 ]
    [ "$output" = "" ]
    echo 'def d := 2' > .lake/packages/dep/Dep/Core.lean
    run lake env true
    [ "$status" -eq 0 ]
    [ "$output" = "warning: dep: repository '$P/.lake/packages/dep' has local changes" ]
}

@test "workspace load: HEAD not at the manifest rev -> 'URL has changed; deleting' and the folder is really deleted" {
    rev=$(gitdep dep)
    manifest '"1.1.0"' dep "${rev%?}0"
    [ "${rev: -1}" != 0 ] || skip "rev ends in 0"
    run lake env true
    [ "$status" -eq 1 ]
    [ "${lines[0]}" = "info: dep: URL has changed; deleting '$P/.lake/packages/dep' and cloning again" ]
    [ "${lines[1]}" = "info: dep: cloning https://example.invalid/dep" ]
    [ ! -e .lake/packages/dep ]
}

@test "workspace load: on a read-only dependency mount the delete fails and lake exits 1" {
    rev=$(gitdep dep)
    manifest '"1.1.0"' dep 0000000000000000000000000000000000000001
    run bwrap --bind / / --dev /dev --proc /proc --ro-bind "$P/.lake/packages" "$P/.lake/packages" --chdir "$P" \
        "$TC/bin/lake" env true
    [ "$status" -eq 1 ]
    [[ "${lines[0]}" == "info: dep: URL has changed; deleting '$P/.lake/packages/dep' and cloning again" ]]
    [[ "$output" == *"Read-only file system"* ]]
    [ "$(git -C .lake/packages/dep rev-parse HEAD)" = "$rev" ]
}

@test "workspace load: git's dubious ownership (owner differs) fails rev-parse unless safe.directory is set" {
    [ "$EUID" -eq 0 ] || skip "giving the dependency to another owner needs a root operator"
    rev=$(gitdep dep)
    manifest '"1.1.0"' dep "$rev"
    chown -R nobody: .lake/packages/dep
    run env -i PATH=/usr/bin:/bin HOME=/nonexistent GIT_CONFIG_NOSYSTEM=1 \
        GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*' "$TC/bin/lake" env true
    [ "$status" -eq 0 ]
    [ "$output" = "" ]
    run bwrap --bind / / --dev /dev --proc /proc --ro-bind "$P/.lake/packages" "$P/.lake/packages" --chdir "$P" \
        env -i PATH=/usr/bin:/bin HOME=/nonexistent GIT_CONFIG_NOSYSTEM=1 "$TC/bin/lake" env true
    [ "$status" -eq 1 ]
    [[ "${lines[0]}" == "info: dep: URL has changed; deleting"* ]]
}

@test "workspace load: a lakefile.lean's compiled config is cached in .lake/config/<index>/ (Lean >= 4.31) with a trace" {
    mkdir -p .lake/packages/dep
    echo '-- a lakefile.lean' > .lake/packages/dep/lakefile.lean
    manifest '"1.1.0"' dep "$(gitdep dep)"
    cpu lake env true
    [ "$rc" -eq 0 ]
    between "$cpu" 0.25 2
    [ -f .lake/config/1/lakefile.olean ]
    grep -q "configHash" .lake/config/1/lakefile.olean.trace
    [ ! -e .lake/packages/dep/.lake/lakefile.olean ]
    cpu lake env true # up to date: not elaborated again
    between "$cpu" 0 0.2
    echo 'garbage' > .lake/config/1/lakefile.olean.trace # stale trace: elaborated again
    cpu lake env true
    between "$cpu" 0.25 2
}

@test "workspace load: Lean < 4.31 keeps the config cache in the dependency's own .lake, failing read-only" {
    cp -a "$TC" "$BATS_TEST_TMPDIR/tc30"
    echo 4.30.0 > "$BATS_TEST_TMPDIR/tc30/lib/fixture-version"
    mkdir -p .lake/packages/dep
    echo '-- a lakefile.lean' > .lake/packages/dep/lakefile.lean
    manifest '"1.1.0"' dep "$(gitdep dep)"
    run bwrap --bind / / --dev /dev --proc /proc --ro-bind "$P/.lake/packages" "$P/.lake/packages" --chdir "$P" \
        "$BATS_TEST_TMPDIR/tc30/bin/lake" env true
    [ "$status" -eq 1 ]
    [[ "$output" == *".lake/packages/dep/.lake/lakefile.olean.trace: Read-only file system"* ]]
    run "$BATS_TEST_TMPDIR/tc30/bin/lake" env true
    [ "$status" -eq 0 ]
    [ -f .lake/packages/dep/.lake/lakefile.olean ]
    [ ! -e .lake/config ]
}

@test "lake env CMD spawns CMD as its child and waits for it, passing its status" {
    run lake env bash -c 'cat /proc/$PPID/comm; exit 7'
    [ "$status" -eq 7 ]
    [ "$output" = "lake" ]
}

@test "lake env costs some CPU for the workspace load" {
    cpu lake env true
    [ "$rc" -eq 0 ]
    between "$cpu" 0.01 0.5
}

# ---- lake lean (CLI/Main.lean, Build/Module.lean prepareLeanCommand) ----

@test "lake lean FILE -- ARGS builds FILE's imports, then runs lean with a --setup file under /tmp" {
    mod B 'def b := 1'
    mod A 'import B' 'def a := b'
    run lake lean A.lean -- -j1
    [ "$status" -eq 0 ]
    [ -f .lake/build/lib/lean/B.olean ]
    [ ! -e .lake/build/lib/lean/A.olean ]
    run lake lean A.lean -- --no-such-lean-flag
    [ "$status" -eq 1 ]
    [[ "$output" == *"usage: lean"* ]]
    run lake lean A.lean extra
    [ "$status" -eq 1 ]
    [ "$output" = "usage: lake lean <file> [-- <args>...]" ]
}

@test "lake lean applies lakefile.toml leanOptions (package and library) and moreLeanArgs; lake env lean does not" {
    mod A '-- fixture: warn option-cpu=weak.linter.mathlibStandardSet:0.5'
    run lake env lean A.lean
    [ "$status" -eq 0 ]
    [ "$output" = "A.lean:1:0: warning: fixture warning" ]
    cat > lakefile.toml <<'TOML'
name = "pkg"
leanOptions = { weak.linter.mathlibStandardSet = true, pp.unicode.fun = true }
moreLeanArgs = ["-DautoImplicit=false"]

[[lean_lib]]
name = "A"
leanOptions = { warningAsError = true }
TOML
    cpu lake lean A.lean -- -j1
    [ "$rc" -eq 1 ]
    [ "$(cat "$BATS_TEST_TMPDIR/err")" = "$P/A.lean:1:0: error: fixture warning" ]
    between "$cpu" 0.45 2
    cpu lake env lean A.lean
    [ "$rc" -eq 0 ]
    between "$cpu" 0 0.4
}

@test "lean reads its options from --setup and from -DNAME=VALUE" {
    mod A '-- fixture: warn'
    echo '{"name": "A", "options": {"warningAsError": true}}' > "$BATS_TEST_TMPDIR/setup.json"
    run lean A.lean --setup "$BATS_TEST_TMPDIR/setup.json"
    [ "$status" -eq 1 ]
    run lean -DwarningAsError=true A.lean
    [ "$status" -eq 1 ]
    run lean -DwarningAsError=false A.lean
    [ "$status" -eq 0 ]
    echo '{"options": [' > "$BATS_TEST_TMPDIR/bad.json"
    run lean A.lean --setup "$BATS_TEST_TMPDIR/bad.json"
    [ "$status" -eq 1 ]
}

# ---- targets: lean_lib roots, globs, srcDir (Config/LeanLib.lean isBuildableModule) ----

@test "+Mod must be a module of a lean_lib: roots cover themselves and below, else 'unknown module' fails the build" {
    printf '%s\n' 'name = "pkg"' '[[lean_lib]]' 'name = "Lib"' 'roots = ["Lib", "Other.Deep"]' > lakefile.toml
    mod Lib.X.Y 'def y := 1'
    mod Other.Deep 'def d := 1'
    mod Other.Shallow 'def s := 1'
    mod Outside 'def o := 1'
    run lake build +Lib.X.Y +Other.Deep
    [ "$status" -eq 0 ]
    rm -rf .lake/build
    run lake build +Lib.X.Y +Outside
    [ "$status" -eq 1 ]
    [[ "$output" == *'error: unknown module `Outside`'* ]]
    # CLI/Build.lean parseTargetSpecs: every target is resolved before any is
    # built or checked; --no-build: unknown is 1, out of date 3
    [ ! -e .lake/build/lib/lean/Lib/X/Y.olean ]
    run lake build --no-build +Lib.X.Y +Outside
    [ "$status" -eq 1 ]
    [[ "$output" != *"out of date"* ]]
    run lake build --no-build +Lib.X.Y
    [ "$status" -eq 3 ]
    run lake build +Other.Shallow
    [ "$status" -eq 1 ]
    [[ "$output" == *'unknown module `Other.Shallow`'* ]]
}

@test "globs: A.* is A and below, A.+ only below, a plain glob one module" {
    printf '%s\n' 'name = "pkg"' '[[lean_lib]]' 'name = "L"' 'globs = ["S.*", "T.+", "U.V"]' > lakefile.toml
    for m in S S.a T T.a U.V U.V.w; do mod "$m" 'def x := 1'; done
    for m in S S.a T.a U.V; do
        run lake build "+$m"
        [ "$status" -eq 0 ]
    done
    for m in T U.V.w; do
        run lake build "+$m"
        [ "$status" -eq 1 ]
    done
}

@test "srcDir: modules are paths relative to the library's source directory" {
    printf '%s\n' 'name = "pkg"' 'srcDir = "src"' '[[lean_lib]]' 'name = "Lib"' > lakefile.toml
    mkdir -p src/Lib
    echo 'def a := 1' > src/Lib/A.lean
    printf 'import Lib.A\n-- fixture: warn\n' > src/Lib/B.lean
    run lake build +Lib.B
    [ "$status" -eq 0 ]
    [ -f .lake/build/lib/lean/Lib/B.olean ]
    run lake build src/Lib/A.lean
    [ "$status" -eq 0 ]
    run lake lean src/Lib/B.lean
    [ "$status" -eq 0 ]
    run lake build +src.Lib.A
    [ "$status" -eq 1 ]
}

@test "+Mod:deps builds the module's import cone but not the module" {
    mod C 'def c := 1'
    mod B 'import C' 'def b := 1'
    mod A 'import B' '-- fixture: build-fail'
    run lake build +A:deps
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "Built C" ]
    [ "${lines[1]}" = "Built B" ]
    [ ! -e .lake/build/lib/lean/A.olean ]
    run lake build +A:nope
    [ "$status" -eq 1 ]
    run lake build +Nope:deps
    [ "$status" -eq 1 ]
    [[ "$output" == *'unknown module `Nope`'* ]]
}

# ---- lake-manifest.json (Load/Manifest.lean) ----

@test "manifest versions as Load/Manifest.lean getVersion reads them: 5.., any 1.x.y (suffix too), schemaVersion; 4, 2.0.0, 1.3 refused" {
    mkdir -p .lake/packages/dep
    rev=$(gitdep dep)
    for key in version schemaVersion; do
        for v in 5 6 7 8 '"0.6.0"' '"1.0.0"' '"1.1.0"' '"1.2.0"' '"1.3.0"' '"1.3.0-rc1"'; do
            MANIFEST_KEY=$key manifest "$v" dep "$rev"
            run lake env
            [ "$status" -eq 0 ]
            [[ "$output" == *"/.lake/packages/dep/.lake/build/lib/lean:"* ]]
        done
        for v in 4 '"0.4.0"' '"2.0.0"' '"1.3"' '"1.3.0-"' '"v1.0.0"' 7.5 null; do
            MANIFEST_KEY=$key manifest "$v" dep "$rev"
            run lake env
            [ "$status" -eq 1 ]
            [[ "$output" == *"incompatible manifest version"* ]]
        done
    done
}

@test "manifest: an escaped name «doc-gen4» lives in .lake/packages/doc-gen4; subDir moves the package root" {
    mkdir -p .lake/packages/doc-gen4/inner/Doc
    echo 'def d := 1' > .lake/packages/doc-gen4/inner/Doc/Core.lean
    printf 'name = "doc-gen4"
[[lean_lib]]
name = "Doc"
' > .lake/packages/doc-gen4/inner/lakefile.toml
    rev=$(gitdep doc-gen4)
    /usr/bin/python3 - "$rev" > lake-manifest.json <<'PY'
import json, sys
print(json.dumps({"version": "1.1.0", "packagesDir": ".lake/packages", "name": "root", "lakeDir": ".lake",
  "packages": [{"type": "git", "name": "«doc-gen4»", "url": "https://example.invalid/d", "rev": sys.argv[1],
                "subDir": "inner", "inherited": False}]}))
PY
    mod A 'import Doc.Core' 'def a := 1'
    run lake build A
    [ "$status" -eq 0 ]
    run lake env
    [[ "$output" == "LEAN_PATH=$P/.lake/packages/doc-gen4/inner/.lake/build/lib/lean:"* ]]
}

@test "lake lean: the setup's importArts name each direct import's olean in its package; lean loads it from there" {
    depdir dep Dep # Config/Workspace.lean findModule?: only a dependency's lean_libs provide its modules
    mkdir -p .lake/packages/dep/Dep
    echo 'def d := 1' > .lake/packages/dep/Dep/Core.lean
    manifest '"1.1.0"' dep "$(gitdep dep)"
    (cd .lake/packages/dep && lake build Dep.Core >/dev/null) # the operator's build, in the dependency
    # a planted olean named like the dependency's module, in the root's build folder
    mkdir -p .lake/build/lib/lean/Dep
    echo planted > .lake/build/lib/lean/Dep/Core.olean
    mod B 'def b := 1'
    mod A 'import Dep.Core' 'import B' '-- fixture: log-imports'
    run lake lean A.lean -- -j1
    [ "$status" -eq 0 ]
    grep -qx "import Dep.Core -> $P/.lake/packages/dep/.lake/build/lib/lean/Dep/Core.olean" .fixture-log
    grep -qx "import B -> $P/.lake/build/lib/lean/B.olean" .fixture-log
    # without the setup, LEAN_PATH's order still finds the dependency first
    rm .fixture-log
    lake env lean -j1 A.lean 2>/dev/null
    grep -qx "import Dep.Core -> $P/.lake/packages/dep/.lake/build/lib/lean/Dep/Core.olean" .fixture-log
}
