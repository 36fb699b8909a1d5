"""Reader of specs/annotations.txt: the facts about GL, GLX and EGL functions that the
Khronos XML lacks. One fact per line; see the file's header for the grammar."""
from dataclasses import dataclass, field


@dataclass
class Annotations:
    types: dict = field(default_factory=dict)      # base type -> scalar kind ("sint", "enum:GLenum", ...)
    compsize: dict = field(default_factory=dict)   # "COMPSIZE(a,b)" -> (how, helper or kind)
    params: dict = field(default_factory=dict)     # "func.param" -> (kind, [args])
    returns: dict = field(default_factory=dict)    # func -> (kind, [args])
    overrides: dict = field(default_factory=dict)  # func -> source file of the hand-written wrapper
    skip: set = field(default_factory=set)         # functions not exported (see the file)
    hooks: dict = field(default_factory=dict)      # func -> C function called after the call
    prehooks: dict = field(default_factory=dict)   # func -> C function called before it


def load(path):
    ann = Annotations()
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            word, *rest = line.split()
            where = f"{path}:{lineno}"
            if word == "type" and len(rest) == 2:
                ann.types[rest[0].replace(".", " ")] = rest[1]
            elif word == "compsize" and len(rest) == 3 and rest[1] in ("helper", "kind", "unpack",
                                                                       "elements"):
                ann.compsize[rest[0]] = (rest[1], rest[2])
            elif word == "param" and len(rest) >= 2:
                ann.params[rest[0]] = (rest[1], rest[2:])
            elif word == "return" and len(rest) >= 2:
                ann.returns[rest[0]] = (rest[1], rest[2:])
            elif word == "override" and len(rest) == 2:
                ann.overrides[rest[0]] = rest[1]
            elif word == "hook" and len(rest) == 2:
                ann.hooks[rest[0]] = rest[1]
            elif word == "prehook" and len(rest) == 2:
                ann.prehooks[rest[0]] = rest[1]
            elif word == "skip" and len(rest) == 1:
                ann.skip.add(rest[0])
            else:
                raise SystemExit(f"{where}: cannot read annotation: {raw.strip()}")
    return ann
