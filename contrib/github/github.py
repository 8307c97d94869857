#!/usr/bin/python3
"""github.py: everything contrib/github/profile.yml asks of GitHub's REST API,
each call from the job that holds just the permission it needs.

  github.py gate
        (the gate job, pull-requests: read) what this event asks: whether to
        measure, which pull request and which head the approval binds to,
        whether the head gets a check run, why not; written to $GITHUB_OUTPUT
        (measure, publish, pr, head, group, reason, details) and one line to
        $GITHUB_STEP_SUMMARY
  github.py start --head SHA
        (checks: write) the check run on SHA says "in progress" for this run
  github.py finish --head SHA [--doc CHECK_JSON] [--result R] [--reason TEXT [--details TEXT]]
        (checks: write) the check run on SHA gets the verdict: the check
        document the profile job made (verdict.py), else one made here from
        the gate's reason, or from how the profile job ended (R)
  github.py comment --pr N --head SHA [--doc CHECK_JSON] [--result R] [--reason TEXT [--details TEXT]]
        (pull-requests: write) the one sticky comment, created or updated

The gate (Documentation/ci.txt "Who may start it"): a pull request by an
OWNER, MEMBER or COLLABORATOR is measured at once (any author's with
SPHERECETI_MEASURE_ANYONE=true); a merge queue's commit gets a neutral
check at once; the label `profile`, a
comment "/profile" (or "/profile SHA", SHA a full commit ID) by one of them, or a dispatch with
the pull request's number and head approve any other.  Every approval binds
to the head the approver saw (the label event's head, the head when the
comment is read, the dispatch's head input): a pull request that has moved
since is not measured.  Any other label or comment starts nothing and
cancels nothing (its concurrency group is its own).

The check run (Documentation/ci.txt "The verdict on the head"): one named
"sphereceti" on the head, never on a merge made on the runner; created, or
updated when the newest one has no annotations (the API appends
annotations and cannot remove them, so a rerun of a flagged head makes a
new check run of the same name, which GitHub shows in place of the old);
annotations go 50 to a request.  A run that was cancelled leaves alone a
check run a newer run has taken over.

Environment (as the runner sets it): GITHUB_API_URL (https, or http on
loopback only), GITHUB_REPOSITORY, GITHUB_SERVER_URL, GITHUB_RUN_ID,
GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REF_NAME, GITHUB_OUTPUT,
GITHUB_STEP_SUMMARY; GH_TOKEN, the job's token, sent to GITHUB_API_URL and
nowhere else.  Exit 0; 1 with one line "github.py: error: ..." when GitHub
refuses a request or cannot be reached; 2 for bad usage or input.
"""
import datetime
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict  # noqa: E402  (the check document's one home)

MAINTAINERS = ("OWNER", "MEMBER", "COLLABORATOR")
LABEL = "profile"
BOT = "github-actions[bot]"
APP = "github-actions"
PER_REQUEST = 50  # annotations the Checks API takes in one request
FULL_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


class Failed(Exception):
    """GitHub refused or could not be reached: (what, where), exit 1."""


def die(code, what, where):
    verdict.say(f"github.py: error: {what} ({where})", sys.stderr)
    sys.exit(code)


def env(name):
    v = os.environ.get(name)
    if not v:
        raise verdict.Bad(f"{name} is not set", "environment")
    return v


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Api:
    def __init__(self):
        self.base = env("GITHUB_API_URL").rstrip("/")
        u = urllib.parse.urlsplit(self.base)
        loopback = u.hostname in ("127.0.0.1", "localhost", "::1")
        if u.scheme != "https" and not (u.scheme == "http" and loopback):
            raise verdict.Bad("the token goes over https only (http on loopback, for tests)",
                              "GITHUB_API_URL")
        self.token = env("GH_TOKEN")
        self.repo = env("GITHUB_REPOSITORY")

    def call(self, method, path, body=None, query=None):
        url = f"{self.base}/repos/{self.repo}/{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method, headers={
            "Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28",
            "Authorization": f"Bearer {self.token}", "User-Agent": "sphereceti",
            **({"Content-Type": "application/json"} if data is not None else {})})
        where = f"{method} /repos/{self.repo}/{path}"
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                raw = r.read()
                link = r.headers.get("Link", "")
        except urllib.error.HTTPError as e:
            try:
                msg = json.loads(e.read().decode()).get("message", "")
            except (ValueError, AttributeError, OSError):
                msg = ""
            raise Failed(f"GitHub answered {e.code} {e.reason}{': ' + msg if msg else ''}", where)
        except (urllib.error.URLError, OSError) as e:
            raise Failed(f"GitHub could not be reached: {getattr(e, 'reason', e)}", where)
        try:
            return (json.loads(raw) if raw else None), link
        except ValueError:
            raise Failed("GitHub answered something that is not JSON", where)


# --- the gate --------------------------------------------------------------

class Decision:
    def __init__(self, pr="", head="", measure=False, publish=False, reason="", details=""):
        self.pr, self.head, self.measure, self.publish = str(pr), head, measure, publish
        self.reason, self.details = reason, details


def the_pull(api, n):
    pull, _ = api.call("GET", f"pulls/{n}")
    if not isinstance(pull, dict) or not isinstance((pull.get("head") or {}).get("sha"), str):
        raise Failed("no such pull request", f"pull request #{n}")
    return pull


def moved(n, approved, now_at, how):
    return Decision(n, approved, publish=True,
                    reason=f"Not measured: pull request #{n} moved on to {now_at[:12]} since "
                           f"{approved[:12]} was approved",
                    details=f"An approval binds to the head its approver saw. {how}")


def decide(api, name, event, ref_name, anyone=False):
    if name == "pull_request_target":
        pr = event.get("pull_request") or {}
        n, head, action = pr.get("number"), (pr.get("head") or {}).get("sha", ""), event.get("action")
        if action == "labeled":
            label = (event.get("label") or {}).get("name", "")
            if label != LABEL:
                return Decision(n, reason=f"the label {label!r} is not {LABEL!r}: nothing to do")
            return Decision(n, head, measure=True, publish=True,
                            reason=f"the label {LABEL!r} approves {head[:12]}")
        if action not in ("opened", "synchronize", "reopened"):
            return Decision(n, reason=f"a pull request {action} event: nothing to do")
        who = pr.get("author_association", "NONE")
        if who in MAINTAINERS:
            return Decision(n, head, measure=True, publish=True,
                            reason=f"pull request #{n} is by a {who.lower()}: measured at once")
        if anyone:  # the project's choice: the sandbox is the boundary, runner time the cost
            return Decision(n, head, measure=True, publish=True,
                            reason=f"pull request #{n} ({who}): measured at once, as "
                                   f"SPHERECETI_MEASURE_ANYONE says")
        # after a push the label that approved an earlier head is still on:
        # adding it is no event, removing and adding it again is
        labelled = any(isinstance(lb, dict) and lb.get("name") == LABEL for lb in pr.get("labels") or [])
        label_how = (f"removing the label `{LABEL}` (it approved an earlier head) and adding it again"
                     if labelled else f"adding the label `{LABEL}`")
        return Decision(n, head, publish=True,
                        reason=f"Not measured yet: pull request #{n} is by a contributor from "
                               f"outside the project ({who})",
                        details=f"A maintainer approves this head ({head[:12]}) by commenting "
                                f"`/profile`, {label_how}, or running the workflow "
                                f"by hand with its number and head. Each push needs a new approval.")
    if name == "issue_comment":
        issue, comment = event.get("issue") or {}, event.get("comment") or {}
        n = issue.get("number", "")
        if not issue.get("pull_request"):
            return Decision(n, reason="a comment on an issue, not a pull request: nothing to do")
        first = (comment.get("body") or "").strip().split("\n", 1)[0].strip()
        m = re.fullmatch(r"/profile(?:\s+([0-9a-f]+))?", first)
        if not m:
            return Decision(n, reason="not a /profile comment: nothing to do")
        who, login = comment.get("author_association", "NONE"), (comment.get("user") or {}).get("login", "")
        if who not in MAINTAINERS:
            return Decision(n, reason=f"/profile by {login} ({who}): only owners, members and "
                                      f"collaborators start a profile")
        pull = the_pull(api, n)
        head, base = pull["head"]["sha"], (pull.get("base") or {}).get("ref", "")
        if pull.get("state") != "open":
            return Decision(n, reason=f"pull request #{n} is {pull.get('state')}: nothing to do")
        if base != ref_name:
            return Decision(n, head, publish=True,
                            reason=f"Not measured: pull request #{n} targets {base}, and /profile "
                                   f"compares against {ref_name}",
                            details=f"Run the workflow by hand on {base} with the number and the head.")
        named = m.group(1)
        if named and not FULL_SHA.fullmatch(named):
            # a commit sharing a short ID's digits can be made and pushed
            # just before this reads the pull request: it would be measured
            return Decision(n, head, publish=True,
                            reason=f"Not measured: /profile names {named}, not a full commit ID",
                            details=f"An approval names a full commit ID or none. To approve the "
                                    f"head as it is now, comment `/profile {head}`.")
        if named and named != head:
            return moved(n, named, head, "Comment `/profile` again for the new head.")
        return Decision(n, head, measure=True, publish=True,
                        reason=f"/profile by {login} approves {head[:12]}")
    if name == "workflow_dispatch":
        inputs = event.get("inputs") or {}
        n, want = str(inputs.get("pr", "")).strip(), str(inputs.get("head", "")).strip()
        if not n.isdigit():
            raise verdict.Bad(f"the input pr is not a pull request number: {n!r}", "workflow_dispatch")
        if not FULL_SHA.fullmatch(want):
            raise verdict.Bad(f"the input head is not a full commit ID: {want!r}", "workflow_dispatch")
        pull = the_pull(api, n)
        head, base = pull["head"]["sha"], (pull.get("base") or {}).get("ref", "")
        if head != want:
            return moved(n, want, head, "Run the workflow again with the new head.")
        if base != ref_name:
            return Decision(n, head, publish=True,
                            reason=f"Not measured: pull request #{n} targets {base}, and this run "
                                   f"is on {ref_name}",
                            details=f"Run the workflow by hand on {base}.")
        return Decision(n, head, measure=True, publish=True,
                        reason=f"a dispatch approves {head[:12]}")
    if name == "merge_group":
        # a required check must land on the queue's commit, or the queue
        # waits for it forever; each pull request was measured on its head
        head = str((event.get("merge_group") or {}).get("head_sha", ""))
        if not FULL_SHA.fullmatch(head):
            raise verdict.Bad(f"the merge group's head is not a full commit ID: {head!r}", "merge_group")
        return Decision("", head, publish=True,
                        reason="Not measured in the merge queue: each pull request's own head "
                               "holds its verdict",
                        details="sphereceti measures a pull request's head against the base "
                                "branch before it is queued (its check run there); the queue's "
                                "merge commit gets this neutral check so that a required check "
                                "never holds the queue.")
    return Decision(reason=f"a {name} event: nothing to do")


def gate():
    name = env("GITHUB_EVENT_NAME")
    with open(env("GITHUB_EVENT_PATH"), encoding="utf-8") as f:
        event = json.load(f)
    needs_api = name in ("issue_comment", "workflow_dispatch")
    d = decide(Api() if needs_api else None, name, event, os.environ.get("GITHUB_REF_NAME", ""),
               anyone=os.environ.get("MEASURE_ANYONE") == "true")
    group = f"sphereceti-profile-{d.pr}" if d.measure else f"sphereceti-noop-{env('GITHUB_RUN_ID')}"
    out = {"measure": str(d.measure).lower(), "publish": str(d.publish).lower(), "pr": d.pr,
           "head": d.head, "group": group, "reason": " ".join(d.reason.split()),
           "details": " ".join(d.details.split())}
    with open(env("GITHUB_OUTPUT"), "a", encoding="utf-8") as f:
        for k, v in out.items():
            f.write(f"{k}={v}\n")
    line = f"sphereceti: {out['reason']}" + (f". {out['details']}" if out["details"] else "")
    with open(env("GITHUB_STEP_SUMMARY"), "a", encoding="utf-8") as f:
        f.write(line + "\n")
    verdict.say(line)


# --- the check run ---------------------------------------------------------

def run_url():
    return (f"{env('GITHUB_SERVER_URL')}/{env('GITHUB_REPOSITORY')}/actions/runs/"
            f"{env('GITHUB_RUN_ID')}")


def the_document(o, head):
    """The profile job's check document, else one made from what is known."""
    if o.get("doc") and os.path.exists(o["doc"]):
        d = verdict.load_check(o["doc"])
        if d["head_sha"] != head:
            raise verdict.Bad(f"the check document is about {d['head_sha']}, not {head}", o["doc"])
        return d, False
    if o.get("reason"):
        return verdict.check_from_outcome(head, "neutral", o["reason"], o.get("details"), run_url()), False
    result = o.get("result", "")
    if result == "cancelled":
        return verdict.check_from_outcome(
            head, "neutral", "Not measured: the run was cancelled",
            "A newer run of this pull request replaces it, or a person stopped it.", run_url()), True
    return verdict.check_from_outcome(
        head, "failure", f"sphereceti did not finish: the profile job ended in {result or 'an unknown state'}",
        "See the run's log; rerun the job once the cause is fixed.", run_url()), False


def newest_run(api, head):
    found, _ = api.call("GET", f"commits/{head}/check-runs",
                        query={"check_name": verdict.NAME, "filter": "latest", "per_page": 100})
    runs = [r for r in (found or {}).get("check_runs") or []
            if isinstance(r, dict) and r.get("name") == verdict.NAME and
            ((r.get("app") or {}).get("slug", APP) == APP)]
    return max(runs, key=lambda r: r.get("id", 0)) if runs else None


def reusable(run):
    return run is not None and not ((run.get("output") or {}).get("annotations_count") or 0)


def create_or_update(api, head, run, fields):
    """PATCH RUN when it can take FIELDS without piling up annotations, else POST."""
    if reusable(run):
        try:
            updated, _ = api.call("PATCH", f"check-runs/{run['id']}", fields)
            return updated
        except Failed as e:
            if " 422 " not in f" {e.args[0]} ":
                raise
    made, _ = api.call("POST", "check-runs", dict(fields, head_sha=head))
    return made


def start(o):
    api, head = Api(), o["head"]
    fields = {"name": verdict.NAME, "status": "in_progress", "external_id": env("GITHUB_RUN_ID"),
              "details_url": run_url(), "started_at": now(),
              "output": {"title": "Profiling…",
                         "summary": f"sphereceti is measuring `{head}`; the verdict replaces this "
                                    f"when [the run]({run_url()}) ends."}}
    made = create_or_update(api, head, newest_run(api, head), fields)
    verdict.say(f"github.py: check run {made.get('id')} on {head}: in progress")


def finish(o):
    api, head = Api(), o["head"]
    doc, superseded = the_document(o, head)
    run = newest_run(api, head)
    if superseded and run is not None and run.get("external_id") != env("GITHUB_RUN_ID"):
        verdict.say(f"github.py: check run {run.get('id')} on {head} belongs to a newer run: left alone")
        return
    notes = doc["annotations"]
    batches = [notes[i:i + PER_REQUEST] for i in range(0, len(notes), PER_REQUEST)] or [[]]
    output = {"title": doc["title"], "summary": doc["summary"]}
    fields = {"name": verdict.NAME, "status": "completed", "conclusion": doc["conclusion"],
              "completed_at": now(), "external_id": env("GITHUB_RUN_ID"), "details_url": run_url(),
              "output": dict(output, annotations=batches[0])}
    try:
        made = create_or_update(api, head, run, fields)
    except Failed as e:
        if " 422 " not in f" {e.args[0]} ":
            raise
        # refused whole: the check run still completes, never left in
        # progress, with a short summary that says where the report is
        verdict.say(f"github.py: GitHub refused the check run's report: {e.args[0]}")
        output = {"title": doc["title"], "summary": verdict.refused_summary(run_url())}
        made = create_or_update(api, head, run, dict(fields, output=dict(output, annotations=[])))
        batches = [[]]
    for more in batches[1:]:
        api.call("PATCH", f"check-runs/{made['id']}", {"output": dict(output, annotations=more)})
    verdict.say(f"github.py: check run {made.get('id')} on {head}: {doc['conclusion']}: {doc['title']}")


def comment(o):
    api, head, n = Api(), o["head"], o["pr"]
    if not str(n).isdigit():
        raise verdict.Bad(f"not a pull request number: {n!r}", "--pr")
    doc, _ = the_document(o, head)
    body = verdict.comment_body(doc)
    mine, page = None, 1
    while mine is None:
        found, link = api.call("GET", f"issues/{n}/comments", query={"per_page": 100, "page": page})
        for c in found or []:
            if (isinstance(c, dict) and (c.get("user") or {}).get("login") == BOT and
                    str(c.get("body", "")).startswith(verdict.MARKER)):
                mine = c
                break
        if 'rel="next"' not in link or not found:
            break
        page += 1
    if mine:
        api.call("PATCH", f"issues/comments/{mine['id']}", {"body": body})
        verdict.say(f"github.py: comment {mine['id']} on #{n} updated")
    else:
        made, _ = api.call("POST", f"issues/{n}/comments", {"body": body})
        verdict.say(f"github.py: comment {(made or {}).get('id')} on #{n} created")


USAGE = ("usage: github.py gate | start --head SHA | finish --head SHA [--doc F] [--result R] "
         "[--reason T [--details T]] | comment --pr N --head SHA [--doc F] [--result R] [--reason T [--details T]]")


def main(argv):
    mode, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if mode == "gate" and not args:
        gate()
        return 0
    known = {"start": ("head",), "finish": ("head", "doc", "result", "reason", "details"),
             "comment": ("pr", "head", "doc", "result", "reason", "details")}
    if mode not in known:
        raise verdict.Bad(USAGE, "arguments")
    o = verdict.options(args, known[mode])
    if not FULL_SHA.fullmatch(o.get("head", "")):
        raise verdict.Bad(f"--head wants a full commit ID: {o.get('head', '')!r}", "--head")
    {"start": start, "finish": finish, "comment": comment}[mode](o)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Failed as e:
        die(1, *e.args)
    except verdict.Bad as e:
        die(2, *e.args)
    except Exception as e:  # one line, never a traceback
        die(2, f"internal error: {e.__class__.__name__}: {e}", sys.argv[1] if len(sys.argv) > 1 else "arguments")
