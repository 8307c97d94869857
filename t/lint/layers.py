#!/usr/bin/python3
"""Check the layers of common/ (common/README): a folder includes only its
own folder and the folders below it, and no module (X.c with X.h) reaches
itself again through includes.

  layers.py          check common/ of this checkout
  layers.py DIR      check DIR laid out as common/ is

The layers, lowest first; contract/ holds the documents the stages exchange
(on util/ alone), so sandbox/, which writes them, and report/, which reads
them, stand side by side on git/ and contract/, and include neither each
other nor sc-plan's planning/; gen/ holds
build-time helpers, above everything.  A quoted include names its folder ("util/strbuf.h"), or is a header the build
generates (GENERATED).  Each finding is one line "layers: error: what
(where)"; exit 1 if any.
"""
import os
import re
import sys

ALLOWED = {
    "util": {"util"},
    "contract": {"util", "contract"},
    "git": {"util", "contract", "git"},
    "planning": {"util", "contract", "git", "planning"},
    "sandbox": {"util", "contract", "git", "sandbox"},
    "report": {"util", "contract", "git", "report"},
    "porcelain": {"util", "contract", "git", "planning", "sandbox", "report", "porcelain"},
    "gen": {"util", "contract", "git", "planning", "sandbox", "report", "porcelain"},
}
GENERATED = {"version.h", "paths.h", "srctree-id.h", "seccomp-bpf.h", "workflows.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root):
    found = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if not os.path.isdir(path):
            if name.endswith((".c", ".h")):
                yield None, name, "source outside a layer folder"
            continue
        for f in sorted(os.listdir(path)):
            if f.endswith((".c", ".h")):
                found.append((name, f))
    for folder, f in found:
        yield folder, f, None


def module(folder, f):
    return folder + "/" + f[:-2]


def check(root):
    errors = []
    edges = {}
    for folder, f, problem in sources(root):
        if problem:
            errors.append("%s (%s)" % (problem, f))
            continue
        where = folder + "/" + f
        if folder not in ALLOWED:
            errors.append("unknown layer folder %s/ (%s)" % (folder, where))
            continue
        with open(os.path.join(root, where), encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                at = "%s:%d" % (where, n)
                if "/" not in inc:
                    if inc not in GENERATED:
                        errors.append('include "%s" names no layer folder (%s)' % (inc, at))
                    continue
                to = inc.split("/", 1)[0]
                if not os.path.isfile(os.path.join(root, inc)):
                    errors.append('include "%s" is no file of the tree (%s)' % (inc, at))
                elif to not in ALLOWED[folder]:
                    errors.append('%s/ includes %s/, which is not below it: "%s" (%s)'
                                  % (folder, to, inc, at))
                else:
                    a, b = module(folder, f), inc[:-2]
                    if a != b:
                        edges.setdefault(a, set()).add(b)
    errors.extend(cycles(edges))
    return errors


def cycles(edges):
    """One finding per include cycle between modules (depth-first search)."""
    found, state, stack = [], {}, []

    def visit(a):
        state[a] = 1
        stack.append(a)
        for b in sorted(edges.get(a, ())):
            if state.get(b) == 1:
                loop = stack[stack.index(b):] + [b]
                found.append("include cycle (%s)" % " -> ".join(loop))
            elif b not in state:
                visit(b)
        stack.pop()
        state[a] = 2

    for a in sorted(edges):
        if a not in state:
            visit(a)
    return found


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "common")
    if not os.path.isdir(root):
        print("layers: error: no such folder (%s)" % root, file=sys.stderr)
        return 2
    errors = check(root)
    for e in errors:
        print("layers: error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
