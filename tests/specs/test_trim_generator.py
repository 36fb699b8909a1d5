#!/usr/bin/env python3
"""Unit tests of gltrace trim's rule generator (specs/gen_trim.py): state setters resolved
from specs/trim.txt against the registry (argument names to indices, patterns to names),
slot layouts, and the mistakes it must refuse (a pattern matching nothing, an unknown
argument or enum, a slot keyed two ways, a function twice, a role that is not trim's).
The functions' other roles (specs/roles.txt) are tests/specs/test_roles_generator.py's.

Run: python3 tests/specs/test_trim_generator.py [REGISTRY_DIR]   (standard library only)
"""
import os
import unittest

import registry_fixture as fx
import gen_trim  # noqa: E402
from registry_fixture import SPECS, reg


def rules_of(text):
    return fx.read_text(gen_trim.read_rules, text)


class TrimGenerator(unittest.TestCase):
    def test_the_real_file(self):
        rules = gen_trim.read_rules(os.path.join(SPECS, "trim.txt"), reg())
        e = rules.entries
        self.assertEqual(e["glUniform4fv"]["key_arg"], 0)
        self.assertEqual(e["glUniform4fv"]["key_value"], 1)  # @program
        ptr = e["glVertexAttribPointer"]
        self.assertEqual(ptr["read_slot"], rules.slot_id("bind"))
        self.assertEqual(ptr["read_key"], 0x8892)  # GL_ARRAY_BUFFER
        self.assertEqual(ptr["read_value"], 0)      # the array buffer binding is the context's
        self.assertEqual(e["glBindBuffer"]["key_value_if"], 0x8893)  # GL_ELEMENT_ARRAY_BUFFER
        self.assertEqual(e["glUseProgram"]["sets"], 1)
        self.assertEqual(rules.slots[:3], ["program", "vao", "unit"])
        self.assertIn("glUniformMatrix4x3fv", e)
        self.assertNotIn("glUniformBlockBinding", e)

    def test_patterns_and_mistakes(self):
        rules = rules_of("state clearcolor glClearColor\nstate vertex re:^glVertex2[fd]$\n")
        self.assertEqual(sorted(rules.entries), ["glClearColor", "glVertex2d", "glVertex2f"])
        for text, why in [
            ("state vertex re:^glNoSuchThing$\n", "matches no command"),
            ("state current context glXMakeCurrent\n", "has no argument"),
            ("state bind target reads nothere:GL_ARRAY_BUFFER glBindBuffer\n", "not defined above"),
            ("state bind target glBindBuffer\nstate bind glBindBufferARB\n", "keyed differently"),
            ("state a glBegin\nstate b glBegin\n", "sets state already"),
            ("begin glBegin\n", "unknown role"),
            ("state x @vao:GL_NO_SUCH_ENUM target glBindBuffer\n", "unknown enum"),
            ("frobnicate glBegin\n", "unknown role"),
        ]:
            with self.assertRaises(SystemExit) as cm:
                rules_of(text)
            self.assertIn(why, str(cm.exception), text)

    def test_emit(self):
        rules = rules_of("state clearcolor glClearColor\nstate begin glBegin\n")
        text = fx.emitted(gen_trim.emit, rules, "trim.txt")
        self.assertLess(text.index('"glBegin"'), text.index('"glClearColor"'))  # sorted
        self.assertIn("const unsigned trim_rule_count = 2;", text)


if __name__ == "__main__":
    fx.main()
