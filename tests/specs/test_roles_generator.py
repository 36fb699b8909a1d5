#!/usr/bin/env python3
"""Unit tests of the function-roles generator (specs/gen_roles.py): roles resolved from
specs/roles.txt against the registry (argument names to indices, patterns to names),
families by prefix, argument-name lists, and the mistakes it must refuse (a pattern
matching nothing, an unknown argument, a role twice, two roles with arguments, an
unknown role).

Run: python3 tests/specs/test_roles_generator.py [REGISTRY_DIR]   (standard library only)
"""
import os
import unittest

import registry_fixture as fx
import gen_roles  # noqa: E402
from registry_fixture import SPECS, reg


def roles_of(text):
    return fx.read_text(gen_roles.read_roles, text)


class RolesGenerator(unittest.TestCase):
    def test_the_real_file(self):
        roles = gen_roles.read_roles(os.path.join(SPECS, "roles.txt"), reg())
        e = roles.entries
        self.assertEqual(e["glXMakeCurrent"][1:], [2, 1])  # ctx, drawable
        self.assertEqual(e["eglMakeCurrent"][1], 3)
        self.assertEqual(e["eglSwapBuffers"], [{"swap"}, 1, -1])
        self.assertEqual(e["glBegin"][0], {"begin", "gpu"})
        self.assertEqual(e["glEnd"][0], {"end", "draw"})
        self.assertEqual(e["glNewList"], [{"newlist"}, -1, -1])
        self.assertEqual(e["glUseProgramObjectARB"], [{"program"}, 0, -1])
        self.assertEqual(e["glGetError"][0], {"geterror"})
        self.assertIn("unlisted", e["glStringMarkerGREMEDY"][0])
        self.assertIn("glVertex3fv", e)
        self.assertNotIn("glVertexAttrib3fv", e)
        self.assertEqual(roles.prefixes["glX"], "glx")
        self.assertEqual(roles.prefixes["egl"], "egl")
        self.assertEqual(roles.prefixes["gl"], "gl")
        self.assertIn("instancecount", roles.args["draw"])
        self.assertEqual(roles.args["marker-length"], ["length", "len"])

    def test_patterns_and_mistakes(self):
        roles = roles_of("begin glBegin\nvertex re:^glVertex2[fd]$ glArrayElement\n")
        self.assertEqual(sorted(roles.entries), ["glArrayElement", "glBegin", "glVertex2d",
                                                 "glVertex2f"])
        for text, why in [
            ("vertex re:^glNoSuchThing$\n", "matches no command"),
            ("vertex glNoSuchThing\n", "not in the registry"),
            ("current context draw glXMakeCurrent\n", "has no argument"),
            ("begin glBegin\nbegin glBegin\n", "begin twice"),
            ("swap drawable glXSwapBuffers\nprogram dpy glXSwapBuffers\n", "with arguments already"),
            ("swap glXSwapBuffers\n", "takes 1 argument"),
            ("family gpu gl\n", "family"),
            ("frobnicate glBegin\n", "unknown role"),
        ]:
            with self.assertRaises(SystemExit) as cm:
                roles_of(text)
            self.assertIn(why, str(cm.exception), text)

    def test_emit(self):
        roles = roles_of("end glEnd\nbegin glBegin\nfamily glx glX\nfamily gl gl\nargs draw mode\n")
        text = fx.emitted(gen_roles.emit, roles, "roles.txt")
        self.assertLess(text.index('"glBegin"'), text.index('"glEnd"'))  # sorted
        self.assertLess(text.index('{"glX", 3'), text.index('{"gl", 2'))  # longest first
        self.assertIn("const unsigned gt_roles_num_entries = 2;", text)
        self.assertIn('gt_roles_draw_args[] = {"mode", NULL};', text)


if __name__ == "__main__":
    fx.main()
