"""Which GL versions and extensions provide each command of gl.xml, for glretrace's
check before it calls a function (a function no provider of the current context
offers makes libepoxy abort).

    provs = providers.load("specs/registry/gl.xml")
    provs["glMakeTextureHandleResidentARB"]  # ["GL_ARB_bindless_texture"]

Tokens, as retrace/gl_avail.c reads them:
  GLx.y       desktop OpenGL x.y or later (<feature api="gl">)
  ES1.0       OpenGL ES 1.x (<feature api="gles1">)
  ESx.y       OpenGL ES x.y or later, x >= 2 (<feature api="gles2">)
  GL_EXT_foo  a GL extension the context lists (any API: the context's list decides)
As in libepoxy, whose dispatch is generated from the same registry, the providers
of a command are those of its whole alias group (glBindBufferARB is there on a GL 1.5
context without GL_ARB_vertex_buffer_object), and removals from the core profile do
not count (libepoxy resolves glBegin on a core context; the driver raises the error).
Standard library only.
"""
import xml.etree.ElementTree as ET

FEATURE_PREFIX = {"gl": "GL", "gles1": "ES", "gles2": "ES"}


def _alias_groups(root):
    """command -> the sorted names of its alias group (itself included)."""
    parent = {}
    for cmd in root.find("commands").findall("command"):
        name = cmd.find("proto").find("name").text
        alias = cmd.find("alias")
        parent[name] = alias.get("name") if alias is not None else name

    def root_of(n):
        seen = set()
        while parent.get(n, n) != n and n not in seen:
            seen.add(n)
            n = parent[n]
        return n
    groups = {}
    for n in parent:
        groups.setdefault(root_of(n), []).append(n)
    return {n: sorted(groups[root_of(n)]) for n in parent}


def _own_providers(root):
    """command -> its own provider tokens, in registry order."""
    own = {}

    def add(req_parent, token):
        for req in req_parent.findall("require"):
            for c in req.findall("command"):
                lst = own.setdefault(c.get("name"), [])
                if token not in lst:
                    lst.append(token)
    for feat in root.iter("feature"):
        prefix = FEATURE_PREFIX.get(feat.get("api"))
        if prefix:  # glsc2 (safety-critical) is no API a replay context has
            number = "1.0" if feat.get("api") == "gles1" else feat.get("number")
            add(feat, prefix + number)
    exts = root.find("extensions")
    for ext in (exts if exts is not None else []):
        supported = set(ext.get("supported", "").split("|"))
        if supported & {"gl", "glcore", "gles1", "gles2"}:
            add(ext, ext.get("name"))
    return own


def _order(token):
    """Versions first, oldest first; then extensions by name."""
    if token[:2] in ("GL", "ES") and token[2:3].isdigit():
        return (0, token[:2], float(token[2:]))
    return (1, token, 0.0)


def load(gl_xml):
    root = ET.parse(gl_xml).getroot()
    own = _own_providers(root)
    out = {}
    for name, group in _alias_groups(root).items():
        tokens = {t for n in group for t in own.get(n, [])}
        out[name] = sorted(tokens, key=_order)
    return out
