#!/usr/bin/python3
"""replay.py WORKFLOW JOB CONTEXT STANDINS: run a workflow job's steps in order,
as a GitHub runner would, on this machine (t/github.bats).
replay.py --all WORKFLOW CONTEXT STANDINS OUT: every job of the workflow for
one event, in the order of their needs (run_workflow below).

CONTEXT is a JSON file: the `github`, `inputs` and `runner` contexts the
expressions read.  Each step's `if:` is evaluated (default success()); a run:
block runs as `bash --noprofile --norc -eo pipefail FILE` (the jobs' `shell:
bash`) with the process environment plus the job's and the step's env: (their
expressions resolved), what earlier steps appended to $GITHUB_ENV and
$GITHUB_PATH, a fresh $GITHUB_OUTPUT read back into steps.<id>.outputs, and
the one $GITHUB_STEP_SUMMARY of the environment.  A step whose id has a
script STANDINS/<id>.sh runs that script instead (same environment, its
`with:` values as WITH_<NAME>): it stands in for an action, or for a download
this machine cannot make.  Any other `uses:` step is skipped.  An expression
this evaluator does not know is an error, so a workflow cannot drift past
the replay unnoticed.

Prints one line per step, "<id>: success|failure|skipped" (what the steps
print goes to stderr, the job's log); exits 0 when the
job succeeded, 1 when it failed; a step with continue-on-error fails alone.
A job whose own `if:` is false prints "job: skipped" and exits 0; a job
with a concurrency group prints "concurrency: GROUP" first, the group as
GitHub would evaluate it.  CONTEXT may also hold `vars` (repository
variables) and `needs` (earlier jobs' outputs and results).  The workflow's
own env: comes first, then the job's.  The step's environment has what the
runner sets from the event (GITHUB_EVENT_PATH holding github.event,
GITHUB_EVENT_NAME, GITHUB_SHA, GITHUB_REF, GITHUB_REF_NAME).  With
REPLAY_OUTPUTS set, {"result": success|failure|skipped, "outputs": the
job's outputs:} is written there once its steps have run.

WORKFLOW may be JSON (the same document, converted where python3-yaml is
not installed: the runner-shaped root of make check-recipe has none).
With REPLAY_TMPFS=PATH (root, in a mount namespace of the replay's own),
a fresh tmpfs is mounted at PATH first: a folder the workflow names by an
absolute path stays the replay's.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|!|\(|\)|,)|'((?:[^']|'')*)'|([A-Za-z_][A-Za-z0-9_.\-]*))")


class Expr:
    def __init__(self, text, ctx):
        self.toks, pos = [], 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m:
                raise SystemExit(f"replay: error: cannot read expression ({text!r} at {pos})")
            self.toks.append(m.groups())
            pos = m.end()
        self.i, self.ctx, self.text = 0, ctx, text

    def peek(self):
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def value(self):
        v = self.or_()
        if self.i != len(self.toks):
            raise SystemExit(f"replay: error: trailing tokens ({self.text!r})")
        return v

    def or_(self):
        v = self.and_()
        while self.peek() == "||":
            self.i += 1
            w = self.and_()
            v = v if v else w
        return v

    def and_(self):
        v = self.cmp()
        while self.peek() == "&&":
            self.i += 1
            w = self.cmp()
            v = w if v else v
        return v

    def cmp(self):
        v = self.unary()
        if self.peek() in ("==", "!="):
            op = self.toks[self.i][0]
            self.i += 1
            w = self.unary()
            eq = str(v if v is not None else "").lower() == str(w if w is not None else "").lower()
            return eq if op == "==" else not eq
        return v

    def unary(self):
        if self.peek() == "!":
            self.i += 1
            return not self.unary()
        return self.primary()

    def primary(self):
        op, s, name = self.toks[self.i]
        self.i += 1
        if op == "(":
            v = self.or_()
            self.i += 1
            return v
        if s is not None:
            return s.replace("''", "'")
        if self.peek() == "(":
            self.i += 1
            args = []
            while self.peek() != ")":
                args.append(self.or_())
                if self.peek() == ",":
                    self.i += 1
            self.i += 1
            fn = {"always": lambda: True, "success": lambda: not self.ctx["failed"],
                  "failure": lambda: self.ctx["failed"], "cancelled": lambda: False,
                  # GitHub's: case-insensitive, on strings
                  "startsWith": lambda a, b: as_text(a).lower().startswith(as_text(b).lower()),
                  "contains": lambda a, b: as_text(b).lower() in as_text(a).lower(),
                  "fromJSON": lambda a: json.loads(as_text(a))}
            if name not in fn:
                raise SystemExit(f"replay: error: unknown function {name}()")
            return fn[name](*args)
        if name in ("true", "false"):
            return name == "true"
        v = self.ctx
        for part in name.split("."):
            if not isinstance(v, dict) or part not in v:
                if name.split(".")[0] in ("steps", "github", "inputs", "env", "needs", "vars", "matrix"):
                    return ""
                raise SystemExit(f"replay: error: unknown context {name}")
            v = v[part]
        return v


def as_text(v):
    return "" if v is None else (str(v).lower() if isinstance(v, bool) else str(v))


def interpolate(text, ctx):
    def one(m):
        v = Expr(m.group(1), ctx).value()
        return "" if v is None else (str(v).lower() if isinstance(v, bool) else str(v))
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text), flags=re.S)


def condition(text, ctx):
    text = str(text).strip()
    m = re.fullmatch(r"\$\{\{(.*)\}\}", text, flags=re.S)
    expr = m.group(1) if m else text
    if not re.search(r"\b(always|success|failure|cancelled)\(", expr):
        expr = f"success() && ({expr})"
    return bool(Expr(expr, ctx).value())


def read_pairs(path):
    out, lines = {}, open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_\-]*)<<(\S+)", line)
        if m:
            j = lines.index(m.group(2), i + 1)
            out[m.group(1)] = "\n".join(lines[i + 1:j])
            i = j + 1
            continue
        if "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
        i += 1
    return out


def load_workflow(path):
    if path.endswith(".json"):
        return json.load(open(path))
    import yaml
    return yaml.safe_load(open(path))


def record(outputs, result):
    if os.environ.get("REPLAY_OUTPUTS"):
        json.dump({"result": result, "outputs": outputs}, open(os.environ["REPLAY_OUTPUTS"], "w"))


def runner_env(ctx, tmp):
    """What the runner sets from the event: GITHUB_EVENT_*, GITHUB_SHA, GITHUB_REF*."""
    g = ctx["github"]
    path = os.path.join(tmp, "event.json")
    json.dump(g.get("event") or {}, open(path, "w"))
    ref = g.get("ref", "refs/heads/main")
    return {"GITHUB_EVENT_PATH": path, "GITHUB_EVENT_NAME": g.get("event_name", ""),
            "GITHUB_SHA": g.get("sha", ""), "GITHUB_REF": ref,
            "GITHUB_REF_NAME": ref.rsplit("/", 1)[-1]}


def main(workflow, job_name, context, standins):
    w = load_workflow(workflow)
    job = w["jobs"][job_name]
    ctx = json.load(open(context))
    ctx.setdefault("vars", {})
    ctx.setdefault("needs", {})
    ctx.setdefault("matrix", {})
    ctx.update(steps={}, failed=False, env={})
    if os.environ.get("RUNNER_TEMP"):  # the job's runner, as its steps see it
        ctx.setdefault("runner", {})["temp"] = os.environ["RUNNER_TEMP"]
    for k, v in (w.get("env") or {}).items():
        ctx["env"][k] = interpolate(v, ctx)
    # A job's success() is its needs' (a skipped or failed need skips it).
    needs = job.get("needs") or []
    needs = [needs] if isinstance(needs, str) else needs
    ctx["failed"] = any(ctx["needs"].get(n, {}).get("result", "success") != "success" for n in needs)
    if not condition(job.get("if", "success()"), ctx):
        print("job: skipped", flush=True)
        record({}, "skipped")
        return 0
    if "concurrency" in job:
        c = job["concurrency"]
        print(f"concurrency: {interpolate(c['group'] if isinstance(c, dict) else c, ctx)}", flush=True)
    ctx["failed"] = False
    if os.environ.get("REPLAY_TMPFS"):
        subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=0755", "replay", os.environ["REPLAY_TMPFS"]],
                       check=True)
    tmp = tempfile.mkdtemp(prefix="replay.")
    genv, gpath = os.path.join(tmp, "env"), os.path.join(tmp, "path")
    open(genv, "w").close()
    open(gpath, "w").close()
    base_env = runner_env(ctx, tmp)
    for k, v in (job.get("env") or {}).items():
        ctx["env"][k] = interpolate(v, ctx)
    for n, step in enumerate(job["steps"]):
        sid = step.get("id", f"step{n}")
        if not condition(step.get("if", "success()"), ctx):
            print(f"{sid}: skipped", flush=True)
            ctx["steps"][sid] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
            continue
        env = dict(os.environ)
        env.update(base_env)
        env.update(ctx["env"])
        env.update(read_pairs(genv))
        ctx["env"].update(read_pairs(genv))
        extra = [p for p in open(gpath).read().split("\n") if p]
        if extra:
            env["PATH"] = ":".join(reversed(extra)) + ":" + env["PATH"]
        for k, v in (step.get("env") or {}).items():
            env[k] = interpolate(v, ctx)
        out = os.path.join(tmp, f"out.{n}")
        open(out, "w").close()
        env.update(GITHUB_OUTPUT=out, GITHUB_ENV=genv, GITHUB_PATH=gpath)
        stand = os.path.join(standins, f"{sid}.sh")
        if os.path.exists(stand):
            for k, v in (step.get("with") or {}).items():
                env["WITH_" + re.sub(r"[^A-Za-z0-9]", "_", k).upper()] = interpolate(v, ctx)
            argv = ["bash", "--noprofile", "--norc", "-eo", "pipefail", stand]
        elif "uses" in step:
            print(f"{sid}: skipped (uses {step['uses']})", flush=True)
            ctx["steps"][sid] = {"outputs": {}, "outcome": "success", "conclusion": "success"}
            continue
        else:
            script = os.path.join(tmp, f"step.{n}.sh")
            with open(script, "w") as f:
                f.write(step["run"])
            argv = ["bash", "--noprofile", "--norc", "-eo", "pipefail", script]
        # The step's output is the job's log (stderr); stdout is the step lines.
        rc = subprocess.run(argv, env=env, stdout=sys.stderr, cwd=env.get("GITHUB_WORKSPACE", ".")
                            if os.path.isdir(env.get("GITHUB_WORKSPACE", "")) else None).returncode
        outcome = "success" if rc == 0 else "failure"
        soft = bool(step.get("continue-on-error"))
        ctx["steps"][sid] = {"outputs": read_pairs(out), "outcome": outcome,
                             "conclusion": "success" if soft else outcome}
        if rc != 0 and not soft:
            ctx["failed"] = True
        print(f"{sid}: {outcome}", flush=True)
    outputs = {k: interpolate(v, ctx) for k, v in (job.get("outputs") or {}).items()}
    record(outputs, "failure" if ctx["failed"] else "success")
    return 1 if ctx["failed"] else 0


def matrix_of(job, ctx):
    """The job's runs: [(tag, matrix)], one without a strategy; with
    strategy.matrix (one key, its values a list or an expression giving
    one), one a value, each tagged JOB-VALUE, or JOB alone when there is one
    value: a matrix of one is the job as it was."""
    m = (job.get("strategy") or {}).get("matrix")
    needs = job.get("needs") or []
    needs = [needs] if isinstance(needs, str) else needs
    failed = any(ctx["needs"].get(n, {}).get("result", "success") != "success" for n in needs)
    if not m or not condition(job.get("if", "success()"), dict(ctx, failed=failed, steps={}, env={})):
        return [(None, {})]  # a skipped job is skipped before its matrix is read
    if len(m) != 1:
        raise SystemExit("replay: error: a matrix of one key only")
    (key, values), = m.items()
    if isinstance(values, str):
        e = re.fullmatch(r"\$\{\{(.*)\}\}", values.strip(), flags=re.S)
        values = Expr(e.group(1), ctx).value() if e else json.loads(values)
    if not isinstance(values, list) or not values:
        raise SystemExit(f"replay: error: matrix {key} is no list of values ({values!r})")
    return [(None if len(values) == 1 else str(v), {key: v}) for v in values]


def merged_results(results):
    """A matrix job's result as GitHub gives it to needs: failure when a run
    failed, else success (skipped when every run was); outputs the last
    run's."""
    rs = [r["result"] for r in results]
    result = "failure" if "failure" in rs else "skipped" if all(r == "skipped" for r in rs) else "success"
    return {"result": result, "outputs": results[-1]["outputs"]}


def run_job(workflow, name, tag, job_ctx, standins, out):
    """One run of job NAME (TAG: its matrix value, or None), on a runner of
    its own; its files are OUT/NAME[-TAG].*"""
    base = name if tag is None else f"{name}-{tag}"
    jc = os.path.join(out, f"{base}.context.json")
    json.dump(job_ctx, open(jc, "w"))
    home = os.path.join(out, "runners", base)
    env = dict(os.environ, RUNNER_TEMP=os.path.join(home, "temp"),
               GITHUB_WORKSPACE=os.path.join(home, "work"),
               GITHUB_STEP_SUMMARY=os.path.join(out, f"{base}.summary.md"), GITHUB_JOB=name,
               REPLAY_OUTPUTS=os.path.join(out, f"{base}.json"),
               REPLAY_ARTIFACTS=os.path.join(out, "artifacts"))
    os.makedirs(env["RUNNER_TEMP"], exist_ok=True)
    os.makedirs(env["GITHUB_WORKSPACE"], exist_ok=True)
    open(env["GITHUB_STEP_SUMMARY"], "w").close()
    if os.environ.get("REPLAY_RUNNER"):
        subprocess.run(["bash", os.environ["REPLAY_RUNNER"], name], env=env, check=True)
    with open(os.path.join(out, f"{base}.steps"), "w") as so, \
            open(os.path.join(out, f"{base}.stderr"), "w") as se:
        r = subprocess.run([sys.executable, os.path.abspath(__file__), workflow, name, jc, standins],
                           env=env, stdout=so, stderr=se).returncode
    return r, json.load(open(env["REPLAY_OUTPUTS"]))


def run_workflow(workflow, context, standins, out):
    """Every job of WORKFLOW for one event, in the order of its needs, each on
    a runner of its own (REPLAY_RUNNER=SCRIPT is run before each job with the
    job's name: it gives the job a fresh machine, e.g. an empty /opt), as
    GitHub would: a job's `needs` context holds the results and outputs of
    the jobs it names.  OUT/JOB.steps, .stderr, .summary.md, .json (result
    and outputs) for each; artifacts pass between jobs in OUT/artifacts
    (the stand-ins' REPLAY_ARTIFACTS).  Exit 0 when no job failed."""
    w = load_workflow(workflow)
    ctx = json.load(open(context))
    os.makedirs(os.path.join(out, "artifacts"), exist_ok=True)
    done, order, rc = {}, [], 0
    pending = list(w["jobs"])
    while pending:
        for name in pending:
            needs = w["jobs"][name].get("needs") or []
            needs = [needs] if isinstance(needs, str) else needs
            if all(n in done for n in needs):
                break
        else:
            raise SystemExit("replay: error: a cycle in the jobs' needs")
        pending.remove(name)
        job_ctx = dict(ctx, needs={n: done[n] for n in needs})
        runs = matrix_of(w["jobs"][name], job_ctx)
        results = []
        for tag, matrix in runs:
            r, result = run_job(workflow, name, tag, dict(job_ctx, matrix=matrix), standins, out)
            results.append(result)
            order.append(f"{name if tag is None else name + '-' + tag}: {result['result']}")
            rc |= r
        done[name] = merged_results(results)
        if len(runs) > 1:
            json.dump(done[name], open(os.path.join(out, f"{name}.json"), "w"))
    with open(os.path.join(out, "jobs"), "w") as f:
        f.write("\n".join(order) + "\n")
    return 1 if rc else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--all"]:
        sys.exit(run_workflow(*sys.argv[2:6]))
    sys.exit(main(*sys.argv[1:5]))
