"""Reader of specs/annotations.txt: the facts about GL, GLX and EGL functions that the
Khronos XML lacks. One fact per line; see the file's header for the grammar."""
import re
from dataclasses import dataclass, field


@dataclass
class Annotations:
    types: dict = field(default_factory=dict)      # base type -> scalar kind ("sint", "enum:GLenum", ...)
    compsize: dict = field(default_factory=dict)   # "COMPSIZE(a,b)" -> (how, helper or kind)
    params: dict = field(default_factory=dict)     # "func.param" -> (kind, [args])
    returns: dict = field(default_factory=dict)    # func -> (kind, [args])
    overrides: dict = field(default_factory=dict)  # func -> source file of the hand-written wrapper
    skip: set = field(default_factory=set)         # functions not exported (see the file)
    hooks: dict = field(default_factory=dict)      # func -> [C functions called after the call]
    prehooks: dict = field(default_factory=dict)   # func -> [C functions called before it]
    track_hooks: dict = field(default_factory=dict) # func -> [C functions following it, recorded or not]
    invokes: dict = field(default_factory=dict)    # func -> C function that makes the real call
    provided: set = field(default_factory=set)     # GetProcAddress gives our wrapper anyway
    nodriver: set = field(default_factory=set)     # recorded only, never passed to the driver
    tools: dict = field(default_factory=dict)      # func in no registry -> C function: see `tool`
    adjusts: dict = field(default_factory=dict)    # func -> [(param, C function)]: see `adjust`
    flag_values: dict = field(default_factory=dict) # bitmask flag name -> value: see `flag`
    retrace: dict = field(default_factory=dict)    # func or func.param -> [[what, args...]] (replay
                                                   # facts, read by gen_retrace.py only)
    groups: dict = field(default_factory=dict)     # registry group -> scalar kind of its values
    symbolic: list = field(default_factory=list)   # (pname, param) name pairs: see `symbolic`
    patterns: list = field(default_factory=list)   # (line, word, regex, param, rest): `re:` lines,
                                                   # resolved by expand()
    hook_lines: dict = field(default_factory=dict) # (hook or prehook, func, C function) -> line
    lengths: dict = field(default_factory=dict)    # "func.param" -> length the registry lacks
    unpack: set = field(default_factory=set)       # "func.param": pixel data read through the
                                                   # pixel unpack buffer when one is bound
    pack: set = field(default_factory=set)         # "func.param": pixel data written into the
                                                   # pixel pack buffer when one is bound
    proxy: dict = field(default_factory=dict)      # "func.param" -> its target parameter: no
                                                   # pixels are read for a proxy target


def fact_lines(path):
    """(where, words) of each line of a specs fact file that holds more than a comment:
    the one reader of the plain lists (enum_names.txt, enum_pnames.txt, arg_names.txt)."""
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            words = raw.split("#", 1)[0].split()
            if words:
                yield f"{path}:{lineno}", words


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
            elif word == "compsize" and len(rest) >= 3 and rest[1] == "address":
                ann.compsize[rest[0]] = ("address", " ".join(rest[2:]))  # the reason
            elif word in ("len", "unpack", "pack", "proxy") and rest and rest[0].startswith("re:") \
                    and "." in rest[0] and len(rest) == (2 if word in ("len", "proxy") else 1):
                regex, _, param = rest[0][3:].rpartition(".")  # re:REGEX.P (P the parameter)
                ann.patterns.append((lineno, word, re.compile(regex), param, rest[1:]))
            elif word == "len" and len(rest) == 2 and "." in rest[0]:
                if rest[0] in ann.lengths:
                    raise SystemExit(f"{where}: {rest[0]} has two len lines")
                ann.lengths[rest[0]] = rest[1]
            elif word == "proxy" and len(rest) == 2 and "." in rest[0]:
                ann.proxy[rest[0]] = rest[1]
            elif word in ("unpack", "pack") and len(rest) == 1 and "." in rest[0]:
                getattr(ann, word).add(rest[0])
            elif word == "param" and len(rest) >= 2:
                if rest[0] in ann.params:
                    raise SystemExit(f"{where}: {rest[0]} is annotated twice")
                ann.params[rest[0]] = (rest[1], rest[2:])
            elif word == "return" and len(rest) >= 2:
                ann.returns[rest[0]] = (rest[1], rest[2:])
            elif word == "override" and len(rest) == 2:
                ann.overrides[rest[0]] = rest[1]
            elif word in ("hook", "prehook", "retrace") and len(rest) >= 2 and \
                    rest[0].startswith("re:") and (word == "retrace" or len(rest) == 2):
                regex, _, param = rest[0][3:].partition(".")  # re:REGEX[.P]: no '.' in REGEX
                ann.patterns.append((lineno, word, re.compile(regex), param, rest[1:]))
            elif word in ("hook", "prehook") and len(rest) == 2:
                table = ann.hooks if word == "hook" else ann.prehooks
                if rest[1] in table.setdefault(rest[0], []):
                    raise SystemExit(f"{where}: {word} {rest[0]} {rest[1]} listed twice")
                table[rest[0]].append(rest[1])  # several run in file order
                ann.hook_lines[(word, rest[0], rest[1])] = lineno
            elif word == "track" and len(rest) == 2:
                if rest[1] in ann.track_hooks.setdefault(rest[0], []):
                    raise SystemExit(f"{where}: track {rest[0]} {rest[1]} listed twice")
                ann.track_hooks[rest[0]].append(rest[1])
            elif word == "invoke" and len(rest) == 2:
                ann.invokes[rest[0]] = rest[1]
            elif word == "provide" and len(rest) == 1:
                ann.provided.add(rest[0])
            elif word == "flag" and len(rest) == 2 and re.fullmatch(r"0x[0-9a-fA-F]+", rest[1]):
                ann.flag_values[rest[0]] = int(rest[1], 16)
            elif word == "adjust" and len(rest) == 2 and "." in rest[0]:
                func, _, param = rest[0].partition(".")
                ann.adjusts.setdefault(func, []).append((param, rest[1]))
            elif word == "tool" and len(rest) == 2:
                ann.tools[rest[0]] = rest[1]
            elif word == "nodriver" and len(rest) == 1:
                ann.nodriver.add(rest[0])
                ann.provided.add(rest[0])
            elif word == "retrace" and len(rest) >= 2:
                ann.retrace.setdefault(rest[0], []).append(rest[1:])
            elif word == "group" and len(rest) == 2:
                ann.groups[rest[0]] = rest[1]
            elif word == "symbolic" and len(rest) == 2:
                ann.symbolic.append((rest[0], rest[1]))
            elif word == "skip" and len(rest) == 1:
                ann.skip.add(rest[0])
            else:
                raise SystemExit(f"{where}: cannot read annotation: {raw.strip()}")
    return ann


def expand(ann, commands, words):
    """Adds the lines of WORDS (hook, prehook, retrace; len, unpack, pack and proxy always) written as
    `re:REGEX[.P]` to ann's tables, for each of COMMANDS (the registry's, by name) the regex matches whole (and
    that has a parameter P, when given). A pattern that matches nothing, or names a
    function a plain line already gave the same hook, stops the generator: patterns
    never go quietly stale. Several hooks of one function run in the order of their
    lines."""
    words = tuple(words) + ("len", "unpack", "pack", "proxy")  # how values are written: every plan needs them
    for lineno, word, regex, param, rest in [p for p in ann.patterns if p[1] in words]:
        names = [n for n in sorted(commands) if regex.fullmatch(n) and
                 (not param or any(p.name == param for p in commands[n].params))]
        if not names:
            raise SystemExit(f"annotations.txt:{lineno}: {word} re:{regex.pattern} matches no command")
        if word == "retrace":
            for name in names:
                ann.retrace.setdefault(f"{name}.{param}" if param else name, []).append(rest)
            continue
        if word == "len":
            for name in names:
                if ann.lengths.setdefault(f"{name}.{param}", rest[0]) != rest[0]:
                    raise SystemExit(f"annotations.txt:{lineno}: {name}.{param} has two len lines")
            continue
        if word == "proxy":
            ann.proxy.update((f"{name}.{param}", rest[0]) for name in names)
            continue
        if word in ("unpack", "pack"):
            getattr(ann, word).update(f"{name}.{param}" for name in names)
            continue
        table, fn = (ann.hooks if word == "hook" else ann.prehooks), rest[0]
        for name in names:
            if fn in table.setdefault(name, []):
                raise SystemExit(f"annotations.txt:{lineno}: {word} {name} {fn} listed twice")
            table[name].append(fn)
            ann.hook_lines[(word, name, fn)] = lineno
            table[name].sort(key=lambda f, w=word, n=name: ann.hook_lines[(w, n, f)])
    ann.patterns = [p for p in ann.patterns if p[1] not in words]
