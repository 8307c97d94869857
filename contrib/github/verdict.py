#!/usr/bin/python3
"""verdict.py: what the profile job tells reviewers, made from report.json
and report.md alone (the profiler writes them on the host, never candidate
code), for contrib/github/profile.yml.  No network: publish.py, in jobs of
their own, sends what this makes.

  verdict.py check REPORT_JSON REPORT_MD --head SHA --run-url URL [--fail-on-flag]
        the check document (below) of a run that made a report: the title
        is the report's one-line verdict, the summary report.md (cut at a
        line under the Checks API's limit, with a link to the run), a
        warning annotation on each flagged file with its figures
  verdict.py outcome --head SHA --run-url URL
                     (--conclusion neutral|failure --title TEXT [--details TEXT] | --from NOTE_JSON)
        the check document of a run that made no report: one line saying
        what happened (a bump, a conflict, a head that moved, a cache miss:
        neutral; sphereceti's own failure: failure), and what to do
  verdict.py note NOTE_JSON --conclusion neutral|failure --title TEXT [--details TEXT]
        a step that ends the measurement says why: NOTE_JSON for the
        verdict step (outcome --from), and the summary line on stdout
  verdict.py comment CHECK_JSON
        the sticky comment's body: the hidden marker, the head it is about,
        the title, then the summary, under GitHub's 65,536 characters
  verdict.py timings MARKS [REPORT_JSON]
        the job's time to result as a Markdown table: MARKS holds one
        "EPOCH_SECONDS STEP" line per finished step; the profile step is
        split into its prebuilds and samples from report.json

The check document ("sphereceti.check/1"), a JSON object: head_sha,
conclusion (success: nothing flagged; neutral: a file flagged, flags being
advisory, or not measured by policy; failure: a failed measurement,
sphereceti's own failure, or a flag with --fail-on-flag), title, summary,
annotations (the Checks API's objects), flagged (a count).

Figures are the report's: CPU, ratio and delta truncated exactly as
report.md truncates them (integer milliseconds, floor), so an annotation
never says 5.61x where the report says 5.60x.  Exit 0, or 2 with one line
"verdict.py: error: WHAT (WHERE)" on stderr, whatever the input.
"""
import json
import sys

SCHEMA = "sphereceti.check/1"
NAME = "sphereceti"
MARKER = "<!-- sphereceti-profile -->"
# The Checks API's output.summary and a comment body: 65,535 and 65,536,
# counted by GitHub in UTF-8 bytes (a summary of 64,914 characters and
# 66,028 bytes is refused); what GitHub may count differently (CRLF,
# entities) stays under.  Every limit here is in bytes.
SUMMARY_LIMIT = 65535
COMMENT_LIMIT = 65536
MARGIN = 512
# An annotation's title is at most 255 bytes; the check's title is kept to
# the same.
TITLE_LIMIT = 255
CONCLUSIONS = ("success", "neutral", "failure")


class Bad(Exception):
    """Input this script refuses: (what, where)."""


def quote_line(s):
    """One line, as the tools print every line (util/die.c sc_quote_line):
    a line break or tab a space, any other control character \\xNN, so
    that nothing read can start a line of the job log (a workflow command)
    or steer a terminal."""
    return "".join(" " if c in "\n\r\t" else f"\\x{ord(c):02x}" if ord(c) < 0x20 or ord(c) == 0x7f
                   else c for c in s)


def say(line, file=None):
    print(quote_line(line), file=file or sys.stdout, flush=True)


def die(what, where):
    say(f"verdict.py: error: {what} ({where})", sys.stderr)
    sys.exit(2)


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise Bad(f"cannot read {what}: {e.strerror or e.__class__.__name__}", path)
    except ValueError as e:
        raise Bad(f"{what} is not JSON: {e.__class__.__name__}", path)


def read_text(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise Bad(f"cannot read {what}: {e.strerror or e.__class__.__name__}", path)
    except ValueError:
        raise Bad(f"{what} is not UTF-8 text", path)


def need(cond, what, where):
    if not cond:
        raise Bad(what, where)


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def ms(x):
    """Seconds as the report writes them (exact thousandths) to integer ms."""
    return int(round(x * 1000))


# --- report.md's figures (common/report/verdict.c, report_md.c) -----------

def milli_decimals(v):
    return 3 if v % 10 else 2 if v % 100 else 1 if v % 1000 else 0


def scaled(v, decimals):
    a = -v if v < 0 else v
    s = f"{'-' if v < 0 else ''}{a // 10 ** decimals}"
    return s + (f".{a % 10 ** decimals:0{decimals}d}" if decimals else "")


class Figures:
    """The display rules of one report: decimals from its thresholds."""

    def __init__(self, report, where):
        t = report.get("thresholds")
        need(isinstance(t, dict) and all(number(t.get(k)) for k in ("ratio", "delta_s", "added_s")),
             "report.json has no thresholds", where)
        self.sec = max(2, milli_decimals(ms(t["delta_s"])), milli_decimals(ms(t["added_s"])))
        self.rat = max(2, milli_decimals(ms(t["ratio"])))

    def cpu(self, v):
        return scaled(v // 10 ** (3 - self.sec), self.sec)

    def signed(self, v):
        return ("+" if v >= 0 else "") + self.cpu(v)

    def ratio(self, head, base):
        if base == 0:
            return "∞" if head > 0 else "—"
        return scaled(head * 10 ** self.rat // base, self.rat) + "×"


# --- untrusted text in Markdown ----------------------------------------------
# One rule, report.md's (common/report/mdescape.h), for every string a pull
# request chose (a path, a reason a stage gave) wherever GitHub renders it.

_INERT = set(" /-,;=+()'\"?")


def _ascii_alnum(ch):
    return ch.isascii() and ch.isalnum()


def md_escape(text):
    """TEXT for the middle of a Markdown line: letters, digits and
    / - , ; = + ( ) ' " ? pass, '.' except right after "www", '_' between two
    letters or digits; any other character is a numeric reference, a control
    character U+FFFD.  Nothing can open a link, an image, emphasis, a code
    span, an HTML tag or entity, or end a table cell."""
    out, last3 = [], ""
    chars = str(text)
    for i, ch in enumerate(chars):
        cp = ord(ch)
        nxt = chars[i + 1] if i + 1 < len(chars) else ""
        if _ascii_alnum(ch) or ch in _INERT:
            out.append(ch)
        elif ch == "_" and _ascii_alnum(last3[-1:]) and _ascii_alnum(nxt):
            out.append(ch)
        elif ch == "." and last3 != "www":
            out.append(ch)
        elif cp < 0x20 or 0x7f <= cp < 0xa0 or 0xd800 <= cp <= 0xdfff:
            out.append("&#xFFFD;")
        else:
            out.append(f"&#{cp};")
        # the last three characters, ASCII lowered, anything else a NUL
        last3 = (last3 + (ch.lower() if ch.isascii() else "\0"))[-3:]
    return "".join(out)


def md_code(text):
    """md_escape(TEXT) in <code>, where GitHub makes no mention or issue link."""
    return f"<code>{md_escape(text)}</code>"


# --- the check document ------------------------------------------------------

def nbytes(text):
    """TEXT's length as GitHub counts it: UTF-8 bytes."""
    return len(text.encode("utf-8"))


def head_bytes(text, limit):
    """The longest start of TEXT of at most LIMIT bytes, never half a character."""
    return text.encode("utf-8")[:max(limit, 0)].decode("utf-8", "ignore")


def cut_title(text):
    text = " ".join(str(text).split())
    if nbytes(text) <= TITLE_LIMIT:
        return text
    cut = head_bytes(text, TITLE_LIMIT - nbytes("…"))
    if " " in cut:
        cut = cut[:cut.rindex(" ")]
    return cut + "…"


def cut_at_line(text, limit, tail):
    """TEXT whole if it fits in LIMIT bytes, else cut at a line with TAIL after it."""
    budget = limit - MARGIN
    if nbytes(text) <= budget:
        return text
    cut = head_bytes(text, budget - nbytes(tail))
    if "\n" in cut:
        cut = cut[:cut.rindex("\n") + 1]
    return cut + tail


def refused_summary(run_url):
    """What a check run says when GitHub refused its whole summary: it
    still completes, short, with where the report is."""
    return (f"GitHub refused this check run's report.  The whole report is in the job "
            f"summary and the artifact of [this run]({run_url}).\n")


def more_at(run_url):
    return (f"\n\n---\n*Cut to fit: the whole report is in the job summary and the "
            f"artifact of [this run]({run_url}).*\n")


def check_doc(head, conclusion, title, summary, annotations=(), flagged=0):
    return {"schema": SCHEMA, "name": NAME, "head_sha": head, "conclusion": conclusion,
            "title": cut_title(title), "summary": summary, "annotations": list(annotations),
            "flagged": flagged}


def flagged_files(report, where):
    files = report.get("files")
    need(isinstance(files, list), "report.json has no files list", where)
    out = []
    for f in files:
        need(isinstance(f, dict) and isinstance(f.get("path"), str), "a file without a path", where)
        if f.get("flagged") is True:
            out.append(f)
    return out


def side_ms(f, side, where):
    s = f.get(side)
    need(isinstance(s, dict) and number(s.get("cpu_s")),
         f"flagged file {f['path']} has no {side} CPU", where)
    return ms(s["cpu_s"])


def annotation(f, fig, where):
    head = side_ms(f, "head", where)
    if f.get("change") == "added":
        figures = f"new, {fig.cpu(head)} s CPU"
    else:
        base = side_ms(f, "base", where)
        figures = (f"{fig.cpu(base)} → {fig.cpu(head)} s CPU "
                   f"({fig.ratio(head, base)}, {fig.signed(head - base)} s)")
    reason = f.get("reason") if isinstance(f.get("reason"), str) else ""
    return {"path": f["path"], "start_line": 1, "end_line": 1, "annotation_level": "warning",
            "title": "sphereceti: slower to elaborate",
            "message": f"{f['path']}: {figures}; {reason}. Advisory: flags never fail the check "
                       f"unless the repository asks for it."}


def check_from_report(report_path, md_path, head, run_url, fail_on_flag):
    r = load_json(report_path, "report.json")
    need(isinstance(r, dict) and r.get("schema") == "sphereceti.report/1",
         "not a sphereceti report (schema sphereceti.report/1)", report_path)
    status = r.get("status")
    need(status in ("ok", "no_changes", "error"), "report.json has no known status", report_path)
    headline = r.get("headline")
    need(isinstance(headline, str) and headline, "report.json has no headline", report_path)
    md = read_text(md_path, "report.md")
    flagged = flagged_files(r, report_path)
    fig = Figures(r, report_path)
    notes = [annotation(f, fig, report_path) for f in flagged]
    if status == "error":
        conclusion = "failure"
    elif status == "no_changes":
        conclusion = "neutral"
    elif flagged:
        conclusion = "failure" if fail_on_flag else "neutral"
    else:
        conclusion = "success"
    return check_doc(head, conclusion, headline, cut_at_line(md, SUMMARY_LIMIT, more_at(run_url)),
                     notes, len(flagged))


def check_from_outcome(head, conclusion, title, details, run_url):
    need(conclusion in ("neutral", "failure"), f"unknown conclusion '{conclusion}'", "--conclusion")
    need(title.strip(), "an empty title", "--title")
    # the title may carry what a pull request chose (a refused path): inert
    summary = f"{md_code(' '.join(title.split()))}\n"
    if details:
        summary += f"\n{details.strip()}\n"
    summary += f"\nHead: `{head}`. [The run]({run_url}).\n"
    return check_doc(head, conclusion, title, cut_at_line(summary, SUMMARY_LIMIT, more_at(run_url)))


def note(path, conclusion, title, details):
    need(conclusion in ("neutral", "failure"), f"unknown conclusion '{conclusion}'", "--conclusion")
    need(title.strip(), "an empty title", "--title")
    doc = {"conclusion": conclusion, "title": " ".join(title.split()),
           "details": " ".join((details or "").split())}
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
    except OSError as e:
        raise Bad(f"cannot write the note: {e.strerror}", path)
    return f"sphereceti: {doc['title']}" + (f". {doc['details']}" if doc["details"] else "")


def load_note(path):
    d = load_json(path, "the note")
    need(isinstance(d, dict) and all(isinstance(d.get(k), str) for k in ("conclusion", "title", "details")),
         "an incomplete note", path)
    return d


def load_check(path):
    d = load_json(path, "the check document")
    need(isinstance(d, dict) and d.get("schema") == SCHEMA, f"not a check document ({SCHEMA})", path)
    need(isinstance(d.get("head_sha"), str) and d["conclusion"] in CONCLUSIONS and
         isinstance(d.get("title"), str) and isinstance(d.get("summary"), str) and
         isinstance(d.get("annotations"), list), "an incomplete check document", path)
    return d


def comment_body(d):
    head = f"{MARKER}\n**sphereceti** on `{d['head_sha'][:12]}`: {md_code(d['title'])}\n\n"
    tail = "\n\n---\n*Cut to fit a comment: the whole report is in the check run and the job summary.*\n"
    return head + cut_at_line(d["summary"], COMMENT_LIMIT - nbytes(head), tail)


def timings(marks_path, report):
    try:
        with open(marks_path, encoding="utf-8") as f:
            rows = [line.split(None, 1) for line in f if line.strip()]
        marks = [(float(t), name.strip()) for t, name in rows]
    except (OSError, ValueError):
        raise Bad("cannot read the step marks", marks_path)
    lines = ["", "### Time to result", "", "| step | wall (s) |", "|:--|--:|"]
    total = 0.0
    for (t0, _), (t1, name) in zip(marks, marks[1:]):
        lines.append(f"| {name} | {t1 - t0:.0f} |")
        if name == "profile" and isinstance(report, dict):
            for side in ("base", "head"):
                pb = (report.get("prebuild") or {}).get(side) or {}
                if isinstance(pb, dict) and number(pb.get("wall_s")):
                    lines.append(f"| &nbsp;&nbsp;{side} prebuild | {pb['wall_s']:.0f} |")
            walls = [s.get("wall_s") for f in report.get("files") or [] if isinstance(f, dict)
                     for s in (f.get("base"), f.get("head")) if isinstance(s, dict)]
            walls = [w for w in walls if number(w)]
            lines.append(f"| &nbsp;&nbsp;samples ({len(walls)}) | {sum(walls):.0f} |")
        total += t1 - t0
    lines.append(f"| **total** | {total:.0f} |")
    return "\n".join(lines) + "\n"


def options(args, allowed, flags=()):
    """--name VALUE pairs (and bare FLAGS) into a dict; anything else is refused."""
    out, i = {}, 0
    while i < len(args):
        a = args[i]
        if a.startswith("--") and a[2:] in flags:
            out[a[2:]] = True
            i += 1
            continue
        need(a.startswith("--") and a[2:] in allowed and i + 1 < len(args),
             f"unknown or incomplete option '{a}'", "arguments")
        out[a[2:]] = args[i + 1]
        i += 2
    return out


def emit(doc):
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")


USAGE = ("usage: verdict.py check REPORT_JSON REPORT_MD --head SHA --run-url URL [--fail-on-flag] | "
         "outcome --head SHA --run-url URL (--conclusion C --title TEXT [--details TEXT] | --from NOTE) | "
         "note NOTE --conclusion C --title TEXT [--details TEXT] | "
         "comment CHECK_JSON | timings MARKS [REPORT_JSON]")


def main(argv):
    mode, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if mode == "check" and len(args) >= 2:
        o = options(args[2:], ("head", "run-url"), ("fail-on-flag",))
        need("head" in o and "run-url" in o, "check wants --head and --run-url", "arguments")
        emit(check_from_report(args[0], args[1], o["head"], o["run-url"], o.get("fail-on-flag", False)))
    elif mode == "outcome":
        o = options(args, ("head", "conclusion", "title", "run-url", "details", "from"))
        if "from" in o:
            o.update(load_note(o["from"]))
        need(all(k in o for k in ("head", "conclusion", "title", "run-url")),
             "outcome wants --head, --run-url and --conclusion with --title (or --from)", "arguments")
        emit(check_from_outcome(o["head"], o["conclusion"], o["title"], o.get("details"), o["run-url"]))
    elif mode == "note" and args:
        o = options(args[1:], ("conclusion", "title", "details"))
        need("conclusion" in o and "title" in o, "note wants --conclusion and --title", "arguments")
        say(note(args[0], o["conclusion"], o["title"], o.get("details")))
    elif mode == "comment" and len(args) == 1:
        sys.stdout.write(comment_body(load_check(args[0])))
    elif mode == "timings" and len(args) in (1, 2):
        sys.stdout.write(timings(args[0], load_json(args[1], "report.json") if len(args) == 2 else None))
    else:
        raise Bad(USAGE, "arguments")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Bad as e:
        die(*e.args)
    except Exception as e:  # a bug here must still be one line, never a traceback
        die(f"internal error: {e.__class__.__name__}: {e}", sys.argv[1] if len(sys.argv) > 1 else "arguments")
