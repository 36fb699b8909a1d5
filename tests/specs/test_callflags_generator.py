#!/usr/bin/env python3
"""The call-flags generator (specs/gen_callflags.py) never lets a rule be dropped: a table
with as many regex rules as common/model/gt_callflags.c has room for
(GT_CALLFLAGS_MAX_RULES) compiles, one more fails to compile and names the limit.

Run: python3 tests/specs/test_callflags_generator.py CC   (standard library only)
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")
GEN = os.path.join(TOP, "specs", "gen_callflags.py")
MODEL = os.path.join(TOP, "common", "model")
UTIL = os.path.join(TOP, "common", "util")
CC = "cc"


def max_rules():
    with open(os.path.join(MODEL, "gt_callflags_table.h"), encoding="utf-8") as f:
        return int(re.search(r"#define GT_CALLFLAGS_MAX_RULES (\d+)", f.read()).group(1))


def build(nrules):
    """(exit status, compiler messages) of the table generated from nrules rules."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "callflags.txt")
        with open(src, "w", encoding="utf-8") as f:
            f.writelines(f"re:^glRule{i}$ RENDER\n" for i in range(nrules))
            f.write("glFinish VERBOSE\n")
        out = os.path.join(d, "callflags.gen.c")
        subprocess.run([sys.executable, GEN, src, out], check=True)
        cc = subprocess.run([CC, "-std=c11", "-fsyntax-only", "-I", MODEL, "-I", UTIL, out],
                            capture_output=True, text=True)
        return cc.returncode, cc.stderr


class Limit(unittest.TestCase):
    def test_as_many_as_room_compiles(self):
        rc, msg = build(max_rules())
        self.assertEqual(rc, 0, msg)

    def test_one_more_fails_to_build(self):
        rc, msg = build(max_rules() + 1)
        self.assertNotEqual(rc, 0)
        self.assertIn("GT_CALLFLAGS_MAX_RULES", msg)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        CC = sys.argv.pop(1)
    unittest.main()
