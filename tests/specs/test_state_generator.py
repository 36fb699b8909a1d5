#!/usr/bin/env python3
"""Unit tests of glretrace -D's table generator (specs/gen_state.py): specs/state.txt
becomes C rows with the registry's values (types, counts, counted lists, the desktop
flag), the providers of the query functions and the enum names; and the mistakes it
must refuse (an unknown pname, a bad type, an unknown section, a missing one).

Run: python3 tests/specs/test_state_generator.py [REGISTRY_DIR]   (standard library only)
"""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = os.path.join(HERE, "..", "..", "specs")
sys.path.insert(0, SPECS)

import gen_state  # noqa: E402
import registry  # noqa: E402

REGISTRY_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "specs", "registry")


def gl_xml():
    return os.path.join(REGISTRY_DIR, "gl.xml")


def reg():
    if not hasattr(reg, "r"):
        reg.r = registry.load([gl_xml()])
    return reg.r


def generate(text):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        return gen_state.generate(f.name, reg(), gl_xml())
    finally:
        os.unlink(f.name)


MINIMAL = """
[functions]
glGetIntegerv glGetMaterialfv
[buffer_target]
GL_UNIFORM_BUFFER GL_UNIFORM_BUFFER_BINDING GL_MAX_UNIFORM_BUFFER_BINDINGS GL_UNIFORM_BUFFER_BINDING GL_UNIFORM_BUFFER_START GL_UNIFORM_BUFFER_SIZE
[texture_target]
GL_TEXTURE_2D GL_TEXTURE_BINDING_2D
[texture_env GL_TEXTURE_ENV]
GL_TEXTURE_ENV_MODE E
"""
REST = "".join(f"[{s}]\n" for s in ("buffer", "material", "light", "vertex_attrib",
                                     "texture_unit", "texture", "texture_level",
                                     "framebuffer_attachment", "sampler"))


class StateGenerator(unittest.TestCase):
    def test_rows(self):
        c = generate(MINIMAL + REST + """[get]
GL_CURRENT_COLOR F 4
GL_COMPRESSED_TEXTURE_FORMATS E GL_NUM_COMPRESSED_TEXTURE_FORMATS
GL_SAMPLER_BINDING I 1 desktop
""")
        self.assertIn('{0x0B00, "GL_CURRENT_COLOR", ST_FLOAT, 4, 0x0000, 0},', c)
        self.assertIn('{0x86A3, "GL_COMPRESSED_TEXTURE_FORMATS", ST_ENUM, 0, 0x86A2, 0},', c)
        self.assertIn('{0x8919, "GL_SAMPLER_BINDING", ST_INT, 1, 0x0000, 1},', c)
        self.assertIn('{"GL_UNIFORM_BUFFER", 0x8A11, 0x8A28, 0x8A2F, 0x8A28, 0x8A29, 0x8A2A},', c)
        self.assertIn('{"GL_TEXTURE_2D", 0x0DE1, 0x8069},', c)
        self.assertIn('{0x2300, "GL_TEXTURE_ENV", &state_env_0},', c)
        self.assertIn('{0x0000, "GL_ZERO"},', c)
        self.assertIn('{"glGetMaterialfv", "', c)
        # sorted function names: state_has() searches them
        self.assertLess(c.index('"glGetIntegerv"'), c.index('"glGetMaterialfv"'))

    def test_refusals(self):
        for text, what in (
                ("[get]\nGL_NO_SUCH_PNAME I\n", "not in the registry"),
                ("[get]\nGL_CURRENT_COLOR Q 4\n", "expected: PNAME TYPE"),
                ("[nonsense]\n", "unknown section"),
                ("[functions]\nglNoSuchFunction\n", "not a GL command"),
        ):
            with self.assertRaises(SystemExit) as cm:
                generate(MINIMAL + REST + text)
            self.assertIn(what, str(cm.exception))
        with self.assertRaises(SystemExit) as cm:
            generate(MINIMAL)
        self.assertIn("missing sections", str(cm.exception))

    def test_the_table_generates(self):
        c = gen_state.generate(os.path.join(SPECS, "state.txt"), reg(), gl_xml())
        self.assertIn('"GL_TEXTURE_BORDER_COLOR", ST_FLOAT, 4', c)


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        REGISTRY_DIR = sys.argv.pop(1)
    unittest.main()
