#!/usr/bin/python3
"""verdict.py: the profile job's verdict where reviewers look, made from
report.json and report.md alone (written by the profiler on the host, never
by candidate code), for contrib/github/profile.yml.

  verdict.py annotations REPORT_JSON   GitHub workflow commands on stdout:
        a warning per flagged file (on the file), a notice for no_changes or
        a clean run, an error when the measurement is incomplete
  verdict.py flagged REPORT_JSON       how many files are flagged
  verdict.py comment REPORT_MD RUN_URL [LIMIT]
        the sticky comment's body: the hidden marker, then report.md, cut at
        a line so the whole stays under LIMIT characters (GitHub's 65,536 by
        default, less a margin), with a link to the run for the rest
  verdict.py error TEXT                one escaped ::error:: line
  verdict.py timings MARKS [REPORT_JSON]
        the job's time to result as a Markdown table: MARKS holds one
        "EPOCH_SECONDS STEP" line per finished step; the profile step is
        split into its prebuilds and samples from report.json

Every value that reaches a workflow command is escaped for its syntax (the
toolkit's rules): in a message %, CR and LF; in a property also : and ,.
A Lean version line is text of the toolchain: it is escaped like the rest.
Exit 0, or 2 with one line "verdict.py: error: WHAT (WHERE)".
"""
import json
import sys

MARKER = "<!-- sphereceti-profile -->"
COMMENT_LIMIT = 65536
MARGIN = 512  # what GitHub may count differently (CRLF, entities) stays under


def die(what, where):
    print(f"verdict.py: error: {what} ({where})", file=sys.stderr)
    sys.exit(2)


def escape_data(s):
    return str(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s):
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def command(level, message, **props):
    p = ",".join(f"{k}={escape_property(v)}" for k, v in props.items() if v is not None)
    return f"::{level}{' ' + p if p else ''}::{escape_data(message)}"


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        die(f"cannot read report.json: {e.__class__.__name__}", path)
    if not isinstance(r, dict) or r.get("schema") != "sphereceti.report/1":
        die("not a sphereceti report (schema sphereceti.report/1)", path)
    return r


def secs(x):
    return f"{x:.2f}" if isinstance(x, (int, float)) else "—"


def title(r):
    lean = (r.get("environment") or {}).get("lean_version")
    return f"sphereceti ({lean})" if lean else "sphereceti"


def flagged_files(r):
    return [f for f in r.get("files") or [] if f.get("flagged") is True]


def annotations(r):
    out, t = [], title(r)
    for f in flagged_files(r):
        base, head = f.get("base") or {}, f.get("head") or {}
        if f.get("change") == "added":
            msg = f"{f['path']}: new file at {secs(head.get('cpu_s'))} s CPU"
        else:
            msg = (f"{f['path']}: {secs(base.get('cpu_s'))} → {secs(head.get('cpu_s'))} s CPU "
                   f"({secs(f.get('ratio'))}×, +{secs(f.get('delta_s'))} s)")
        out.append(command("warning", msg + ". " + str(f.get("reason", "")) + " Advisory.",
                           file=f["path"], title=t + ": slower"))
    status = r.get("status")
    headline = r.get("headline", "")
    if status == "no_changes":
        out.append(command("notice", headline or "no_changes: no selected Lean file changed", title=t))
    elif status == "error":
        out.append(command("error", headline or "measurement incomplete", title=t + ": not measured"))
    elif not out:
        out.append(command("notice", headline, title=t))
    return out


def comment(md, run_url, limit):
    head = MARKER + "\n"
    tail = (f"\n\n---\n*Cut to fit a comment: the whole report is in the job summary and "
            f"the artifact of [this run]({run_url}).*\n")
    budget = limit - MARGIN
    if len(head) + len(md) <= budget:
        return head + md
    room = budget - len(head) - len(tail)
    cut = md[:max(room, 0)]
    if "\n" in cut:
        cut = cut[:cut.rindex("\n") + 1]
    return head + cut + tail


def timings(marks_path, report):
    try:
        rows = [line.split(None, 1) for line in open(marks_path, encoding="utf-8") if line.strip()]
        marks = [(float(t), name.strip()) for t, name in rows]
    except (OSError, ValueError):
        die("cannot read the step marks", marks_path)
    lines = ["", "### Time to result", "", "| step | wall (s) |", "|:--|--:|"]
    total = 0.0
    for (t0, _), (t1, name) in zip(marks, marks[1:]):
        lines.append(f"| {name} | {t1 - t0:.0f} |")
        if name == "profile" and report:
            for side in ("base", "head"):
                pb = (report.get("prebuild") or {}).get(side) or {}
                if isinstance(pb.get("wall_s"), (int, float)):
                    lines.append(f"| &nbsp;&nbsp;{side} prebuild | {pb['wall_s']:.0f} |")
            walls = [s.get("wall_s") for f in report.get("files") or []
                     for s in (f.get("base"), f.get("head")) if isinstance(s, dict)]
            walls = [w for w in walls if isinstance(w, (int, float))]
            lines.append(f"| &nbsp;&nbsp;samples ({len(walls)}) | {sum(walls):.0f} |")
        total += t1 - t0
    lines.append(f"| **total** | {total:.0f} |")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) >= 3 and argv[1] == "annotations":
        print("\n".join(annotations(load(argv[2]))))
    elif len(argv) >= 3 and argv[1] == "flagged":
        print(len(flagged_files(load(argv[2]))))
    elif len(argv) in (4, 5) and argv[1] == "comment":
        try:
            md = open(argv[2], encoding="utf-8").read()
        except (OSError, ValueError):
            die("cannot read report.md", argv[2])
        limit = int(argv[4]) if len(argv) == 5 else COMMENT_LIMIT
        sys.stdout.write(comment(md, argv[3], limit))
    elif len(argv) == 3 and argv[1] == "error":
        print(command("error", argv[2], title="sphereceti: not measured"))
    elif len(argv) in (3, 4) and argv[1] == "timings":
        sys.stdout.write(timings(argv[2], load(argv[3]) if len(argv) == 4 else None))
    else:
        die("usage: verdict.py annotations|flagged REPORT_JSON | comment REPORT_MD RUN_URL "
            "[LIMIT] | error TEXT | timings MARKS [REPORT_JSON]", "arguments")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
