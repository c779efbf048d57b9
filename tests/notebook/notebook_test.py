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
on its YAML twin. The notebooks are generated for a class served by
`attnmark serve` (--db, --url), so their self-check cell reaches that real
server as their student with no set-up; what it prints equals `attnmark
check` on the saved notebook, and `attnmark mark --db` finds each attempt
with the marks of the handed-in notebook. Exit status 0 when all
holds; each failure is printed.
"""

import csv
import json
import os
import shutil
import subprocess
import sys

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
    "q1_scores": "[dot(q1_q, k) for k in q1_K]",
    "q1_weights": "softmax(q1_scores)",
    "q1_output": "mix(q1_weights, q1_V)",
    "q2_scores": "q2_Q @ q2_K.T",
    "q2_weights": "np.exp(q2_scores) / np.exp(q2_scores).sum(axis=1, keepdims=True)",
    "q2_output": "q2_weights @ q2_V",
    "q3_scores": "q3_K @ q3_q",
    "q3_weights": "softmax(q3_scores)",
    "q3_most_attended": "q3_tokens[int(np.argmax(q3_weights))]",
}
# The lesson's common mistake: attention picks one token.
HARD = dict(LITERAL, q1_weights="[1, 0, 0]", q1_output="[10, 0]")
YAML_HARD = json.loads(json.dumps(YAML_LITERAL))
YAML_HARD["q1"]["weights"] = "[1, 0, 0]"
YAML_HARD["q1"]["output"] = "[10, 0]"


def fill(notebook, answers, print_instead=(), said=()):
    """Each answer cell's assignment replaced by the student's; for the
    variables in print_instead the cell prints the value instead of showing it,
    for those in said it prints the value after its name ("q1_weights: [...]")."""
    for cell in notebook.cells:
        part = cell.get("metadata", {}).get("attnmark", {}).get("part")
        if not part:
            continue
        variable = part.replace(".", "_")
        lines = [line for line in cell.source.split("\n") if line.startswith("#")]
        lines.append("%s = %s" % (variable, answers[variable]))
        if variable in said:
            lines.append("print(%r, %s)" % (variable + ":", variable))
        else:
            lines.append("print(%s)" % variable if variable in print_instead else variable)
        cell.source = "\n".join(lines)


def execute(notebook, server=False):
    """Runs the notebook top to bottom in a fresh kernel. With server, the
    self-check cell reaches the class server baked into the notebook; without,
    ATTNMARK_URL and ATTNMARK_CODE set empty turn it off."""
    saved = {k: os.environ.pop(k, None) for k in ("ATTNMARK_URL", "ATTNMARK_CODE")}
    if not server:
        os.environ.update({"ATTNMARK_URL": "", "ATTNMARK_CODE": ""})
    try:
        NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": WORK}}).execute()
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None)
            if v is not None:
                os.environ[k] = v


def start_server(roster, db):
    """attnmark serve for the roster's class on a free port of loopback; the process and the students' address."""
    server = subprocess.Popen([ATTNMARK, "serve", RUBRIC, "--seed", "2026", "--roster", roster, "--db", db, "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=SOURCE)
    for line in server.stdout:
        if line.strip().startswith("students: http://"):
            return server, line.split(":", 1)[1].strip()
    server.kill()
    print("FAILED: attnmark serve did not start")
    sys.exit(1)


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
students = ["nb-literal", "nb-computed", "nb-printed", "nb-said", "nb-hard", "nb-unrun", "nb-edited", "nb-offline"]
# Each student's roster name, in Vietnamese: the notebook's header prints it.
NAMES = {s: "Nguyễn Thị Ánh " + s for s in students}
with open(roster, "w", encoding="utf-8") as f:
    f.write("student,name\n" + "".join(s + "," + NAMES[s] + "\n" for s in students))
db = os.path.join(WORK, "class.sqlite")
SERVER, URL = start_server(roster, db)
run("generate", RUBRIC, "--roster", roster, "--format", "ipynb", "-o", os.path.join(WORK, "class"), "--db", db, "--url", URL)
SELF_CHECK = {}
hand_in = os.path.join(WORK, "hand-in")
os.makedirs(hand_in)

for student in students:
    path = os.path.join(WORK, "class", student + ".ipynb")
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    check([c.id for c in notebook.cells] == [c["id"] for c in json.load(open(path))["cells"]], "cell ids kept")
    check(notebook.cells[-1].get("metadata", {}).get("attnmark", {}).get("role") == "self-check", "last cell is the self-check")
    check(("\nName: %s · Student: %s · " % (NAMES[student], student)) in notebook.cells[0].source,
          "the header prints the roster's name")
    if student == "nb-literal":
        fill(notebook, LITERAL)
    elif student == "nb-hard":
        fill(notebook, HARD)
    elif student == "nb-printed":
        fill(notebook, COMPUTED, print_instead={"q1_weights", "q2_output", "q3_most_attended"})
    elif student == "nb-offline":
        fill(notebook, LITERAL)
    elif student == "nb-said":
        fill(notebook, COMPUTED, said={"q1_weights"})
    else:
        fill(notebook, COMPUTED)
    if student == "nb-edited":
        continue  # below, cell by cell in one kernel
    if student != "nb-unrun":
        with_server = student in ("nb-literal", "nb-computed", "nb-printed", "nb-said", "nb-hard")
        execute(notebook, server=with_server)
        nbformat.validate(notebook)
        SELF_CHECK[student] = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
        if not with_server:
            check("\n    attnmark check lesson.yaml NOTEBOOK.ipynb\n" in SELF_CHECK[student],
                  "the self-check cell says how to self-check without ATTNMARK_URL: %r" % SELF_CHECK[student])
    nbformat.write(notebook, os.path.join(hand_in, student + ".ipynb"))



def table_of(check_output):
    """check's table without the line that says a seedless file was marked
    against the variant it records (a served notebook records no seed; the
    class page, which knows the seed, has no need to say it)."""
    return "\n".join(line for line in check_output.split("\n")
                     if not line.startswith("marked against the variant the file records"))


def cell_at(notebook, part):
    return next(i for i, c in enumerate(notebook.cells) if c.get("metadata", {}).get("attnmark", {}).get("part") == part)


def output_text(cell):
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs)


# One kernel, cell by cell, as a student works: the notebook saved in the
# kernel's folder, where the self-check finds it.
edited_dir = os.path.join(WORK, "edited")
os.makedirs(edited_dir)
edited_path = os.path.join(edited_dir, "nb-edited.ipynb")
notebook = nbformat.read(os.path.join(WORK, "class", "nb-edited.ipynb"), as_version=4)
fill(notebook, COMPUTED)
weights_at, scores_at = cell_at(notebook, "q1.weights"), cell_at(notebook, "q1.scores")
client = NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": edited_dir}})
with client.setup_kernel():
    for i, cell in enumerate(notebook.cells[:-1]):
        client.execute_cell(cell, i)
    first_scores = output_text(notebook.cells[scores_at])
    # Each question's inputs have their own names: q1's cell run again after
    # q3's inputs gives q1's numbers.
    client.execute_cell(notebook.cells[scores_at], scores_at)
    check(output_text(notebook.cells[scores_at]) == first_scores,
          "q1's scores run again after the notebook ran: %r, first %r" % (output_text(notebook.cells[scores_at]), first_scores))
    # A cell edited since it ran, and saved so: named.
    ran_weights = notebook.cells[weights_at].source
    notebook.cells[weights_at].source = ran_weights.replace("softmax(q1_scores)", "[1, 0, 0]")
    nbformat.write(notebook, edited_path)
    client.execute_cell(notebook.cells[-1], len(notebook.cells) - 1)
    said = output_text(notebook.cells[-1])
    check("q1_weights: this cell was changed since it ran; run this cell again, then check" in said,
          "the self-check names a cell edited since it ran: %r" % said)
    marked = table_of(run("check", edited_path, expect=(0, 1)).stdout).rstrip("\n")
    check(said.rstrip("\n").endswith("\n" + marked),
          "the self-check checks the saved notebook as marking reads it\n--- cell:\n%s\n--- check:\n%s" % (said, marked))
    # The edit run but not saved: the saved file holds a source that ran before.
    client.execute_cell(notebook.cells[weights_at], weights_at)
    notebook.cells[weights_at].source = ran_weights
    nbformat.write(notebook, edited_path)
    notebook.cells[weights_at].source = ran_weights.replace("softmax(q1_scores)", "[1, 0, 0]")
    client.execute_cell(notebook.cells[-1], len(notebook.cells) - 1)
    said = output_text(notebook.cells[-1])
    check("save the notebook (Ctrl+S), then check" in said, "the self-check asks to save a notebook that lags: %r" % said)
    check("this cell was changed" not in said, "a lagging save is not a changed cell: %r" % said)

with open(os.path.join(hand_in, "yaml-literal.yaml"), "w") as f:
    f.write(yaml_file("yaml-literal", YAML_LITERAL))
with open(os.path.join(hand_in, "yaml-hard.yaml"), "w") as f:
    f.write(yaml_file("yaml-hard", YAML_HARD))

out = os.path.join(WORK, "marked")
run("mark", RUBRIC, hand_in, "--out", out, expect=(0, 1))
rows = {r["student"]: r for r in csv.DictReader(open(os.path.join(out, "gradebook.csv")))}
feedback = {s: json.load(open(os.path.join(out, "feedback", s + ".json"))) for s in rows}
for student in ["nb-literal", "nb-computed", "nb-printed", "nb-offline", "yaml-literal"]:
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
check(table_of(nb_check).split("\n", 1)[1] == table_of(yaml_check).split("\n", 1)[1],
      "check: the same table for nb-hard and yaml-hard")
run("check", os.path.join(hand_in, "nb-computed.ipynb"), expect=(0,))

# The self-check cell: the table it printed from the real server's reply,
# and the attempts the server kept.
for student, status in (("nb-literal", 0), ("nb-computed", 0), ("nb-printed", 0), ("nb-said", 1), ("nb-hard", 1)):
    table = table_of(run("check", os.path.join(hand_in, student + ".ipynb"), expect=(status,)).stdout)
    check(SELF_CHECK.get(student, "").rstrip("\n") == table.rstrip("\n"),
          "%s: the self-check cell prints what attnmark check prints\n--- cell:\n%s\n--- check:\n%s"
          % (student, SELF_CHECK.get(student), table))
SERVER.terminate()
check(SERVER.wait(timeout=30) == 0, "attnmark serve stops cleanly on SIGTERM")
served_out = os.path.join(WORK, "served")
run("mark", "--db", db, "--out", served_out, expect=(0, 1))
served = {r["student"]: r for r in csv.DictReader(open(os.path.join(served_out, "gradebook.csv")))}
for student in ("nb-literal", "nb-computed", "nb-printed", "nb-said", "nb-hard"):
    check(served.get(student, {}).get("score") == rows[student]["score"],
          "%s: the server kept the self-check with the handed-in notebook's marks; got %s" % (student, served.get(student)))
for student in ("nb-unrun", "nb-offline"):
    check(served.get(student, {}).get("score") == "", "%s: no self-check, no attempt; got %s" % (student, served.get(student)))
kept = json.load(open(os.path.join(served_out, "feedback", "nb-literal.json")))
check([c["given"] for c in kept["questions"][0]["parts"]["weights"]["cells"]] == ["0.665", "0.090", "0.245"],
      "typed numbers are posted as written: %s" % kept["questions"][0]["parts"]["weights"]["cells"])

print("notebook test: %d failure%s" % (len(failures), "" if len(failures) == 1 else "s"))
sys.exit(1 if failures else 0)
