#!/usr/bin/env python3
"""Unit tests of the wrapper generator (specs/): classification rules, the
stop-on-unclassified promise, annotation parsing and the emitted C.

Run: python3 tests/specs/test_generator.py [REGISTRY_DIR]   (standard library only)
"""
import os
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = os.path.join(HERE, "..", "..", "specs")
sys.path.insert(0, SPECS)

import annotations  # noqa: E402
import classify  # noqa: E402
import emit_c  # noqa: E402
import gen_roles  # noqa: E402
import registry  # noqa: E402

REGISTRY_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "specs", "registry")

MINI_XML = """<registry>
  <enums namespace="GL" group="ClearBufferMask" type="bitmask">
    <enum value="0x00004000" name="GL_COLOR_BUFFER_BIT" group="ClearBufferMask"/>
    <enum value="0x00000100" name="GL_DEPTH_BUFFER_BIT" group="ClearBufferMask"/>
  </enums>
  <enums namespace="GL">
    <enum value="0x0DE1" name="GL_TEXTURE_2D"/>
    <enum value="0x8D40" name="GL_FRAMEBUFFER_OES"/>
    <enum value="0x8D40" name="GL_FRAMEBUFFER"/>
  </enums>
  <commands namespace="GL">
    <command><proto>void <name>glClear</name></proto>
      <param group="ClearBufferMask"><ptype>GLbitfield</ptype> <name>mask</name></param></command>
    <command><proto>void <name>glGetFloatv</name></proto>
      <param><ptype>GLenum</ptype> <name>pname</name></param>
      <param len="COMPSIZE(pname)"><ptype>GLfloat</ptype> *<name>data</name></param></command>
    <command><proto>void <name>glBufferData</name></proto>
      <param><ptype>GLenum</ptype> <name>target</name></param>
      <param><ptype>GLsizeiptr</ptype> <name>size</name></param>
      <param len="size">const void *<name>data</name></param>
      <param><ptype>GLenum</ptype> <name>usage</name></param></command>
    <command><proto>void <name>glBindAttribLocation</name></proto>
      <param><ptype>GLuint</ptype> <name>program</name></param>
      <param><ptype>GLuint</ptype> <name>index</name></param>
      <param>const <ptype>GLchar</ptype> *<name>name</name></param></command>
    <command><proto>void <name>glGenBuffers</name></proto>
      <param><ptype>GLsizei</ptype> <name>n</name></param>
      <param len="n"><ptype>GLuint</ptype> *<name>buffers</name></param></command>
    <command><proto><ptype>GLuint</ptype> <name>glCreateProgram</name></proto></command>
    <command><proto>void <name>glMystery</name></proto>
      <param><ptype>GLint</ptype> *<name>values</name></param></command>
    <command><proto>void <name>glTextureSubImage1D</name></proto>
      <param><ptype>GLuint</ptype> <name>texture</name></param>
      <param><ptype>GLsizei</ptype> <name>width</name></param>
      <param><ptype>GLenum</ptype> <name>format</name></param>
      <param><ptype>GLenum</ptype> <name>type</name></param>
      <param>const void *<name>pixels</name></param></command>
    <command><proto>void <name>glGetnTexImage</name></proto>
      <param><ptype>GLsizei</ptype> <name>bufSize</name></param>
      <param len="bufSize">void *<name>pixels</name></param></command>
    <command><proto>void <name>glCompressedTexImage1D</name></proto>
      <param><ptype>GLsizei</ptype> <name>imageSize</name></param>
      <param len="imageSize">const void *<name>data</name></param></command>
  </commands>
  <feature api="gl" name="GL_VERSION_1_0" number="1.0"><require>
    <command name="glClear"/><command name="glGetFloatv"/></require></feature>
</registry>
"""

MINI_ANNOTATIONS = """
type GLenum enum:GLenum
type GLbitfield bitmask
type GLint sint
type GLuint uint
type GLsizei sint
type GLsizeiptr sint
type GLfloat float
compsize COMPSIZE(pname) helper gtsz_pname
"""


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    return path


class Mini(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.reg = registry.load([write(self.tmp, "gl.xml", MINI_XML)])
        self.ann = annotations.load(write(self.tmp, "annotations.txt", MINI_ANNOTATIONS))

    def plan(self, cmd, param):
        c = self.reg.commands[cmd]
        p = next(p for p in c.params if p.name == param)
        return classify.param_plan(c, p, self.ann)

    def test_scalar_kinds(self):
        self.assertEqual(self.plan("glClear", "mask").scalar, "bitmask")
        self.assertEqual(self.plan("glBufferData", "usage").scalar, "enum:GLenum")

    def test_pointer_rules(self):
        blob = self.plan("glBufferData", "data")
        self.assertEqual((blob.kind, blob.args, blob.output), ("blob", ["size"], False))
        self.assertEqual(self.plan("glBindAttribLocation", "name").kind, "string")
        out = self.plan("glGenBuffers", "buffers")
        self.assertEqual((out.kind, out.args, out.output, out.scalar), ("array", ["n"], True, "uint"))
        get = self.plan("glGetFloatv", "data")
        self.assertEqual((get.kind, get.args, get.output), ("array", ["gtsz_pname(pname)"], True))

    def test_unclassified_names_the_command(self):
        with self.assertRaises(classify.Unclassified) as e:
            self.plan("glMystery", "values")
        self.assertIn("glMystery.values", str(e.exception))

    def test_input_pointer_without_size_is_refused(self):
        # the GL reads these bytes: written as an address, replays would crash
        with self.assertRaises(classify.Unclassified) as e:
            self.plan("glTextureSubImage1D", "pixels")
        self.assertIn("glTextureSubImage1D.pixels: input pointer", str(e.exception))
        self.assertIn("without a size rule", str(e.exception))

    def test_output_pointer_without_size_is_refused(self):
        c = self.reg.commands["glGetnTexImage"]
        p = next(p for p in c.params if p.name == "pixels")
        p.length = ""
        with self.assertRaises(classify.Unclassified) as e:
            classify.param_plan(c, p, self.ann)
        self.assertIn("memory the call fills", str(e.exception))

    def test_address_needs_a_reason(self):
        self.ann.params["glTextureSubImage1D.pixels"] = ("address", [])
        with self.assertRaises(classify.Unclassified) as e:
            self.plan("glTextureSubImage1D", "pixels")
        self.assertIn("address needs a reason", str(e.exception))
        self.ann.params["glTextureSubImage1D.pixels"] = ("pointer", [])
        with self.assertRaises(classify.Unclassified):
            self.plan("glTextureSubImage1D", "pixels")
        self.ann.params["glTextureSubImage1D.pixels"] = ("address", ["a", "handle"])
        self.assertEqual(self.plan("glTextureSubImage1D", "pixels").kind, "pointer")

    def test_len_line_gives_the_unpack_rule(self):
        self.ann.compsize["COMPSIZE(format,type,width)"] = ("unpack", "gtsz_image_1d")
        self.ann.lengths["glTextureSubImage1D.pixels"] = "COMPSIZE(format,type,width)"
        plan = self.plan("glTextureSubImage1D", "pixels")
        self.assertEqual((plan.kind, plan.args), ("blob_unpack", ["gtsz_image_1d(format, type, width)"]))
        # a len line where the registry has one is stale: refused
        self.ann.lengths["glBufferData.data"] = "size"
        with self.assertRaises(classify.Unclassified):
            self.plan("glBufferData", "data")

    def test_unpack_and_pack_lines(self):
        self.ann.unpack.add("glCompressedTexImage1D.data")
        self.assertEqual(self.plan("glCompressedTexImage1D", "data").kind, "blob_unpack")
        self.ann.pack.add("glGetnTexImage.pixels")
        plan = self.plan("glGetnTexImage", "pixels")
        self.assertEqual((plan.kind, plan.output, plan.pack), ("blob", True, True))
        c = self.reg.commands["glGetnTexImage"]
        text = "\n".join(emit_c.value_write(plan, "pixels", c.params[1], set(), "void *"))
        self.assertIn("if (gtw_pack_bound())", text)
        self.ann.unpack.add("glGetnTexImage.pixels")  # an output read through unpack: refused
        with self.assertRaises(classify.Unclassified):
            self.plan("glGetnTexImage", "pixels")

    def test_annotation_overrides_the_rules(self):
        self.ann.params["glMystery.values"] = ("array", ["4"])
        self.assertEqual(self.plan("glMystery", "values").args, ["4"])

    def test_apis(self):
        self.assertEqual(self.reg.commands["glClear"].apis, {"gl", "glcore"})
        self.assertEqual(self.reg.commands["glMystery"].apis, set())

    def test_core_enum_name_preferred(self):
        values = dict((v, n) for n, v in reversed(emit_c.enum_values(self.reg, "GLenum")))
        self.assertEqual(values[0x8D40], "GL_FRAMEBUFFER")

    def test_wrapper_text(self):
        c = self.reg.commands["glGenBuffers"]
        plans = ([classify.param_plan(c, p, self.ann) for p in c.params], None)
        text = "\n".join(emit_c.wrapper(c, plans, 7, set(), None, None, None))
        self.assertIn('const gt_func_sig gtfn_glGenBuffers = {7, "glGenBuffers", 2', text)
        # the output array is written after the real call, in the leave event
        self.assertLess(text.index("gt_real(n, buffers);\n    gltrace_begin_leave"),
                        text.index("atw_begin_arg(gt_w, 1);"))

    def test_late_functions(self):
        names = ["glClear", "glGenBuffers"]
        plans = {n: ([classify.param_plan(self.reg.commands[n], p, self.ann)
                      for p in self.reg.commands[n].params], None) for n in names}
        roles = gen_roles.Roles()
        # scalar arguments only: after the real call; a pointer argument: before it
        self.assertEqual(emit_c.late_functions(self.reg, self.ann, plans, roles), {"glClear"})
        # a draw is recorded before it runs, so a driver crash inside it is in the trace
        roles.entries["glClear"] = [{"draw"}, -1, -1]
        self.assertEqual(emit_c.late_functions(self.reg, self.ann, plans, roles), set())
        c = self.reg.commands["glClear"]
        text = "\n".join(emit_c.wrapper(c, plans["glClear"], 7, set(), None, None, None, late=True))
        self.assertLess(
            text.index("if (gt_late && gt_real && !gltrace_faking())\n        gt_real(mask);"),
            text.index("gltrace_begin_enter(gt_w, &gtfn_glClear, gt_late);"))
        self.assertLess(
            text.index("gltrace_end_enter(gt_w);"),
            text.index("if (!gt_late && gt_real && !gltrace_faking())\n        gt_real(mask);"))

    def test_fake_mode_and_track_hooks(self):
        # the snapshot's fake calls (gltrace_runtime.h): written, never made; a result
        # comes from gltrace_t_fake_ret; `track` hooks follow the call in both paths
        c = self.reg.commands["glGenBuffers"]
        plans = ([classify.param_plan(c, p, self.ann) for p in c.params], None)
        text = "\n".join(emit_c.wrapper(c, plans, 7, set(), None, None, None,
                                        track_hooks=["gtt_follow"]))
        recorded = text[text.index("gltrace_begin_enter"):]
        self.assertIn("if (gt_real && !gltrace_faking())\n        gt_real(n, buffers);", recorded)
        self.assertEqual(text.count("if (gltrace_tracking_now())\n        gtt_follow(n, buffers);"), 2)
        self.assertLess(text.index("gtt_follow"), text.index("gltrace_begin_enter"))
        c = self.reg.commands["glCreateProgram"]
        text = "\n".join(emit_c.wrapper(c, ([], classify.return_plan(c, self.ann)), 8, set(),
                                        None, None, None))
        self.assertIn("if (gltrace_faking())\n        gt_ret = (GLuint)(uintptr_t)gltrace_t_fake_ret;",
                      text)

    def test_adjust_rewrites_the_parameter_before_anything(self):
        c = self.reg.commands["glClear"]
        plans = ([classify.param_plan(c, p, self.ann) for p in c.params], None)
        text = "\n".join(emit_c.wrapper(c, plans, 7, set(), None, None, None,
                                        adjust=[("mask", "gtw_strip")]))
        # the driver (untraced path too) and the trace both get the adjusted value
        self.assertLess(text.index("mask = gtw_strip(mask);"), text.index("gltrace_writer()"))
        with self.assertRaises(SystemExit):
            emit_c.wrapper(c, plans, 7, set(), None, None, None, adjust=[("nomask", "f")])

    def test_bitmask_flags_of_several_bits_first(self):
        c = self.reg.commands["glClear"]
        plans = {"glClear": ([classify.param_plan(c, p, self.ann) for p in c.params], None)}
        self.assertEqual(emit_c.bitmask_groups(self.reg, plans)["ClearBufferMask"],
                         [("GL_DEPTH_BUFFER_BIT", 0x100), ("GL_COLOR_BUFFER_BIT", 0x4000)])
        # a `flag` value of several bits goes ahead of the single bits, as apitrace's "all"
        groups = emit_c.bitmask_groups(self.reg, plans, {"GL_COLOR_BUFFER_BIT": 0x4100})
        self.assertEqual(groups["ClearBufferMask"][0], ("GL_COLOR_BUFFER_BIT", 0x4100))


class AnnotationFile(unittest.TestCase):
    def test_adjust_and_flag_lines(self):
        tmp = tempfile.mkdtemp()
        ann = annotations.load(write(tmp, "a.txt", "adjust glMap.access strip\n"
                                                   "flag GL_ALL_ATTRIB_BITS 0x000fffff\n"))
        self.assertEqual(ann.adjusts["glMap"], [("access", "strip")])
        self.assertEqual(ann.flag_values["GL_ALL_ATTRIB_BITS"], 0xFFFFF)

    def test_duplicate_param_is_an_error(self):
        tmp = tempfile.mkdtemp()
        path = write(tmp, "a.txt", "param glFoo.x address a handle\nparam glFoo.x string\n")
        with self.assertRaises(SystemExit) as e:
            annotations.load(path)
        self.assertIn("a.txt:2", str(e.exception))

    def test_unknown_line_is_an_error(self):
        tmp = tempfile.mkdtemp()
        with self.assertRaises(SystemExit):
            annotations.load(write(tmp, "a.txt", "frobnicate glFoo\n"))

    def test_hooks_keep_file_order(self):
        tmp = tempfile.mkdtemp()
        ann = annotations.load(write(tmp, "a.txt", "prehook glDraw a\nprehook glDraw b\n"))
        self.assertEqual(ann.prehooks["glDraw"], ["a", "b"])


class RealRegistry(unittest.TestCase):
    """The project's real inputs: every command classified."""

    def test_every_command_is_classified(self):
        import gen_wrappers
        reg, ann = gen_wrappers.load(REGISTRY_DIR)
        plans = gen_wrappers.plan_all(reg, ann)
        self.assertEqual(len(plans), len(reg.commands))


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        REGISTRY_DIR = sys.argv.pop(1)
    unittest.main(verbosity=1)
