#!/usr/bin/env python3
"""Unit tests of the replay generator (specs/gen_retrace.py): which commands are
replayed or skipped and why, how values are demarshalled, names remapped, outputs
created, and that the emitted C compiles (-Wall -Wextra -Werror against libepoxy).

Run: python3 tests/specs/test_retrace_generator.py [REGISTRY_DIR]   (standard library only)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SPECS = os.path.join(ROOT, "specs")
sys.path.insert(0, SPECS)

import annotations  # noqa: E402
import gen_retrace  # noqa: E402
import providers  # noqa: E402
import registry  # noqa: E402

REGISTRY_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "specs", "registry")
EPOXY_HEADER = gen_retrace.EPOXY_HEADER

MINI_XML = """<registry>
  <commands namespace="GL">
    <command><proto>void <name>glClear</name></proto>
      <param group="ClearBufferMask"><ptype>GLbitfield</ptype> <name>mask</name></param></command>
    <command><proto>void <name>glClearColor</name></proto>
      <param><ptype>GLfloat</ptype> <name>red</name></param>
      <param><ptype>GLfloat</ptype> <name>green</name></param></command>
    <command><proto>void <name>glGetFloatv</name></proto>
      <param><ptype>GLenum</ptype> <name>pname</name></param>
      <param len="COMPSIZE(pname)"><ptype>GLfloat</ptype> *<name>data</name></param></command>
    <command><proto>void <name>glGetThing</name></proto>
      <param><ptype>GLenum</ptype> <name>pname</name></param></command>
    <command><proto>void <name>glGenBuffers</name></proto>
      <param><ptype>GLsizei</ptype> <name>n</name></param>
      <param class="buffer" len="n"><ptype>GLuint</ptype> *<name>buffers</name></param></command>
    <command><proto>void <name>glDeleteBuffers</name></proto>
      <param><ptype>GLsizei</ptype> <name>n</name></param>
      <param class="buffer" len="n">const <ptype>GLuint</ptype> *<name>buffers</name></param></command>
    <command><proto>void <name>glBindBuffer</name></proto>
      <param><ptype>GLenum</ptype> <name>target</name></param>
      <param class="buffer"><ptype>GLuint</ptype> <name>buffer</name></param></command>
    <command><proto>void <name>glBufferData</name></proto>
      <param><ptype>GLenum</ptype> <name>target</name></param>
      <param><ptype>GLsizeiptr</ptype> <name>size</name></param>
      <param len="size">const void *<name>data</name></param>
      <param><ptype>GLenum</ptype> <name>usage</name></param></command>
    <command><proto class="program"><ptype>GLuint</ptype> <name>glCreateProgram</name></proto></command>
    <command><proto><ptype>GLint</ptype> <name>glGetUniformLocation</name></proto>
      <param class="program"><ptype>GLuint</ptype> <name>program</name></param>
      <param>const <ptype>GLchar</ptype> *<name>name</name></param></command>
    <command><proto>void <name>glUniform4fv</name></proto>
      <param><ptype>GLint</ptype> <name>location</name></param>
      <param><ptype>GLsizei</ptype> <name>count</name></param>
      <param len="count*4">const <ptype>GLfloat</ptype> *<name>value</name></param></command>
    <command><proto>void <name>glVertexPointer</name></proto>
      <param><ptype>GLint</ptype> <name>size</name></param>
      <param len="COMPSIZE(size,type,stride)">const void *<name>pointer</name></param></command>
    <command><proto>void *<name>glMapBufferRange</name></proto>
      <param><ptype>GLenum</ptype> <name>target</name></param>
      <param><ptype>GLintptr</ptype> <name>offset</name></param>
      <param><ptype>GLsizeiptr</ptype> <name>length</name></param>
      <param><ptype>GLbitfield</ptype> <name>access</name></param></command>
    <command><proto class="display list"><ptype>GLuint</ptype> <name>glGenLists</name></proto>
      <param><ptype>GLsizei</ptype> <name>range</name></param></command>
    <command><proto>void <name>glReadSomething</name></proto>
      <param>void *<name>pixels</name></param></command>
    <command><proto>void <name>glNotInEpoxy</name></proto></command>
  </commands>
</registry>
"""

MINI_ANNOTATIONS = """
type GLenum enum:GLenum
type GLbitfield bitmask
type GLint sint
type GLuint uint
type GLsizei sint
type GLsizeiptr sint
type GLintptr sint
type GLfloat float
compsize COMPSIZE(pname) helper gtsz_pname
compsize COMPSIZE(size,type,stride) kind pointer
param glReadSomething.pixels pointer
retrace glGetUniformLocation replay
retrace glGetUniformLocation return location
retrace glVertexPointer.pointer keep
retrace glMapBufferRange hook retrace_hook_map_buffer_range
retrace re:gl(Program)?Uniform\\w*.location location
retrace re:gl(Get|Is|Are)[A-Z]\\w* query
retrace re:glDelete\\w* deletes
retrace glGenLists.range count
"""

MINI_CALLFLAGS = """
re:^glGetFloat NO_SIDE_EFFECTS
glClear RENDER
"""


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    return path


class Mini(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        reg = registry.load([write(cls.tmp, "gl.xml", MINI_XML)])
        ann = annotations.load(write(cls.tmp, "annotations.txt", MINI_ANNOTATIONS))
        annotations.expand(ann, reg.commands, ("retrace",))
        flags = gen_retrace.load_callflags(write(cls.tmp, "callflags.txt", MINI_CALLFLAGS))
        epoxy = {n: gen_retrace.Epoxy(c.ret, [p.ctype for p in c.params])
                 for n, c in reg.commands.items() if n != "glNotInEpoxy"}
        cls.shapes = {}
        cls.replayers, cls.skipped = gen_retrace.plan_all(reg, ann, epoxy, flags, cls.shapes)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def body(self, name):
        self.assertIn(name, self.replayers, self.skipped.get(name))
        return "\n".join(self.replayers[name])

    def test_scalars(self):
        self.assertIn("glClear((GLbitfield)retrace_uint(&call->args[0]));", self.body("glClear"))
        self.assertIn("(GLfloat)retrace_float(&call->args[1])", self.body("glClearColor"))

    def test_side_effect_free_skipped_with_reason(self):
        self.assertIn("no side effects", self.skipped["glGetFloatv"])
        self.assertIn("query", self.skipped["glGetThing"])
        self.assertIn("libepoxy", self.skipped["glNotInEpoxy"])
        self.assertIn("pointer", self.skipped["glReadSomething"])

    def test_gen_creates_then_maps(self):
        b = self.body("glGenBuffers")
        self.assertIn("retrace_scratch(", b)
        self.assertIn('retrace_map_set_names("buffer", &call->args[1], gt_out1', b)
        self.assertLess(b.index("glGenBuffers("), b.index("retrace_map_set_names"))

    def test_names_remapped_and_deleted(self):
        self.assertIn('retrace_map_get("buffer", retrace_uint(&call->args[1]))', self.body("glBindBuffer"))
        b = self.body("glDeleteBuffers")
        self.assertIn('retrace_map_names("buffer", &call->args[1], sizeof(GLuint))', b)
        self.assertIn('retrace_unmap_names("buffer", &call->args[1]);', b)

    def test_blob_and_kept_pointer(self):
        self.assertIn("retrace_pointer(&call->args[2], 'u', 1)", self.body("glBufferData"))
        self.assertIn("retrace_pointer_keep(&call->args[1])", self.body("glVertexPointer"))

    def test_returned_names_and_locations(self):
        self.assertIn('retrace_map_set("program", retrace_uint(call->ret), (uint64_t)gt_ret)',
                      self.body("glCreateProgram"))
        self.assertIn("retrace_location_set(", self.body("glGetUniformLocation"))
        self.assertIn("retrace_location_current(retrace_sint(&call->args[0]))",
                      self.body("glUniform4fv"))
        self.assertIn('retrace_map_range("display list", call->ret', self.body("glGenLists"))

    def test_hook_gets_the_mapped_pointer(self):
        self.assertIn("retrace_hook_map_buffer_range(call, (void *)gt_ret);", self.body("glMapBufferRange"))

    def test_value_kinds_of_each_parameter(self):
        self.assertEqual(self.shapes["glUniform4fv"], ["SCALAR", "SCALAR", "DATA"])
        self.assertEqual(self.shapes["glGenBuffers"], ["SCALAR", "ANY"])  # an output
        self.assertEqual(self.shapes["glVertexPointer"], ["SCALAR", "DATA_OR_OFFSET"])
        self.assertEqual(self.shapes["glCreateProgram"], [])
        self.assertEqual(set(self.shapes), set(self.replayers))

    def test_replayers_leave_the_argument_count_to_the_check(self):
        # retrace_call_fits has checked the count and each value's kind before
        self.assertNotIn("num_args", self.body("glBufferData"))

    def test_shapes_are_shared_in_the_table(self):
        lines, exprs = gen_retrace.shape_tables({"glA": ["SCALAR", "DATA"], "glB": ["SCALAR", "DATA"],
                                                 "glC": []})
        self.assertEqual(exprs["glA"], exprs["glB"])
        self.assertIn("static const uint32_t takes_0[] = {RETRACE_TAKES_SCALAR, RETRACE_TAKES_DATA};",
                      lines)
        self.assertIn("static const retrace_shape shape_0 = {2, takes_0, false};", lines)
        self.assertIn("static const retrace_shape shape_1 = {0, NULL, false};", lines)
        lines, _ = gen_retrace.shape_tables({"glShaderSource": ["SCALAR", "SCALAR", "STRINGS", "DATA"]})
        self.assertIn("static const retrace_shape shape_0 = {4, takes_0, true};", lines)

    def test_pattern_that_matches_nothing_stops_the_generator(self):
        ann = annotations.load(write(self.tmp, "stale.txt", "retrace re:glNoSuch\\w* query\n"))
        with self.assertRaises(SystemExit):
            annotations.expand(ann, registry.load([os.path.join(self.tmp, "gl.xml")]).commands,
                               ("retrace",))

    def test_wrapper_loader_accepts_retrace_lines(self):
        ann = annotations.load(os.path.join(self.tmp, "annotations.txt"))
        self.assertEqual(ann.retrace["glVertexPointer.pointer"], [["keep"]])
        self.assertNotIn("glVertexPointer.pointer", ann.params)


@unittest.skipUnless(os.path.exists(os.path.join(REGISTRY_DIR, "gl.xml")) and os.path.exists(EPOXY_HEADER),
                     "needs gl.xml and libepoxy's headers")
class Real(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        gl_xml = os.path.join(REGISTRY_DIR, "gl.xml")
        cls.reg = registry.load([gl_xml])
        ann = annotations.load(os.path.join(SPECS, "annotations.txt"))
        annotations.expand(ann, cls.reg.commands, ("retrace",))
        flags = gen_retrace.load_callflags(os.path.join(SPECS, "callflags.txt"))
        cls.shapes = {}
        cls.replayers, cls.skipped = gen_retrace.plan_all(
            cls.reg, ann, gen_retrace.load_epoxy(EPOXY_HEADER), flags, cls.shapes)
        cls.enum_groups = gen_retrace.enum_groups_checked(ann, cls.reg)
        cls.providers = providers.load(gl_xml)

    def test_every_gl_command_is_replayed_or_skipped_with_a_reason(self):
        gl = {n for n, c in self.reg.commands.items() if c.registry == "gl"}
        self.assertEqual(gl, set(self.replayers) | set(self.skipped))
        self.assertFalse(set(self.replayers) & set(self.skipped))
        self.assertTrue(all(self.skipped.values()))

    def test_the_corpus_functions_are_replayed(self):
        for n in ("glClear", "glDrawArrays", "glDrawElements", "glGenTextures", "glTexImage2D",
                  "glUniformMatrix4fv", "glBufferData", "glBufferSubData", "glMapBufferRange",
                  "glUnmapBuffer", "glVertexAttribPointer", "glShaderSource", "glCreateShader",
                  "glGenLists", "glCallList", "glBindFramebufferEXT", "glGetUniformLocation",
                  "glFenceSync", "glDeleteSync"):
            self.assertIn(n, self.replayers, self.skipped.get(n))

    def test_sync_objects_are_mapped(self):
        self.assertIn('retrace_map_set("sync"', "\n".join(self.replayers["glFenceSync"]))
        self.assertIn('retrace_map_get("sync"', "\n".join(self.replayers["glClientWaitSync"]))

    def test_shader_object_handles_are_mapped(self):
        self.assertIn('retrace_map_set("handleARB"', "\n".join(self.replayers["glCreateShaderObjectARB"]))
        self.assertIn('retrace_map_get("handleARB"', "\n".join(self.replayers["glAttachObjectARB"]))
        self.assertIn('retrace_location_set(retrace_map_get("handleARB"',
                      "\n".join(self.replayers["glGetUniformLocationARB"]))

    def test_queries_are_skipped(self):
        for n in ("glGetIntegerv", "glGetShaderiv", "glGetError", "glIsTexture"):
            self.assertIn(n, self.skipped)

    @unittest.skipUnless(shutil.which("cc"), "needs a C compiler")
    def test_emitted_c_compiles_without_warnings(self):
        with tempfile.TemporaryDirectory() as out:
            gen_retrace.write_all(out, self.replayers, self.skipped, self.providers, self.enum_groups,
                                  shapes=self.shapes)
            files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".gen.c"))
            self.assertEqual(len(files), gen_retrace.GL_PARTS + 1)
            r = subprocess.run(["cc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                                "-I", os.path.join(ROOT, "retrace"), "-I", os.path.join(ROOT, "common", "model"), "-I", os.path.join(ROOT, "common", "util"),
                                "-I", os.path.join(ROOT, "common", "glfacts"),
                                "-I", os.path.join(ROOT, "formats", "apitrace")]
                               + files, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr[:4000])
            with open(os.path.join(out, "retrace_gl_table.gen.c")) as f:
                table = f.read()
            names = [line.split('"')[1] for line in table.splitlines() if line.startswith('    {"')]
            self.assertEqual(names, sorted(names))  # bsearch needs strcmp order
            self.assertIn("memcpy", names)
            self.assertIn("glGetIntegerv", names)  # known, replayed as nothing
            self.assertRegex(table, r'\{"glMakeTextureHandleResidentARB", '
                             r'retrace_glMakeTextureHandleResidentARB, "GL_ARB_bindless_texture", &shape_\d+\}')
            self.assertIn('{"memcpy", retrace_memcpy, NULL, NULL}', table)
            self.assertIn('{"glDebugMessageCallback", retrace_gl_ignore, NULL, NULL}', table)

    def test_value_kinds_of_the_corpus_functions(self):
        # the damaged call: an enum where glUniformMatrix4fv's matrices belong
        self.assertEqual(self.shapes["glUniformMatrix4fv"], ["SCALAR", "SCALAR", "SCALAR", "DATA"])
        self.assertEqual(self.shapes["glShaderSource"], ["SCALAR", "SCALAR", "STRINGS", "DATA"])
        self.assertEqual(self.shapes["glDrawElements"][3], "DATA_OR_OFFSET")
        self.assertEqual(self.shapes["glTexImage2D"][8], "DATA_OR_OFFSET")
        self.assertEqual(self.shapes["glDrawElementsInstancedBaseInstance"][3], "DATA_OR_OFFSET")
        self.assertEqual(len(self.shapes["glReadPixels"]), 7)  # an override: checked too
        self.assertEqual(set(self.shapes), set(self.replayers))

    def test_shapes_take_what_apitrace_writes(self):
        # specs/apitrace_kinds.txt: how apitrace's tracer writes each pointer value; a
        # call of its traces must never be refused for a kind it writes there
        path = os.path.join(SPECS, "apitrace_kinds.txt")
        if not os.path.exists(path):
            self.skipTest("no specs/apitrace_kinds.txt")
        writes = {"address": {"POINTER"}, "blob": {"BLOB"}, "array": {"ARRAY"},
                  "string": {"STRING"}, "attribs": {"ARRAY"}, "poly": {"BLOB", "POINTER"}}
        data = {"BLOB", "ARRAY", "STRING"}
        takes = {"SCALAR": {"POINTER"}, "DATA": data, "STRINGS": data,
                 "DATA_OR_OFFSET": data | {"POINTER"}, "ANY": data | {"POINTER"}}
        # refused on purpose: the GL would read the address as the replay's memory
        refused = {"glIglooInterfaceSGIX.params", "glPixelDataRangeNV.pointer"}
        checked, misfits = 0, []
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
                    continue
                key, kind = line.split()[:2]
                name, param = key.split(".", 1)
                if name not in self.shapes:
                    continue
                names = [p.name for p in self.reg.commands[name].params]
                if param not in names:
                    continue
                checked += 1
                if not writes[kind] <= takes[self.shapes[name][names.index(param)]] and key not in refused:
                    misfits.append(f"{key}: apitrace writes {kind}, the shape takes "
                                   f"{self.shapes[name][names.index(param)]}")
        self.assertGreater(checked, 1000)
        self.assertEqual(misfits, [])

    def test_debug_callbacks_are_ignored_silently(self):
        # as apitrace's glretrace (sideeffects=False): known, replayed as nothing
        for n in ("glDebugMessageCallback", "glDebugMessageCallbackARB", "glDebugMessageCallbackKHR"):
            self.assertTrue(self.skipped[n].startswith(gen_retrace.IGNORED), self.skipped[n])

    def test_providers_merge_alias_groups(self):
        # libepoxy resolves glBindBufferARB through glBindBuffer on GL 1.5 and ES
        self.assertEqual(self.providers["glBindBufferARB"],
                         ["ES1.0", "ES2.0", "GL1.5", "GL_ARB_vertex_buffer_object"])
        self.assertEqual(self.providers["glAlphaFuncx"], ["ES1.0"])

    def test_argument_checks(self):
        body = "\n".join(self.replayers["glBufferData"])
        self.assertIn("retrace_check_size(call, 2, (int64_t)(retrace_sint(&call->args[1])), 1)", body)
        self.assertIn("retrace_check_enum(call, 3, &retrace_enum_BufferUsageARB)", body)
        body = "\n".join(self.replayers["glDrawElements"])
        self.assertIn("retrace_check_bound(call, 3, GL_ELEMENT_ARRAY_BUFFER_BINDING, false)", body)
        body = "\n".join(self.replayers["glTexImage2D"])
        self.assertIn("gtsz_image_2d(", body)


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        REGISTRY_DIR = sys.argv.pop(1)
    unittest.main()
