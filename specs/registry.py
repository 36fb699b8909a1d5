"""Loader for Khronos API registries (gl.xml, glx.xml, and our egl.xml).

One model for every generator in specs/: commands with typed parameters, enums
with their groups, and which API (gl, glcore, gles1, gles2, glx, egl) each command
belongs to. Standard library only.

    reg = registry.load(["specs/registry/gl.xml", ...])
    for cmd in reg.commands.values(): ...
"""
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field


@dataclass
class Param:
    name: str
    ctype: str          # full C type, e.g. "const GLchar *const*"
    base: str           # base type name, e.g. "GLchar" (ptype, or the plain C word)
    pointers: int       # number of '*'
    const: bool         # the pointed-to data is const
    group: str = ""     # enum group (group= attribute), "" when none
    length: str = ""    # len= attribute as written, "" when none
    obj_class: str = "" # class= attribute: object namespace (texture, buffer, ...)


@dataclass
class Command:
    name: str
    ret: str            # C return type, "void" for none
    ret_base: str
    ret_group: str
    params: list
    registry: str       # file stem: gl, glx, egl
    apis: set = field(default_factory=set)  # gl, glcore, gles1, gles2, glsc2, glx, egl
    alias: str = ""
    ret_class: str = "" # class= of <proto>: the namespace of a returned name (glCreateProgram)


@dataclass
class Enum:
    name: str
    value: int
    groups: tuple
    bitmask: bool
    api: str = ""       # "" when shared by every API
    extension: str = "" # vendor suffix rank helper: the enum's name suffix


class Registry:
    def __init__(self):
        self.commands = {}   # name -> Command
        self.enums = {}      # name -> Enum
        self.groups = {}     # group -> [enum names]
        self.extensions = set()  # extension names

    def api_commands(self, api):
        return sorted(c for c in self.commands.values() if api in c.apis)


def _text(elem):
    return "".join(elem.itertext())


def _parse_type(elem):
    """C type of a <param> or <proto> without its name."""
    parts = [elem.text or ""]
    base = ""
    for child in elem:
        if child.tag == "ptype":
            base = child.text
            parts.append(child.text)
        elif child.tag == "name":
            parts.append(child.tail or "")
            break
        parts.append(child.tail or "")
    ctype = " ".join("".join(parts).split())
    ctype = ctype.replace(" *", "*").replace("*", " *").replace("  ", " ").strip()
    if not base:  # plain C types: void, char, int, ...
        words = [w for w in ctype.replace("*", " ").split() if w not in ("const", "struct")]
        base = " ".join(words)
    pointers = ctype.count("*")
    const = ctype.startswith("const ") or (" const" in ctype and pointers > 1)
    return ctype, base, pointers, const


def _load_commands(root, reg, stem):
    for cmd in root.find("commands").findall("command"):
        proto = cmd.find("proto")
        name = proto.find("name").text
        ret, ret_base, _, _ = _parse_type(proto)
        params = []
        for p in cmd.findall("param"):
            ctype, base, pointers, const = _parse_type(p)
            params.append(Param(p.find("name").text, ctype, base, pointers, const,
                                p.get("group", ""), p.get("len", ""), p.get("class", "")))
        alias = cmd.find("alias")
        reg.commands[name] = Command(name, ret, ret_base, proto.get("group", ""), params, stem,
                                     alias=alias.get("name") if alias is not None else "",
                                     ret_class=proto.get("class", ""))


def _load_enums(root, reg):
    for block in root.iter("enums"):
        bitmask = block.get("type") == "bitmask"
        block_group = block.get("group", "")
        for e in block.findall("enum"):
            value = e.get("value")
            try:
                v = int(value, 0)
            except (TypeError, ValueError):
                continue  # e.g. expressions such as ((EGLint)-1) in egl.xml: handled there
            groups = tuple(g for g in (e.get("group", "").split(",") + [block_group]) if g)
            name = e.get("name")
            reg.enums[name] = Enum(name, v, groups, bitmask, e.get("api", ""))
            for g in groups:
                reg.groups.setdefault(g, []).append(name)


def _apply_requires(root, reg, default_api):
    """Marks each command with the APIs whose features or extensions require it."""
    for feat in root.iter("feature"):
        api = feat.get("api", default_api)
        for req in feat.findall("require"):
            for c in req.findall("command"):
                if c.get("name") in reg.commands:
                    reg.commands[c.get("name")].apis.add(api)
                    if api == "gl" and req.get("profile") != "compatibility":
                        reg.commands[c.get("name")].apis.add("glcore")
    # commands removed from the core profile leave glcore
    for feat in root.iter("feature"):
        for rem in feat.findall("remove"):
            if rem.get("profile") == "core":
                for c in rem.findall("command"):
                    if c.get("name") in reg.commands:
                        reg.commands[c.get("name")].apis.discard("glcore")
    exts = root.find("extensions")
    for ext in (exts if exts is not None else []):
        reg.extensions.add(ext.get("name"))
        supported = [s for s in ext.get("supported", default_api).split("|") if s != "disabled"]
        for req in ext.findall("require"):
            apis = [req.get("api")] if req.get("api") else supported
            for c in req.findall("command"):
                cmd = reg.commands.get(c.get("name"))
                if cmd:
                    cmd.apis.update(a for a in apis if a in supported)


def load(paths):
    """Loads registries; each file's commands default to the API its name says."""
    reg = Registry()
    for path in paths:
        stem = path.rsplit("/", 1)[-1].split(".")[0]
        root = ET.parse(path).getroot()
        _load_commands(root, reg, stem)
        _load_enums(root, reg)
        _apply_requires(root, reg, stem)
        for cmd in reg.commands.values():
            if cmd.registry == stem and stem in ("glx", "egl"):
                cmd.apis.add(stem)  # every GLX/EGL command is wrapped
    return reg
