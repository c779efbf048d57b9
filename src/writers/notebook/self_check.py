# Check your answers before you hand in. With ATTNMARK_URL (your class's attnmark
# server) and ATTNMARK_CODE (your code, from your teacher) set, this cell sends your
# answers, not the notebook, to the server and shows what it makes of them.
# Standard library only; it changes nothing in this notebook.
import ast
import json
import math
import os
import urllib.error
import urllib.request

ATTNMARK_RUBRIC = "@RUBRIC@"
ATTNMARK_STUDENT = "@STUDENT@"
ATTNMARK_SERVER = "@SERVER@"
ATTNMARK_ACCESS_CODE = "@ACCESS_CODE@"
ATTNMARK_VARIABLES = "@VARIABLES@"
ATTNMARK_SYMBOLS = "@SYMBOLS@"
ATTNMARK_LEGEND = "@LEGEND@"


def attnmark_plain(value):
    """An answer as an answer file holds it: lists for arrays, text for what is not a number."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [attnmark_plain(v) for v in value]
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    return str(value)


class AttnmarkComputed(Exception):
    """The answer is not a literal typed in its cell."""


def attnmark_literal(node, source):
    """A typed literal as attnmark reads it from the saved notebook: numbers
    as written ("0.090" keeps its 3 decimals), "2/3" for a number over a number."""
    number = (int, float)
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str)):
        return node.value
    if isinstance(node, ast.Constant) and isinstance(node.value, number) and not isinstance(node.value, bool):
        return ast.get_source_segment(source, node)
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant)
            and isinstance(node.operand.value, number) and not isinstance(node.operand.value, bool)):
        return ("-" if isinstance(node.op, ast.USub) else "") + ast.get_source_segment(source, node.operand)
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and all(isinstance(n, ast.Constant) and isinstance(n.value, number) for n in (node.left, node.right))):
        return ast.get_source_segment(source, node.left) + "/" + ast.get_source_segment(source, node.right)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [attnmark_literal(n, source) for n in node.elts]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "array"
            and isinstance(node.func.value, ast.Name) and node.func.value.id in ("np", "numpy") and len(node.args) == 1
            and all(k.arg == "dtype" for k in node.keywords)):
        return attnmark_literal(node.args[0], source)
    raise AttnmarkComputed()


def attnmark_typed(name):
    """The value typed in the last cell run that assigns `name`, when that cell
    holds only the assignment and `name` alone; raises AttnmarkComputed otherwise."""
    for source in reversed(globals().get("In", [])):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        if not any(isinstance(s, ast.Assign) and [getattr(t, "id", None) for t in s.targets] == [name] for s in tree.body):
            continue
        value = None
        for s in tree.body:
            if isinstance(s, ast.Assign) and [getattr(t, "id", None) for t in s.targets] == [name]:
                value = attnmark_literal(s.value, source)
            elif not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Name) and s.value.id == name):
                raise AttnmarkComputed()
        return value
    raise AttnmarkComputed()


def attnmark_answers():
    """Every answer as the saved notebook gives it: typed ones as written, computed ones as values."""
    answers = {}
    for question, parts in ATTNMARK_VARIABLES.items():
        answers[question] = {}
        for part, name in parts.items():
            try:
                answers[question][part] = attnmark_typed(name)
            except AttnmarkComputed:
                answers[question][part] = attnmark_plain(globals().get(name))
    return answers


def attnmark_table(feedback):
    """The table attnmark check prints, from the feedback the server sends:
    its scores, part labels and tables' names as the server wrote them."""
    lines = ["attnmark check: %s · student %s · variant %s"
             % (ATTNMARK_RUBRIC, feedback.get("student") or "(none)", feedback.get("variant") or "(unknown)")]
    if feedback.get("reason"):
        lines.append(str(feedback["reason"]))
    if feedback.get("score") is None:
        return "\n".join(lines)
    lines += [ATTNMARK_LEGEND, ""]
    for q in feedback.get("questions", []):
        lines.append("%-16s%9s" % (q["id"], q.get("score_text", "")))
        for name, p in q["parts"].items():
            label, score = p.get("label", name), p.get("score_text", "")
            marks = [ATTNMARK_SYMBOLS.get(c["verdict"], "?") for c in p["cells"]]
            grid = p.get("grid")
            if grid:
                columns = len(grid["columns"])
                lines.append("  %-14s%9s   %s: %s" % (label, score, grid["corner"], ", ".join(grid["columns"])))
                for r, row in enumerate(grid["rows"]):
                    lines.append("      %s: %s" % (row, " ".join(marks[r * columns:(r + 1) * columns])))
            else:
                lines.append("  %-14s%9s   %s" % (label, score, " ".join(marks)))
            lines += ["      hint: " + h for h in p.get("hints", [])]
    lines += ["note: " + n for n in feedback.get("notes", [])]
    lines.append("")
    lines.append("Total: %s" % feedback.get("score_text", ""))
    return "\n".join(lines)


def attnmark_check():
    url = os.environ.get("ATTNMARK_URL", ATTNMARK_SERVER).rstrip("/")
    code = os.environ.get("ATTNMARK_CODE", ATTNMARK_ACCESS_CODE)
    if not url or not code:
        print("To check your answers here, set ATTNMARK_URL and ATTNMARK_CODE (your teacher gives you both)")
        print("before you start Jupyter, then run this cell again. Or save this notebook and run, in a terminal:")
        print("    attnmark check %s.yaml NOTEBOOK.ipynb" % ATTNMARK_RUBRIC)
        print("(%s.yaml: the rubric file your teacher shares; NOTEBOOK.ipynb: this notebook's file)" % ATTNMARK_RUBRIC)
        return
    body = json.dumps({"student": ATTNMARK_STUDENT, "code": code, "answers": attnmark_answers()}).encode("utf-8")
    request = urllib.request.Request(url + "/api/check", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            feedback = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        said = e.read().decode("utf-8", "replace")
        try:
            said = json.loads(said).get("error", said)
        except (ValueError, AttributeError):
            pass
        print("The server did not check your answers (HTTP %d): %s" % (e.code, str(said)[:300]))
    except (urllib.error.URLError, OSError, ValueError) as e:
        print("Could not reach the server at %s: %s" % (url, e))
    else:
        print(attnmark_table(feedback))


attnmark_check()
