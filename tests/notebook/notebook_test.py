#!/usr/bin/python3
"""The notebook round trip, as a class would do it, with Debian's Jupyter:

    /usr/bin/python3 tests/notebook/notebook_test.py ATTNMARK SOURCE_DIR WORK_DIR

attnmark generates one notebook per student of a roster (rubrics/lesson.yaml);
each must validate against nbformat 4.5 (python3-nbformat). The test fills in
the answer cells as students would (typed literals; computed with the
helpers and NumPy; the lesson's hard-attention mistake; computed but never
run), runs the notebooks top to bottom in a real kernel (python3-nbclient,
python3-ipykernel, python3-numpy), validates them again, and marks the
folder with `attnmark mark`, beside YAML answer files holding the same
answers. Then: right answers get full marks, hard-attention is named, the
unrun notebook says to run it, and every notebook's feedback equals its YAML
twin's cell for cell. `attnmark check` on a notebook gives the same table as
on its YAML twin. The self-check cell, run with ATTNMARK_URL pointing at a
stand-in for the class server (POST /api/check: it marks the answers posted
with `attnmark mark` and answers with the feedback object), prints the same
table as `attnmark check` on the saved notebook. Exit status 0 when all
holds; each failure is printed.
"""

import csv
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading

try:
    import nbformat
    import numpy  # noqa: F401 (the notebooks' kernel imports it)
    from nbclient import NotebookClient
except ImportError as e:
    print("notebook test skipped: %s; install python3-nbformat, python3-nbclient, python3-ipykernel and "
          "python3-numpy (scripts/setup --notebook)" % e)
    sys.exit(77)

ATTNMARK, SOURCE, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
RUBRIC = os.path.join(SOURCE, "rubrics", "lesson.yaml")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def run(*args, expect=(0,)):
    done = subprocess.run([ATTNMARK, *args], capture_output=True, text=True, cwd=SOURCE)
    check(done.returncode in expect, "attnmark %s: exit %d\n%s%s" % (" ".join(args), done.returncode, done.stdout, done.stderr))
    return done


# What the students type. Literal answers are the lesson's, rounded as asked.
LITERAL = {
    "q1_scores": "[2, 0, 1]",
    "q1_weights": "[0.665, 0.090, 0.245]",
    "q1_output": "np.array([7.88, 2.12])",
    "q2_scores": "[[1, 2, 1], [3, 2, 2], [2, 0, 1]]",
    "q2_weights": "[[0.212, 0.576, 0.212],\n    [0.576, 0.212, 0.212],\n    [0.665, 0.090, 0.245]]",
    "q2_output": "[[3.18, 6.82], [6.82, 3.18], [7.88, 2.12]]",
    "q3_scores": "(1, 2, 1)",
    "q3_weights": "[\"0,212\", 0.576, 0.212]",
    "q3_most_attended": "'is'",
}
YAML_LITERAL = {
    "q1": {"scores": "[2, 0, 1]", "weights": "[0.665, 0.090, 0.245]", "output": "[7.88, 2.12]"},
    "q2": {"scores": "[[1, 2, 1], [3, 2, 2], [2, 0, 1]]",
           "weights": "[[0.212, 0.576, 0.212], [0.576, 0.212, 0.212], [0.665, 0.090, 0.245]]",
           "output": "[[3.18, 6.82], [6.82, 3.18], [7.88, 2.12]]"},
    "q3": {"scores": "[1, 2, 1]", "weights": "[\"0,212\", 0.576, 0.212]", "most_attended": "is"},
}
# Computed in the notebook, with the lesson's helpers and NumPy.
COMPUTED = {
    "q1_scores": "[dot(q, k) for k in K]",
    "q1_weights": "softmax(q1_scores)",
    "q1_output": "mix(q1_weights, V)",
    "q2_scores": "Q @ K.T",
    "q2_weights": "np.exp(q2_scores) / np.exp(q2_scores).sum(axis=1, keepdims=True)",
    "q2_output": "q2_weights @ V",
    "q3_scores": "K @ q",
    "q3_weights": "softmax(q3_scores)",
    "q3_most_attended": "tokens[int(np.argmax(q3_weights))]",
}
# The lesson's common mistake: attention picks one token.
HARD = dict(LITERAL, q1_weights="[1, 0, 0]", q1_output="[10, 0]")
YAML_HARD = json.loads(json.dumps(YAML_LITERAL))
YAML_HARD["q1"]["weights"] = "[1, 0, 0]"
YAML_HARD["q1"]["output"] = "[10, 0]"


def fill(notebook, answers, print_instead=()):
    """Each answer cell's assignment replaced by the student's; for the
    variables in print_instead the cell prints the value instead of showing it."""
    for cell in notebook.cells:
        part = cell.get("metadata", {}).get("attnmark", {}).get("part")
        if not part:
            continue
        variable = part.replace(".", "_")
        lines = [line for line in cell.source.split("\n") if line.startswith("#")]
        lines.append("%s = %s" % (variable, answers[variable]))
        lines.append("print(%s)" % variable if variable in print_instead else variable)
        cell.source = "\n".join(lines)


def execute(notebook, server=False):
    """Runs the notebook top to bottom in a fresh kernel; with server, the
    self-check cell reaches the stand-in class server."""
    env = {"ATTNMARK_URL": "http://127.0.0.1:%d" % SERVER.server_address[1], "ATTNMARK_CODE": "secret-code"}
    saved = {k: os.environ.pop(k, None) for k in env}
    if server:
        os.environ.update(env)
    try:
        NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": WORK}}).execute()
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None)
            if v is not None:
                os.environ[k] = v


POSTED = []


class ClassServer(http.server.BaseHTTPRequestHandler):
    """A stand-in for the class server's POST /api/check: the answers posted
    are marked as an answer file, and the reply is its feedback object."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        POSTED.append(body)
        if self.path != "/api/check" or body.get("code") != "secret-code" or set(body) != {"student", "code", "answers"}:
            self.send_response(403)
            self.end_headers()
            self.wfile.write(b'{"error": "unknown student or code"}')
            return
        folder = os.path.join(WORK, "server", "%d" % len(POSTED))
        os.makedirs(folder)
        with open(os.path.join(folder, "answers.json"), "w") as f:
            json.dump({"rubric": "lesson", "student": body["student"], "seed": 2026, "answers": body["answers"]}, f)
        subprocess.run([ATTNMARK, "mark", RUBRIC, folder, "--out", folder + "-out"], capture_output=True)
        with open(os.path.join(folder + "-out", "feedback", body["student"] + ".json"), "rb") as f:
            feedback = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(feedback)

    def log_message(self, *args):
        pass


SERVER = http.server.ThreadingHTTPServer(("127.0.0.1", 0), ClassServer)
threading.Thread(target=SERVER.serve_forever, daemon=True).start()


def yaml_file(student, answers):
    lines = ["rubric: lesson", "student: %s" % student, "seed: 2026", "answers:"]
    for q, parts in answers.items():
        lines.append("  %s:" % q)
        for part, value in parts.items():
            lines.append("    %s: %s" % (part, value))
    return "\n".join(lines) + "\n"


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
roster = os.path.join(WORK, "roster.csv")
students = ["nb-literal", "nb-computed", "nb-printed", "nb-hard", "nb-unrun"]
with open(roster, "w") as f:
    f.write("student\n" + "".join(s + "\n" for s in students))
run("generate", RUBRIC, "--roster", roster, "--format", "ipynb", "-o", os.path.join(WORK, "class"))
SELF_CHECK = {}
hand_in = os.path.join(WORK, "hand-in")
os.makedirs(hand_in)

for student in students:
    path = os.path.join(WORK, "class", student + ".ipynb")
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    check([c.id for c in notebook.cells] == [c["id"] for c in json.load(open(path))["cells"]], "cell ids kept")
    check(notebook.cells[-1].get("metadata", {}).get("attnmark", {}).get("role") == "self-check", "last cell is the self-check")
    if student == "nb-literal":
        fill(notebook, LITERAL)
    elif student == "nb-hard":
        fill(notebook, HARD)
    elif student == "nb-printed":
        fill(notebook, COMPUTED, print_instead={"q1_weights", "q2_output", "q3_most_attended"})
    else:
        fill(notebook, COMPUTED)
    if student != "nb-unrun":
        with_server = student in ("nb-literal", "nb-computed", "nb-hard")
        execute(notebook, server=with_server)
        nbformat.validate(notebook)
        SELF_CHECK[student] = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
        if not with_server:
            check("attnmark check NOTEBOOK.ipynb" in SELF_CHECK[student],
                  "the self-check cell says how to self-check without ATTNMARK_URL: %r" % SELF_CHECK[student])
    nbformat.write(notebook, os.path.join(hand_in, student + ".ipynb"))

with open(os.path.join(hand_in, "yaml-literal.yaml"), "w") as f:
    f.write(yaml_file("yaml-literal", YAML_LITERAL))
with open(os.path.join(hand_in, "yaml-hard.yaml"), "w") as f:
    f.write(yaml_file("yaml-hard", YAML_HARD))

out = os.path.join(WORK, "marked")
run("mark", RUBRIC, hand_in, "--out", out, expect=(0, 1))
rows = {r["student"]: r for r in csv.DictReader(open(os.path.join(out, "gradebook.csv")))}
feedback = {s: json.load(open(os.path.join(out, "feedback", s + ".json"))) for s in rows}
for student in ["nb-literal", "nb-computed", "nb-printed", "yaml-literal"]:
    check(rows[student]["status"] == "graded" and rows[student]["score"] == "16",
          "%s: full marks; got %s %s %s" % (student, rows[student]["status"], rows[student]["score"], rows[student]["reason"]))
for student in ["nb-hard", "yaml-hard"]:
    weights = feedback[student]["questions"][0]["parts"]["weights"]
    check("hard-attention" in weights["diagnoses"], "%s: hard-attention named; got %s" % (student, weights["diagnoses"]))


def marks(f):
    """A feedback object without what names the student and the file."""
    return {k: v for k, v in f.items() if k not in ("student", "variant", "source")}


check(marks(feedback["nb-literal"]) == marks(feedback["yaml-literal"]), "nb-literal and yaml-literal get identical feedback")
check(marks(feedback["nb-hard"]) == marks(feedback["yaml-hard"]), "nb-hard and yaml-hard get identical feedback")
for key in ("score", "q1", "q2", "q3", "status"):
    check(rows["nb-hard"][key] == rows["yaml-hard"][key], "nb-hard and yaml-hard: same %s" % key)
unrun = feedback["nb-unrun"]["questions"][0]["parts"]["weights"]["cells"][0]
check(unrun["verdict"] == "unreadable" and unrun.get("note") ==
      "run the notebook before handing it in (q1_weights is computed, and the notebook has no output for it)",
      "nb-unrun: q1 weights unreadable, run the notebook; got %s" % unrun)

# check reads a notebook as it reads an answer file.
nb_check = run("check", RUBRIC, os.path.join(hand_in, "nb-hard.ipynb"), expect=(1,)).stdout
yaml_check = run("check", RUBRIC, os.path.join(hand_in, "yaml-hard.yaml"), expect=(1,)).stdout
check(nb_check.split("\n", 1)[1] == yaml_check.split("\n", 1)[1], "check: the same table for nb-hard and yaml-hard")
run("check", os.path.join(hand_in, "nb-computed.ipynb"), expect=(0,))

# The self-check cell: what it posted, and the table it printed from the reply.
check([p["student"] for p in POSTED] == ["nb-literal", "nb-computed", "nb-hard"], "one POST per self-check: %s" % POSTED)
check(POSTED and POSTED[0]["answers"]["q1"]["weights"] == ["0.665", "0.090", "0.245"],
      "typed numbers are posted as written: %s" % (POSTED[0]["answers"]["q1"] if POSTED else None))
for student, status in (("nb-literal", 0), ("nb-computed", 0), ("nb-hard", 1)):
    table = run("check", os.path.join(hand_in, student + ".ipynb"), expect=(status,)).stdout
    check(SELF_CHECK.get(student, "").rstrip("\n") == table.rstrip("\n"),
          "%s: the self-check cell prints what attnmark check prints\n--- cell:\n%s\n--- check:\n%s"
          % (student, SELF_CHECK.get(student), table))
SERVER.shutdown()

print("notebook test: %d failure%s" % (len(failures), "" if len(failures) == 1 else "s"))
sys.exit(1 if failures else 0)
