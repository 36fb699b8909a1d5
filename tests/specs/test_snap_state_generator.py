#!/usr/bin/env python3
"""Unit tests of the state snapshot's setter generator (specs/gen_snap_state.py):
specs/state_setters.txt over state.txt's values becomes setters with the registry's
providers (of the command and of each value), the core profile's removals, defaults,
the C call (constants, values, arrays) and the bindings; and the mistakes it must refuse
(an unknown pname, a command the registry lacks, defaults that do not match the values,
an unknown section or condition), naming the line.

Run: python3 tests/specs/test_snap_state_generator.py [REGISTRY_DIR]   (standard library only)
"""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = os.path.join(HERE, "..", "..", "specs")
sys.path.insert(0, SPECS)

import gen_snap_state  # noqa: E402

REGISTRY_DIR = os.path.join(SPECS, "registry")
STATE = os.path.join(SPECS, "state.txt")


def loaded():
    if not hasattr(loaded, "r"):
        loaded.r = gen_snap_state.load_registry(os.path.join(REGISTRY_DIR, "gl.xml"))
    return loaded.r


def generate(text):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        return gen_snap_state.generate(f.name, STATE, os.path.join(REGISTRY_DIR, "gl.xml"),
                                       loaded())
    finally:
        os.unlink(f.name)


def refused(test, text, words):
    with test.assertRaises(SystemExit) as cm:
        generate(text)
    msg = str(cm.exception.code)
    test.assertIn(".txt:", msg)
    for w in words:
        test.assertIn(w, msg)


class SnapStateGenerator(unittest.TestCase):
    def test_the_real_table(self):
        c = gen_snap_state.generate(os.path.join(SPECS, "state_setters.txt"), STATE,
                                    os.path.join(REGISTRY_DIR, "gl.xml"), loaded())
        self.assertIn('"glEnable GL_DEPTH_TEST"', c)
        self.assertIn("glBlendFuncSeparate((GLenum)v[0].i", c)
        # the pixel store pattern: both alignments, always written
        self.assertRegex(c, r'"glPixelStorei", SNAP_SEC_GET, "[^"]*", 0, r\d+, 1, 1, NULL')
        self.assertIn("/* GL_PACK_ALIGNMENT */", c)
        self.assertIn("/* GL_UNPACK_ALIGNMENT */", c)

    def test_call_providers_and_defaults(self):
        c = generate("[get]\nglBlendFuncSeparate GL_BLEND_SRC_RGB GL_BLEND_DST_RGB "
                     "GL_BLEND_SRC_ALPHA GL_BLEND_DST_ALPHA = GL_ONE GL_ZERO GL_ONE GL_ZERO\n"
                     "glShadeModel GL_SHADE_MODEL = GL_SMOOTH\n")
        self.assertIn("static const double d0[] = {1, 0, 1, 0};", c)
        row = [l for l in c.splitlines() if l.startswith('    {"glBlendFuncSeparate"')][0]
        self.assertIn("ES2.0", row)  # the command's and each value's providers
        self.assertNotIn("SNAP_IF_COMPAT", row)
        shade = [l for l in c.splitlines() if l.startswith('    {"glShadeModel"')][0]
        self.assertIn("SNAP_IF_COMPAT", shade)  # removed from the core profile

    def test_constants_arrays_and_objects(self):
        c = generate("[get]\nglFogfv :GL_FOG_COLOR GL_FOG_COLOR = 0 0 0 0\n"
                     "[light]\nglLightfv @ :GL_DIFFUSE GL_DIFFUSE = 1 1 1 1 if light0\n")
        self.assertIn("const GLfloat a0[4] = {(GLfloat)v[0].d, (GLfloat)v[1].d, "
                      "(GLfloat)v[2].d, (GLfloat)v[3].d};", c)
        self.assertIn("glFogfv((GLenum)2918, a0);", c)
        self.assertIn("glLightfv(obj, (GLenum)4609, a0);", c)
        self.assertIn("SNAP_IF_LIGHT0", c)

    def test_patterns(self):
        c = generate("[get]\nenable group EnableCap but GL_VERTEX_ARRAY\nenable GL_DITHER = GL_TRUE\n"
                     "each ^GL_PACK_(ALIGNMENT|ROW_LENGTH)$ glPixelStorei :$ $\n")
        self.assertIn('"glEnable GL_BLEND"', c)
        self.assertNotIn('"glEnable GL_VERTEX_ARRAY"', c)
        self.assertEqual(c.count('"glEnable GL_DITHER"'), 1)  # the later line replaces
        self.assertEqual(c.count('    {"glPixelStorei"'), 2)

    def test_unwritten_and_bindings(self):
        c = generate("[get]\nunwritten GL_RENDER_MODE = GL_RENDER\n[bind_buffer]\n"
                     "GL_UNIFORM_BUFFER GL_UNIFORM_BUFFER_BINDING GL_MAX_UNIFORM_BUFFER_BINDINGS "
                     "GL_UNIFORM_BUFFER_BINDING GL_UNIFORM_BUFFER_START GL_UNIFORM_BUFFER_SIZE\n")
        self.assertIn('{"GL_RENDER_MODE", SNAP_SEC_GET', c)
        self.assertIn("NULL},", c)  # no writer
        self.assertIn("{0x8A11, 0x8A28, 0x8A2F, 0x8A28, 0x8A29, 0x8A2A,", c)

    def test_refused(self):
        refused(self, "[get]\nglDepthFunc GL_NO_SUCH_THING\n", ["GL_NO_SUCH_THING"])
        refused(self, "[get]\nglNoSuchCall GL_DEPTH_FUNC\n", ["glNoSuchCall"])
        refused(self, "[get]\nglDepthFunc GL_DEPTH_FUNC = GL_LESS 1\n", ["2 defaults for 1 values"])
        refused(self, "[nowhere]\n", ["[nowhere]"])
        refused(self, "[get]\nglDepthFunc GL_DEPTH_FUNC if sometimes\n", ["if sometimes"])
        refused(self, "[get]\nglClearColor GL_DEPTH_FUNC\n", ["more parameters"])
        refused(self, "[get]\neach ^GL_NOTHING_ glHint :$ $\n", ["matches no value"])


if __name__ == "__main__":
    if len(sys.argv) > 1:
        REGISTRY_DIR = sys.argv.pop(1)
    unittest.main()
