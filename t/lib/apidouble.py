#!/usr/bin/python3
"""apidouble.py STATE_DIR: a double of GitHub's REST API on loopback, for the
recipe's replays (t/github.bats, t/recipe/): the calls contrib/github/github.py
makes, answered and checked as GitHub documents them (github/docs,
content/rest/checks/; the OpenAPI description's limits).

It listens on 127.0.0.1 on a port of its own, then writes the port to
STATE_DIR/port (the readiness signal: wait for that file).  On every request
it reads STATE_DIR/config.json (written by the test; it may change between
requests):
  {"token": "...",                            the job token it accepts
   "repo": "owner/name",
   "pulls": {"7": {"head": SHA, "base": "main", "state": "open"}},
   "fail": {"POST check-runs": 500, ...},     "METHOD PATH-UNDER-REPO" prefixes
   "summary_limit": BYTES}                    below GitHub's: a summary it refuses
and appends one JSON line per request to STATE_DIR/requests.jsonl:
  {"method", "path", "query", "token": "ok"|"missing"|"wrong", "size",
   "body": the JSON sent, or null, "status": what it answered}.
What it holds (check runs, comments) is in STATE_DIR/checks.json and
STATE_DIR/comments.json after every change.

Checked as GitHub checks them (422 otherwise): a check run has a name and,
when created, a head_sha of 40 or 64 hex; a completed one a conclusion of
GitHub's list; an output has a title and a summary of at most 65,535
bytes (GitHub counts UTF-8 bytes, not characters); at most 50 annotations a
request, each with path, start_line, end_line, annotation_level (notice,
warning, failure) and a message of at most 64 KB, a title of at most 255
bytes.  Annotations are appended on every update, as GitHub appends them
(output.annotations_count counts them all).  A comment body is at most
65,536 bytes.  A request without the token is 401.
"""
import http.server
import json
import os
import re
import sys
import threading
import urllib.parse

STATE = sys.argv[1]
LOCK = threading.Lock()
CHECKS, COMMENTS = [], []
CONCLUSIONS = ("action_required", "cancelled", "failure", "neutral", "success", "skipped",
               "stale", "timed_out")


def config():
    try:
        with open(os.path.join(STATE, "config.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def dump(name, what):
    tmp = os.path.join(STATE, name + ".tmp")
    with open(tmp, "w") as f:
        json.dump(what, f, indent=1)
    os.rename(tmp, os.path.join(STATE, name))


class Refused(Exception):
    pass


def check_output(out, limit):
    if not isinstance(out, dict) or not isinstance(out.get("title"), str) or not isinstance(out.get("summary"), str):
        raise Refused("output needs a title and a summary")
    if len(out["summary"].encode("utf-8")) > limit:
        raise Refused(f"output.summary is longer than {limit} bytes")
    notes = out.get("annotations", [])
    if not isinstance(notes, list) or len(notes) > 50:
        raise Refused("at most 50 annotations a request")
    for a in notes:
        if not all(k in a for k in ("path", "start_line", "end_line", "annotation_level", "message")):
            raise Refused("an annotation lacks a required field")
        if a["annotation_level"] not in ("notice", "warning", "failure"):
            raise Refused("annotation_level is not notice, warning or failure")
        if len(a.get("title", "").encode("utf-8")) > 255:
            raise Refused("an annotation title is longer than 255 bytes")
        if len(str(a["message"]).encode("utf-8")) > 65536:
            raise Refused("an annotation message is longer than 64 KB")
    return len(notes)


def apply_run(run, body, limit=65535):
    for k in ("name", "status", "conclusion", "external_id", "details_url", "started_at", "completed_at"):
        if k in body:
            run[k] = body[k]
    if "output" in body:
        n = check_output(body["output"], limit)
        prev = run.get("output") or {}
        run["output"] = {"title": body["output"]["title"], "summary": body["output"]["summary"],
                         "annotations_count": prev.get("annotations_count", 0) + n,
                         "annotations": prev.get("annotations", []) + body["output"].get("annotations", [])}
    if run.get("status") == "completed" and run.get("conclusion") not in CONCLUSIONS:
        raise Refused("a completed check run needs a conclusion")


def public(run):
    out = dict(run)
    out["output"] = {k: v for k, v in (run.get("output") or {}).items() if k != "annotations"}
    out["app"] = {"slug": "github-actions"}
    return out


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        return status

    def handle_any(self):
        cfg = config()
        u = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(u.query))
        size = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(size) if size else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = "<not JSON>"
        auth = self.headers.get("Authorization", "")
        token = "missing" if not auth else "ok" if auth == f"Bearer {cfg.get('token')}" else "wrong"
        with LOCK:
            status = self.route(cfg, u.path, query, body, token)
            with open(os.path.join(STATE, "requests.jsonl"), "a") as f:
                f.write(json.dumps({"method": self.command, "path": u.path, "query": query,
                                    "token": token, "size": size, "body": body,
                                    "status": status}) + "\n")

    def route(self, cfg, path, query, body, token):
        if token != "ok":
            return self.answer(401, {"message": "Bad credentials"})
        prefix = f"/repos/{cfg.get('repo', 'owner/proj')}/"
        if not path.startswith(prefix):
            return self.answer(404, {"message": "Not Found"})
        rest = path[len(prefix):]
        for what, code in (cfg.get("fail") or {}).items():
            m, p = what.split(" ", 1)
            if m == self.command and rest.startswith(p):
                return self.answer(code, {"message": "the double was told to fail this"})
        try:
            return self.dispatch(cfg, rest, query, body)
        except Refused as e:
            return self.answer(422, {"message": f"Validation Failed: {e}"})

    def dispatch(self, cfg, rest, query, body):
        m = re.fullmatch(r"commits/([0-9a-f]+)/check-runs", rest)
        if self.command == "GET" and m:
            runs = [public(r) for r in CHECKS if r["head_sha"] == m.group(1) and
                    r["name"] == query.get("check_name", r["name"])]
            runs.sort(key=lambda r: -r["id"])
            return self.answer(200, {"total_count": len(runs), "check_runs": runs})
        if self.command == "POST" and rest == "check-runs":
            if not isinstance(body, dict) or not body.get("name") or \
                    not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", str(body.get("head_sha", ""))):
                raise Refused("a check run needs a name and a head_sha")
            run = {"id": len(CHECKS) + 1, "head_sha": body["head_sha"], "status": "queued"}
            apply_run(run, body, cfg.get("summary_limit", 65535))
            CHECKS.append(run)
            dump("checks.json", CHECKS)
            return self.answer(201, public(run))
        m = re.fullmatch(r"check-runs/(\d+)", rest)
        if self.command == "PATCH" and m:
            run = next((r for r in CHECKS if r["id"] == int(m.group(1))), None)
            if run is None:
                return self.answer(404, {"message": "Not Found"})
            if not isinstance(body, dict):
                raise Refused("not a JSON object")
            trial = json.loads(json.dumps(run))
            apply_run(trial, body, cfg.get("summary_limit", 65535))
            run.clear()
            run.update(trial)
            dump("checks.json", CHECKS)
            return self.answer(200, public(run))
        m = re.fullmatch(r"pulls/(\d+)", rest)
        if self.command == "GET" and m:
            p = (cfg.get("pulls") or {}).get(m.group(1))
            if not p:
                return self.answer(404, {"message": "Not Found"})
            return self.answer(200, {"number": int(m.group(1)), "state": p.get("state", "open"),
                                     "head": {"sha": p["head"]}, "base": {"ref": p.get("base", "main")}})
        m = re.fullmatch(r"issues/(\d+)/comments", rest)
        if m and self.command == "GET":
            mine = [c for c in COMMENTS if c["issue"] == int(m.group(1))]
            per, page = int(query.get("per_page", 30)), int(query.get("page", 1))
            part = mine[(page - 1) * per:page * per]
            link = ([("Link", f'<{self.path}&page={page + 1}>; rel="next"')]
                    if page * per < len(mine) else [])
            return self.answer(200, part, link)
        if m and self.command == "POST":
            if not isinstance(body, dict) or not isinstance(body.get("body"), str) or len(body["body"].encode("utf-8")) > 65536:
                raise Refused("a comment body of at most 65536 bytes")
            c = {"id": 100 + len(COMMENTS), "issue": int(m.group(1)), "body": body["body"],
                 "user": {"login": "github-actions[bot]"}}
            COMMENTS.append(c)
            dump("comments.json", COMMENTS)
            return self.answer(201, c)
        m = re.fullmatch(r"issues/comments/(\d+)", rest)
        if m and self.command == "PATCH":
            c = next((c for c in COMMENTS if c["id"] == int(m.group(1))), None)
            if c is None:
                return self.answer(404, {"message": "Not Found"})
            if not isinstance(body, dict) or not isinstance(body.get("body"), str) or len(body["body"].encode("utf-8")) > 65536:
                raise Refused("a comment body of at most 65536 bytes")
            c["body"] = body["body"]
            dump("comments.json", COMMENTS)
            return self.answer(200, c)
        return self.answer(404, {"message": "Not Found"})

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = handle_any


def main():
    for name, what in (("checks.json", CHECKS), ("comments.json", COMMENTS)):
        try:
            with open(os.path.join(STATE, name)) as f:
                what.extend(json.load(f))
        except (OSError, ValueError):
            pass
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    tmp = os.path.join(STATE, "port.tmp")
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(tmp, os.path.join(STATE, "port"))
    srv.serve_forever()


if __name__ == "__main__":
    main()
