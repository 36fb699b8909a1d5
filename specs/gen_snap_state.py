#!/usr/bin/env python3
"""Generate the state snapshot's table of setters (snap_state.gen.c) from
specs/state_setters.txt, the values of specs/state.txt and the registry: for each
setter call, the values it is made of (read with glGet*), their GL defaults, the
providers of the call and of each value (which contexts may be asked), and a C
function that writes the call through our wrappers.

Usage: gen_snap_state.py SETTERS.txt STATE.txt OUT.c GL.xml
See state_setters.txt for the grammar and wrappers/snap_state.h for the C types.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import annotations  # noqa: E402
import gen_state  # noqa: E402
import providers  # noqa: E402
import registry  # noqa: E402

SECTIONS = {"get": "SNAP_SEC_GET", "light": "SNAP_SEC_LIGHT", "material": "SNAP_SEC_MATERIAL",
            "texenv": "SNAP_SEC_TEXENV", "unit": "SNAP_SEC_UNIT"}
# state.txt's section whose value types each of ours reads
STATE_SECTION = {"get": ("get",), "light": ("light",), "material": ("material",),
                 "texenv": ("texture_env",), "unit": ("texture_unit", "get")}
FLOATS = ("GLfloat", "GLclampf", "GLdouble", "GLclampd")


def fail(where, msg):
    sys.exit(f"{where}: {msg}")


def enum_providers(root):
    """enum -> set of provider tokens (as providers.py's), and the enums the core
    profile removed."""
    own, removed = {}, set()
    for feat in root.iter("feature"):
        prefix = providers.FEATURE_PREFIX.get(feat.get("api"))
        if not prefix:
            continue
        number = "1.0" if feat.get("api") == "gles1" else feat.get("number")
        for req in feat.findall("require"):
            for e in req.findall("enum"):
                own.setdefault(e.get("name"), set()).add(prefix + number)
        for rem in feat.findall("remove"):
            if rem.get("profile") == "core":
                removed.update(e.get("name") for e in rem.findall("enum"))
    for ext in root.find("extensions"):
        if set(ext.get("supported", "").split("|")) & {"gl", "glcore", "gles1", "gles2"}:
            for req in ext.findall("require"):
                for e in req.findall("enum"):
                    own.setdefault(e.get("name"), set()).add(ext.get("name"))
    return own, removed


def command_removed(root):
    out = set()
    for feat in root.iter("feature"):
        for rem in feat.findall("remove"):
            if rem.get("profile") == "core":
                out.update(c.get("name") for c in rem.findall("command"))
    return out


def state_types(state_path):
    """{state.txt section: {pname: (TYPE, count)}}"""
    out = {}
    for head, lines in gen_state.read_sections(state_path):
        sec = out.setdefault(head[0], {})
        for _, words in lines:
            words = [w for w in words if w != "desktop"]
            if len(words) >= 2 and words[1] in gen_state.TYPES:
                n = int(words[2]) if len(words) > 2 and words[2].isdigit() else 1
                sec.setdefault(words[0], (words[1], n))
    return out


class Ctx:
    def __init__(self, reg, root, types):
        self.reg, self.types = reg, types
        self.enum_provs, self.enum_removed = enum_providers(root)
        self.cmd_provs = {}
        self.cmd_removed = command_removed(root)
        self.extra = {}  # [extra] values: pname -> (TYPE, count)

    def value(self, where, name):
        return gen_state.value(where, self.reg, name)

    def number(self, where, word):
        if word in ("GL_TRUE", "GL_FALSE"):
            return 1 if word == "GL_TRUE" else 0
        if word.startswith("GL_"):
            return self.value(where, word)
        try:
            return float(word) if any(c in word for c in ".e") else int(word, 0)
        except ValueError:
            fail(where, f"{word}: neither a GL enum nor a number")

    def value_type(self, where, section, pname):
        for sec in STATE_SECTION[section]:
            t = self.types.get(sec, {}).get(pname)
            if t:
                return t
        t = self.extra.get(pname)
        if not t:
            fail(where, f"{pname} is not a value of state.txt's "
                        f"[{' '.join(STATE_SECTION[section])}] nor of [extra]")
        return t


def parse_line(ctx, where, section, words):
    """One setter line -> dict, or None for the lines that only declare."""
    conds = []
    if "if" in words:
        i = words.index("if")
        words, conds = words[:i], words[i + 1:]
    defaults = None
    if "=" in words:
        i = words.index("=")
        words, defaults = words[:i], words[i + 1:]
    fn, args = words[0], words[1:]
    return {"where": where, "section": section, "fn": fn, "args": args,
            "defaults": defaults, "conds": conds}


def expand(ctx, where, section, words, get_names):
    """`each REGEX F ARGS...`: one line per [get] value matching REGEX, `$` in ARGS
    standing for it."""
    if words[0] != "each":
        return [parse_line(ctx, where, section, words)]
    rx = re.compile(words[1])
    out = [parse_line(ctx, where, section, [w.replace("$", n) for w in words[2:]])
           for n in get_names if rx.search(n)]
    if not out:
        fail(where, f"{words[1]} matches no value")
    return out


def read_args(ctx, line):
    """The values a line reads, [(pname, TYPE, count, element or -1)], and its arguments
    flattened: ("const", ARG) or (F or I, None) per value."""
    reads, flat = [], []
    for a in line["args"]:
        if a.startswith(":") or a == "@":
            flat.append(("const", a))
            continue
        m = re.fullmatch(r"(GL_\w+)(?:\[(\d+)\])?", a)
        if not m:
            fail(line["where"], f"{a}: expected PNAME, PNAME[i], :CONST or @")
        t, count = ctx.value_type(line["where"], line["section"], m.group(1))
        elem = int(m.group(2)) if m.group(2) else -1
        reads.append((m.group(1), t, count, elem))
        flat += [("F" if t == "F" else "I", None)] * (1 if elem >= 0 else count)
    return reads, flat


def c_call(ctx, line, cmd, flat):
    """The C statements of the call: the command's parameters take the constants and
    values in order, an array parameter every value up to the next constant."""
    where = line["where"]
    call, pre, vi, fi = [], [], 0, 0
    for p in cmd.params:
        if fi >= len(flat):
            fail(where, f"{cmd.name} has more parameters than arguments given")
        kind, text = flat[fi]
        if kind == "const":
            const = text[1:]
            value = ctx.number(where, const) if const.startswith("GL_") else const
            call.append("obj" if text == "@" else f"({p.ctype}){value}")
            fi += 1
        elif p.pointers:
            end = fi
            while end < len(flat) and flat[end][0] != "const":
                end += 1
            elems = ", ".join(f"({p.base})v[{vi + k}].{'d' if flat[fi + k][0] == 'F' else 'i'}"
                              for k in range(end - fi))
            pre.append(f"    const {p.base} a{len(pre)}[{end - fi}] = {{{elems}}};")
            call.append(f"a{len(pre) - 1}")
            vi, fi = vi + end - fi, end
        else:
            call.append(f"({p.ctype})v[{vi}].{'d' if kind == 'F' else 'i'}")
            vi, fi = vi + 1, fi + 1
    if fi != len(flat):
        fail(where, f"{cmd.name} takes {len(cmd.params)} parameters: arguments left over")
    return "\n".join(pre + [f"    {cmd.name}({', '.join(call)});"])


def requirements(ctx, line, cmd_name, reads):
    """The providers' groups (the command's, each value's) and the SNAP_IF_ flags."""
    groups, compat = [], False
    if cmd_name:
        groups.append(" ".join(ctx.cmd_provs[cmd_name]))
        compat |= cmd_name in ctx.cmd_removed
    for pn, *_ in reads:
        provs = ctx.enum_provs.get(pn)
        if not provs:
            fail(line["where"], f"{pn}: no GL version or extension of the registry provides it")
        groups.append(" ".join(sorted(provs, key=providers._order)))
        compat |= pn in ctx.enum_removed
    for c in line["conds"]:
        if c not in ("compat", "core", "gl", "es", "light0", "lightn"):
            fail(line["where"], f"if {c}: expected compat, core, gl, es, light0 or lightn")
    conds = list(dict.fromkeys(line["conds"] + (["compat"] if compat else [])))
    flags = " | ".join(["0"] + [f"SNAP_IF_{c.upper()}" for c in conds])
    return ";".join(dict.fromkeys(groups)), flags


def emit_setter(ctx, n, line, out, table):
    where, fn = line["where"], line["fn"]
    enable, unwritten = fn == "enable", fn == "unwritten"
    cmd = ctx.reg.commands.get("glEnable" if enable else "glGetIntegerv" if unwritten else fn)
    if not cmd:
        fail(where, f"{fn} is not a GL command of the registry")
    reads, flat = read_args(ctx, line)
    nvals = sum(1 for k, _ in flat if k != "const")
    defaults = line["defaults"] or (["GL_FALSE"] if enable else None)
    if defaults is not None and len(defaults) != nvals:
        fail(where, f"{len(defaults)} defaults for {nvals} values")
    if (enable or unwritten) and len(reads) != 1:
        fail(where, f"{fn} takes one value")
    if unwritten and defaults is None:
        fail(where, "unwritten needs the default")
    out.append(f"/* {where}: {fn} {' '.join(line['args'])} */")
    if enable:
        pn = ctx.value(where, reads[0][0])
        body = (f"    if (v[0].i)\n        glEnable(0x{pn:04X});\n"
                f"    else\n        glDisable(0x{pn:04X});")
    if not unwritten:
        body = body if enable else c_call(ctx, line, cmd, flat)
        out.append(f"static void w{n}(unsigned obj, const snap_value *v)\n{{\n    (void)obj;\n"
                   f"    (void)v;\n{body}\n}}")
    out.append(f"static const snap_read r{n}[] = {{")
    for pn, t, count, elem in reads:
        out.append(f"    {{0x{ctx.value(where, pn):04X}, {gen_state.TYPES[t]}, {count}, {elem}}},"
                   f" /* {pn} */")
    out.append("};")
    if defaults is not None:
        values = ", ".join(str(ctx.number(where, d)) for d in defaults)
        out.append(f"static const double d{n}[] = {{{values}}};")
    provs, flags = requirements(ctx, line, None if unwritten else cmd.name, reads)
    name = "glEnable " + reads[0][0] if enable else reads[0][0] if unwritten else fn
    dflt = f"d{n}" if defaults is not None else "NULL"
    table.append(f'    {{"{name}", {SECTIONS[line["section"]]}, "{provs}", {flags}, r{n}, '
                 f'{len(reads)}, {nvals}, {dflt}, {"NULL" if unwritten else f"w{n}"}}},')


def binding_rows(ctx, kind, rows):
    """The C table of a [bind_texture] or [bind_buffer] section."""
    out = [f"const snap_binding snap_{kind}[] = {{"]
    for where, words in rows:
        if len(words) not in (2, 6) or (kind == "bind_texture" and len(words) != 2):
            fail(where, "expected: TARGET BINDING [MAX I_BINDING I_START I_SIZE]")
        provs = [" ".join(sorted(ctx.enum_provs.get(w, ()), key=providers._order)) for w in words]
        if not all(provs):
            fail(where, "no GL version or extension of the registry provides " + " ".join(words))
        vals = [ctx.value(where, w) for w in words] + [0] * (6 - len(words))
        compat = "SNAP_IF_COMPAT" if any(w in ctx.enum_removed for w in words) else 0
        out.append("    {" + ", ".join(f"0x{v:04X}" for v in vals) +
                   f', "{";".join(dict.fromkeys(provs))}", {compat}}}, /* {words[0]} */')
    return out + ["};", f"const unsigned snap_{kind}_count = {len(rows)};", ""]


def load_registry(gl_xml):
    """What generate reads of the registry: (registry, XML root, command providers)."""
    return registry.load([gl_xml]), ET.parse(gl_xml).getroot(), providers.load(gl_xml)


def generate(setters_path, state_path, gl_xml, loaded=None):
    reg, root, provs = loaded or load_registry(gl_xml)
    types = state_types(state_path)
    ctx = Ctx(reg, root, types)
    ctx.cmd_provs = provs
    get_names = list(types.get("get", {}))
    lines, section = [], "get"
    binds = {"bind_texture": [], "bind_buffer": []}
    for where, words in annotations.fact_lines(setters_path):
        if words[0].startswith("["):
            section = words[0].strip("[]")
            if section not in SECTIONS and section not in ("extra", "group") and section not in binds:
                fail(where, f"unknown section [{section}]")
            continue
        if section == "extra":
            if len(words) not in (2, 3) or words[1] not in gen_state.TYPES:
                fail(where, "expected: PNAME TYPE [COUNT]")
            ctx.value(where, words[0])
            ctx.extra[words[0]] = (words[1], int(words[2]) if len(words) > 2 else 1)
        elif section in binds:
            binds[section].append((where, words))
        elif words[0] == "enable" and words[1] == "group":
            # every [get] value of the registry's group (EnableCap), but those named after
            # `but`, set with glEnable/glDisable
            but = words[words.index("but") + 1:] if "but" in words else []
            grp = set(reg.groups.get(words[2], []))
            for n in get_names:
                if n in grp and n not in but:
                    lines.append(parse_line(ctx, where, section, ["enable", n, "=", "GL_FALSE"]))
        else:
            lines.extend(expand(ctx, where, section, words, get_names))
    # a later line for the same enable replaces the group's (its default, its conditions)
    seen, uniq = {}, []
    for ln in lines:
        key = (ln["section"], ln["fn"], tuple(ln["args"])) if ln["fn"].startswith("enable") else None
        if key and key in seen:
            uniq[seen[key]] = ln
            continue
        if key:
            seen[key] = len(uniq)
        uniq.append(ln)
    out = ["/* Generated by specs/gen_snap_state.py from specs/state_setters.txt and "
           "specs/state.txt: do not edit. */",
           '#include "snap_state.h"', '#include "protos.gen.h"', ""]
    table = []
    for n, ln in enumerate(uniq):
        emit_setter(ctx, n, ln, out, table)
    out.append("const snap_setter snap_setters[] = {")
    out += table
    out += ["};", f"const unsigned snap_setter_count = {len(table)};", ""]
    for kind, rows in binds.items():
        out += binding_rows(ctx, kind, rows)
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    text = generate(sys.argv[1], sys.argv[2], sys.argv[4])
    tmp = sys.argv[3] + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, sys.argv[3])


if __name__ == "__main__":
    main()
