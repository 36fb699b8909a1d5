#!/usr/bin/env python3
"""Writes pairs of JSON files for `diff-state` that reach what the state dumps of the
corpus may not: numbers in every form Python prints (repr of floats, integers beside
floats within and beyond jsondiff.py's tolerance, booleans against integers), strings
needing escapes and non-ASCII text, arrays of different lengths, values changing type,
members only one side has, images (__class__) and __dunder__ members, NaN and
Infinity, // comments, multi-line strings with similar and dissimilar lines, and
random multi-line strings (repeated and long lines, random edits) that exercise
difflib's matching and its pairing of similar lines.

usage: analysis_json.py DIR   (writes DIR/NAME.ref.json and DIR/NAME.src.json, prints NAMEs)
"""
import json
import os
import random
import sys

REF = {
    "floats": [0.1, 1e-05, 0.0001, 1e16, 1e15, 123.0, -0.0, 2.5e-300, 3.141592653589793, 1.0],
    "tolerance": {"same": 1.0, "close": 1.0, "far": 1.0, "zero": 0.0, "int_float": 3},
    "ints": {"a": 1, "b": -7, "big": 12345678901234567890123, "bool_int": 1, "bool": True},
    "strings": {"esc": "tab\tquote\"back\\slash", "uni": "caf\u00e9 \u2603 \U0001F600",
                "ctl": "bell\u0007", "same": "x"},
    "arrays": {"longer": [1, 2, 3], "shorter": [1, 2, 3, 4, 5], "nested": [[1, 2], {"k": [1]}]},
    "types": {"to_list": {"a": 1}, "to_dict": [1, 2], "to_str": 5, "to_null": "v", "from_null": None},
    "only_ref": {"gone": 1},
    "image": {"__class__": "image", "__width__": 1, "__data__": "AAAA"},
    "meta": {"__comment__": "dropped", "kept": 1},
    "special": [float("nan"), float("inf"), float("-inf")],
    "shader": "#version 120\nvoid main() {\n    gl_FragColor = vec4(1.0);\n}\n",
    "empty": {"obj": {}, "arr": []},
    "program": "uniform vec4 a;\n\tuniform mat4 m;\nvarying vec2 t;\nvoid main() {\n"
               "    gl_Position = m * a;\n    t = a.xy;\n}\n// caf\u00e9\n",
    "dissimilar": "one\ntwo\nthree\n",
}

SRC = {
    "floats": [0.2, 2e-05, 0.0002, 2e16, 2e15, 124.0, 0.5, 3.5e-300, 2.718281828459045, 1],
    "tolerance": {"same": 1.0, "close": 1.00000001, "far": 1.001, "zero": 1e-09, "int_float": 3.0000001},
    "ints": {"a": 2, "b": -7, "big": 12345678901234567890124, "bool_int": True, "bool": False},
    "strings": {"esc": "tab\tquote\"back\\slash!", "uni": "caf\u00e8 \u2603", "ctl": "bell\u0008",
                "same": "x"},
    "arrays": {"longer": [1, 2, 3, 4], "shorter": [1, 2], "nested": [[1, 3], {"k": [2]}]},
    "types": {"to_list": [1], "to_dict": {"a": [1]}, "to_str": "5", "to_null": None, "from_null": {"x": 1}},
    "only_src": {"new": [1, {"deep": True}]},
    "image": {"__class__": "image", "__width__": 2, "__data__": "BBBB"},
    "meta": {"__comment__": "changed", "kept": 1},
    "special": [float("nan"), float("-inf"), float("inf")],
    "shader": "#version 120\nvoid main() {\n    gl_FragColor = vec4(0.5);\n}\n",
    "empty": {"obj": {"a": 1}, "arr": [{}]},
    "program": "uniform vec4 b;\n\tuniform mat3 m;\nvarying vec2 t;\nattribute float w;\n"
               "void main() {\n    gl_Position = m * b * w;\n    t = b.yx;\n}\n// caf\u00e8\n",
    "dissimilar": "alpha\nbeta\n",
}


def write(path, obj, comment):
    text = json.dumps(obj, indent=2, sort_keys=False)
    if comment:  # jsondiff.py strips // comments outside strings
        text = "// a comment\n" + text.replace('"same": "x"', '"same": "x" // trailing, "// not"')
    with open(path, "w") as f:
        f.write(text)


def random_text(r, lines):
    """Lines from a small vocabulary (repeated lines: SequenceMatcher's autojunk past
    200 lines), some long (past 200 characters), with random edits in a copy."""
    words = ["gl_Position", "vec4", "uniform", "mat4", "\t", "  ", "{", "}", "caf\u00e9", "x", "=", ";"]
    a = [" ".join(r.choice(words) for _ in range(r.choice([1, 3, 8, 60]))) for _ in range(lines)]
    b = list(a)
    for _ in range(r.randrange(1, 40)):
        i = r.randrange(len(b))
        op = r.randrange(4)
        if op == 0:
            del b[i]
        elif op == 1:
            b.insert(i, r.choice(a))
        elif op == 2:
            w = b[i].split(" ")
            w[r.randrange(len(w))] = r.choice(words)
            b[i] = " ".join(w)
        else:
            b[i] = b[i] + r.choice(words)
    return "\n".join(a) + "\n", "\n".join(b) + "\n"


def main():
    d = sys.argv[1]
    pairs = {"mixed": (REF, SRC), "equal": (REF, REF), "scalars": (1.5, [1.5])}
    for seed in range(4):
        r = random.Random(seed)
        ta, tb = random_text(r, [20, 150, 400, 800][seed])
        pairs[f"random{seed}"] = ({"source": ta}, {"source": tb})
    for name, (a, b) in pairs.items():
        write(os.path.join(d, name + ".ref.json"), a, name == "mixed")
        write(os.path.join(d, name + ".src.json"), b, False)
        print(name)


if __name__ == "__main__":
    main()
