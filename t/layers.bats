#!/usr/bin/env bats
# The layers of common/ (t/lint/layers.py, common/README): a folder includes
# only itself and the folders below it (contract/, the documents between the
# stages, right above util/), and no module includes its way back to itself.
# The real tree passes; a bad sample fails with each finding.

bats_require_minimum_version 1.5.0

setup() {
	LAYERS="$BATS_TEST_DIRNAME/lint/layers.py"
	S=$BATS_TEST_TMPDIR/common
	mkdir -p "$S/util" "$S/contract" "$S/git" "$S/planning" "$S/sandbox" "$S/report" "$S/porcelain"
	printf '#include <stdio.h>\n' >"$S/util/strbuf.h"
	printf '#include "util/strbuf.h"\n' >"$S/contract/status.h"
	printf '#include "contract/status.h"\n#include "util/strbuf.h"\n' >"$S/git/git.h"
	printf '#include "git/git.h"\n' >"$S/planning/plan.h"
	printf '#include "contract/status.h"\n' >"$S/report/sample.h"
	printf '#include "contract/status.h"\n' >"$S/sandbox/args.h"
	printf '#include "sandbox/args.h"\n#include "report/sample.h"\n#include "version.h"\n' >"$S/porcelain/stage.c"
}

@test "layers: the real common/ passes" {
	run /usr/bin/python3 "$LAYERS"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "layers: a good sample passes" {
	run /usr/bin/python3 "$LAYERS" "$S"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "layers: a lower folder including a higher one is refused, naming file and line" {
	printf '#include <stdlib.h>\n#include "planning/plan.h"\n' >"$S/util/die.c"
	run /usr/bin/python3 "$LAYERS" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = 'layers: error: util/ includes planning/, which is not below it: "planning/plan.h" (util/die.c:2)' ]
}

@test "layers: sandbox/ and report/ do not include each other" {
	printf '#include "report/sample.h"\n' >"$S/sandbox/supervise.c"
	run /usr/bin/python3 "$LAYERS" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = 'layers: error: sandbox/ includes report/, which is not below it: "report/sample.h" (sandbox/supervise.c:1)' ]
}

@test "layers: sandbox/ and report/ stand on the documents, not on sc-plan's planning/" {
	printf '#include "planning/plan.h"\n' >"$S/sandbox/inputs.c"
	printf '#include "planning/plan.h"\n' >"$S/report/report.c"
	run /usr/bin/python3 "$LAYERS" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = 'layers: error: report/ includes planning/, which is not below it: "planning/plan.h" (report/report.c:1)' ]
	[ "${lines[1]}" = 'layers: error: sandbox/ includes planning/, which is not below it: "planning/plan.h" (sandbox/inputs.c:1)' ]
}

@test "layers: contract/ stands on util/ alone: it includes no stage's folder" {
	printf '#include "util/strbuf.h"\n#include "sandbox/args.h"\n' >"$S/contract/status.c"
	printf '#include "git/git.h"\n' >"$S/contract/plan.h"
	run /usr/bin/python3 "$LAYERS" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = 'layers: error: contract/ includes git/, which is not below it: "git/git.h" (contract/plan.h:1)' ]
	[ "${lines[1]}" = 'layers: error: contract/ includes sandbox/, which is not below it: "sandbox/args.h" (contract/status.c:2)' ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "layers: two modules of one folder that include each other are a cycle" {
	printf '#include "git/git.h"\n' >"$S/git/job.h"
	printf '#include "git/job.h"\n' >"$S/git/git.c"
	run /usr/bin/python3 "$LAYERS" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = 'layers: error: include cycle (git/git -> git/job -> git/git)' ]
}

@test "layers: an include without its folder, a missing header and a loose source are refused" {
	printf '#include "strbuf.h"\n#include "util/nosuch.h"\n' >"$S/planning/plan.c"
	printf 'int x;\n' >"$S/loose.c"
	mkdir "$S/misc"
	printf 'int y;\n' >"$S/misc/y.c"
	run /usr/bin/python3 "$LAYERS" "$S"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = 'layers: error: source outside a layer folder (loose.c)' ]
	[ "${lines[1]}" = 'layers: error: unknown layer folder misc/ (misc/y.c)' ]
	[ "${lines[2]}" = 'layers: error: include "strbuf.h" names no layer folder (planning/plan.c:1)' ]
	[ "${lines[3]}" = 'layers: error: include "util/nosuch.h" is no file of the tree (planning/plan.c:2)' ]
	[ "${#lines[@]}" -eq 4 ]
}
