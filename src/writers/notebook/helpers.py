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
