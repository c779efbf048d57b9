# The lesson's helpers: use them, or NumPy, to compute your answers.
import math

import numpy as np


def dot(a, b):
    """The dot product: multiply matching entries and add."""
    return sum(x * y for x, y in zip(a, b))


def softmax(scores):
    """Softmax: e to the power of each score, each divided by the total.
    Given a table (a row per query), each row on its own. A "masked" score's weight is 0."""
    if len(scores) and not isinstance(scores[0], str) and hasattr(scores[0], "__len__"):
        return [softmax(row) for row in scores]
    powers = [0.0 if isinstance(s, str) else math.exp(s) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def mix(weights, values):
    """The output: each value times its weight, added up. Given a row of weights
    per query, a row of output per query."""
    if len(weights) and hasattr(weights[0], "__len__"):
        return [mix(row, values) for row in weights]
    return [sum(w * v[j] for w, v in zip(weights, values)) for j in range(len(values[0]))]


# For the self-check at the end: while each cell runs, what it printed and the
# result Jupyter shows are noted beside its source, so the check sends each
# answer cell as attnmark reads it from the saved notebook. Nothing is sent
# until you run the self-check cell.
def _attnmark_record_cells():
    import ast
    import sys
    try:
        shell = get_ipython()  # noqa: F821 (IPython's)
    except NameError:
        return
    ran = globals().setdefault("_attnmark_ran", {})  # variable → the last cell run that assigns it
    sources = globals().setdefault("_attnmark_sources", {})  # variable → every source run that assigned it
    for event, hook in globals().get("_attnmark_hooks", []):
        try:
            shell.events.unregister(event, hook)
        except ValueError:
            pass
    running = {}

    class Tee:
        def __init__(self, out):
            self.out, self.text = out, []

        def write(self, text):
            self.text.append(text)
            return self.out.write(text)

        def __getattr__(self, name):
            return getattr(self.out, name)

    def pre(info):
        running["source"] = info.raw_cell
        running["tee"] = sys.stdout = Tee(sys.stdout)

    def post(result):
        tee = running.pop("tee", None)
        if tee is None:
            return
        if sys.stdout is tee:
            sys.stdout = tee.out
        source = running.pop("source", "")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return
        names = {t.id for s in tree.body if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)}
        if not names:
            return
        outputs = []
        printed = "".join(tee.text)
        if printed:
            outputs.append({"output_type": "stream", "name": "stdout", "text": printed})
        error = result.error_in_exec or result.error_before_exec
        if error is not None:
            outputs.append({"output_type": "error", "ename": type(error).__name__, "evalue": str(error), "traceback": []})
        elif result.result is not None:
            text = shell.display_formatter.format(result.result)[0].get("text/plain")
            if text is not None:
                outputs.append({"output_type": "execute_result", "data": {"text/plain": text}, "metadata": {},
                                "execution_count": result.execution_count})
        for name in names:
            ran[name] = {"source": source, "outputs": outputs}
            sources.setdefault(name, set()).add(source)

    globals()["_attnmark_hooks"] = [("pre_run_cell", pre), ("post_run_cell", post)]
    for event, hook in globals()["_attnmark_hooks"]:
        shell.events.register(event, hook)


_attnmark_record_cells()
