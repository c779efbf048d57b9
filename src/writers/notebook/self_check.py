# Check your answers before you hand in. With ATTNMARK_URL (your class's attnmark
# server) and ATTNMARK_CODE (your code, from your teacher) set, this cell sends your
# answer cells, not the notebook, to the server: each cell's source and output as
# attnmark reads them from the saved notebook (the helpers cell noted them as the
# cells ran), and shows what the server makes of them.
# Standard library only; it changes nothing in this notebook.
import json
import os
import urllib.error
import urllib.request

ATTNMARK_RUBRIC = "@RUBRIC@"
ATTNMARK_STUDENT = "@STUDENT@"
ATTNMARK_VARIANT = "@VARIANT@"
ATTNMARK_SERVER = "@SERVER@"
ATTNMARK_ACCESS_CODE = "@ACCESS_CODE@"
ATTNMARK_VARIABLES = "@VARIABLES@"
ATTNMARK_SYMBOLS = "@SYMBOLS@"
ATTNMARK_LEGEND = "@LEGEND@"


def attnmark_saved_notebook():
    """The saved file of this notebook: the one Jupyter or VS Code names, else
    the newest .ipynb in the kernel's folder recording this student and variant."""
    named = [globals().get("__vsc_ipynb_file__"), globals().get("__session__"), os.environ.get("JPY_SESSION_NAME")]
    candidates = [n for n in named if isinstance(n, str) and n.endswith(".ipynb") and os.path.isfile(n)]
    if not candidates:
        try:
            files = [f for f in os.listdir(".") if f.endswith(".ipynb") and os.path.isfile(f)]
        except OSError:
            files = []
        candidates = sorted(files, key=lambda f: os.path.getmtime(f), reverse=True)
    for path in candidates:
        try:
            with open(path, encoding="utf-8") as f:
                notebook = json.load(f)
            header = notebook.get("metadata", {}).get("attnmark", {})
        except (OSError, ValueError, AttributeError):
            continue
        if header.get("student") == ATTNMARK_STUDENT and header.get("variant") == ATTNMARK_VARIANT:
            return notebook
    return None


def attnmark_cells():
    """The answer cells to send, each as attnmark reads it from the saved
    notebook, and what to tell the student first. With the saved file found,
    its cells (what handing it in now gives), and a cell named whose saved
    source is not what last ran; without it, each cell as it last ran."""
    ran = globals().get("_attnmark_ran", {})
    sources = globals().get("_attnmark_sources", {})
    saved = attnmark_saved_notebook()
    saved_cells = {}
    if saved is not None:
        for cell in saved.get("cells", []):
            part = cell.get("metadata", {}).get("attnmark", {}).get("part")
            if part and cell.get("cell_type") == "code":
                source = cell.get("source", "")
                saved_cells[part] = {"source": "".join(source) if isinstance(source, list) else source,
                                     "outputs": cell.get("outputs", [])}
    cells, told, lags = [], [], False
    for question, parts in ATTNMARK_VARIABLES.items():
        for part, name in parts.items():
            key = question + "." + part
            last = ran.get(name)
            if saved is None:
                if last is not None:
                    cells.append(dict(last, part=key))
                continue
            cell = saved_cells.get(key)
            if cell is None:
                continue
            cells.append({"part": key, "source": cell["source"], "outputs": cell["outputs"]})
            if last is None or cell["source"].rstrip() == last["source"].rstrip():
                continue
            if any(cell["source"].rstrip() == s.rstrip() for s in sources.get(name, ())):
                lags = True
            else:
                told.append("%s: this cell was changed since it ran; run this cell again, then check" % name)
    if lags:
        told.append("The saved notebook is older than what you ran: save the notebook (Ctrl+S), then check.")
    return cells, told


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
    cells, told = attnmark_cells()
    for line in told:
        print(line)
    body = json.dumps({"student": ATTNMARK_STUDENT, "code": code, "cells": cells}).encode("utf-8")
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
