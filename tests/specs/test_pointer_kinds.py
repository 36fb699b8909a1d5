#!/usr/bin/env python3
"""The pointer values we write as an address where apitrace writes data, or the other
way round: specs/apitrace_diff.txt lists each with why, against apitrace's own specs
(specs/apitrace_kinds.txt). Fails when the generator writes a pointer differently from
the table (a new difference, or one the table says is fixed coming back), or a row
has no reason.

Run: python3 tests/specs/test_pointer_kinds.py [REGISTRY_DIR]   (standard library only)
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = os.path.join(HERE, "..", "..", "specs")
sys.path.insert(0, SPECS)

import classify  # noqa: E402
import gen_wrappers  # noqa: E402

REGISTRY_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "specs", "registry")


def read_pairs(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                key, rest = line.split(None, 1)
                rows[key] = rest.split()
    return rows


def ours():
    """func.param -> how our recorder writes it, for every pointer parameter of a
    generated wrapper (hand-written ones are left out, as in the table)."""
    reg, ann = gen_wrappers.load(REGISTRY_DIR)
    plans = gen_wrappers.plan_all(reg, ann)
    out = {}
    for name, (params, _) in plans.items():
        if name in ann.overrides:
            continue
        for p, plan in zip(reg.commands[name].params, params):
            if p.pointers:
                out[f"{name}.{p.name}"] = classify.written_as(plan)
    return out


def differs(theirs, mine):
    """One writes the address, the other data (poly: apitrace's blob-or-offset)."""
    return theirs not in (None, "poly") and mine is not None and \
        (theirs == "address") != (mine == "address")


class PointerKinds(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ours = ours()
        cls.apitrace = {k: v[0] for k, v in read_pairs(os.path.join(SPECS, "apitrace_kinds.txt")).items()}
        cls.table = read_pairs(os.path.join(SPECS, "apitrace_diff.txt"))

    def test_apitrace_facts_cover_the_common_functions(self):
        common = [k for k in self.ours if k in self.apitrace]
        self.assertGreater(len(common), 1500)

    def test_every_difference_is_in_the_table(self):
        missing = [f"{k}: apitrace {self.apitrace[k]}, ours {m}" for k, m in sorted(self.ours.items())
                   if differs(self.apitrace.get(k), m) and k not in self.table]
        self.assertEqual(missing, [], "differences from apitrace without a row in apitrace_diff.txt")

    def test_rows_hold(self):
        wrong = []
        for key, (theirs, mine, *reason) in self.table.items():
            now = self.ours.get(key)
            if (theirs, mine) != (self.apitrace.get(key), now):
                wrong.append(f"{key}: table {theirs}/{mine}, now {self.apitrace.get(key)}/{now}")
            elif reason[:1] == ["fixed:"] and differs(theirs, now):
                wrong.append(f"{key}: fixed, but differs again")
            elif reason[:1] != ["fixed:"] and not differs(theirs, now):
                wrong.append(f"{key}: no longer differs: mark it fixed")
            if len(reason) < 3:
                wrong.append(f"{key}: no reason")
        self.assertEqual(wrong, [])

    def test_strings_are_strings(self):
        # apitrace's replayer refuses a blob where it takes a string (glProgramStringARB)
        wrong = [f"{k}: ours {m}" for k, m in sorted(self.ours.items())
                 if self.apitrace.get(k) == "string" and m in ("blob", "array")]
        self.assertEqual(wrong, [])

    def test_proxy_targets_read_no_pixels(self):
        reg, ann = gen_wrappers.load(REGISTRY_DIR)
        for name in ("glTexImage2D", "glTextureImage2DEXT", "glCompressedTexImage2D"):
            cmd = reg.commands[name]
            p = next(p for p in cmd.params if p.name in ("pixels", "data", "bits"))
            plan = classify.param_plan(cmd, p, ann)
            self.assertTrue(plan.args[0].startswith("gtsz_unless_proxy(target, "), name)

    def test_dsa_pixels_are_data(self):
        # the defect that started the table: GL 4.5 texture uploads written as addresses
        for key in ("glTextureSubImage2D.pixels", "glNamedBufferData.data",
                    "glCompressedTextureSubImage2D.data", "glClearNamedBufferData.data"):
            self.assertEqual(self.ours[key], "blob", key)


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        REGISTRY_DIR = sys.argv.pop(1)
    unittest.main(verbosity=1)
