"""What the tests of the specs/ generators that read gl.xml, glx.xml and specs/egl.xml
share: the registry, loaded once, and a fact file written from a test's text.

    import registry_fixture as fx
    fx.read_text(gen_roles.read_roles, "begin glBegin\\n")
    fx.main()  # unittest.main, after taking the registry folder from the command line
"""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = os.path.normpath(os.path.join(HERE, "..", "..", "specs"))
sys.path.insert(0, SPECS)

import registry  # noqa: E402

# the vendored registry, or the command line's first argument when given
REGISTRY_DIR = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "specs", "registry")]


def reg():
    if not hasattr(reg, "r"):
        d = REGISTRY_DIR[0]
        reg.r = registry.load([os.path.join(d, "gl.xml"), os.path.join(d, "glx.xml"),
                               os.path.join(SPECS, "egl.xml")])
    return reg.r


def read_text(reader, text):
    """reader(path, registry) of a temporary file holding text."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        return reader(f.name, reg())
    finally:
        os.unlink(f.name)


def emitted(emit, facts, name):
    """The C text emit(facts, name, out) writes."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.gen.c")
        emit(facts, name, out)
        with open(out, encoding="utf-8") as f:
            return f.read()


def main():
    if len(sys.argv) > 1:
        REGISTRY_DIR[0] = sys.argv.pop(1)
    unittest.main()
