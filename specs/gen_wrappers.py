#!/usr/bin/env python3
"""Generate the recording wrappers of libgltrace.so from the Khronos registries.

Usage: gen_wrappers.py --out DIR [--registry DIR] [--check]
Reads gl.xml and glx.xml (DIR, default specs/registry: the vendored copy), specs/egl.xml,
specs/annotations.txt, specs/roles.txt (which calls are recorded before they run),
specs/callflags.txt (which end frames) and specs/leaks.txt (with the registry: which make
or delete objects); writes into the output directory:
  wrappers_gl_[0-3].gen.c, wrappers_glx.gen.c, wrappers_egl.gen.c  one wrapper per command
  wrapper_table.gen.c   sorted name -> wrapper table behind gltrace_wrapper()
  signatures.gen.c      enum and bitmask signatures shared by the wrappers
  track_classes.gen.h   the object classes the wrappers report to the tracker
  wrapped.gen.txt       the number of wrapped commands per registry (for the test)
Every command must be classified (specs/classify.py); one that is not stops the
generator with its name. --check classifies without writing.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import annotations  # noqa: E402
import classify  # noqa: E402
import emit_c  # noqa: E402
import gen_roles  # noqa: E402
import registry  # noqa: E402


def load(reg_dir):
    paths = [os.path.join(reg_dir, "gl.xml"), os.path.join(reg_dir, "glx.xml"),
             os.path.join(HERE, "egl.xml")]
    reg = registry.load(paths)
    ann = annotations.load(os.path.join(HERE, "annotations.txt"))
    annotations.expand(ann, reg.commands, ("hook", "prehook"))
    return reg, ann


def plan_all(reg, ann):
    """Plans for every command; exits listing every command it cannot classify."""
    plans, errors = {}, []
    for name in sorted(reg.commands):
        cmd = reg.commands[name]
        if name in ann.skip:
            continue
        try:
            params = [classify.param_plan(cmd, p, ann) for p in cmd.params]
            plans[name] = (params, classify.return_plan(cmd, ann))
        except classify.Unclassified as e:
            errors.append(str(e))
    if errors:
        for e in errors:
            print(f"gen_wrappers: cannot classify {e}", file=sys.stderr)
        sys.exit(f"gen_wrappers: {len(errors)} command(s) unclassified; see specs/annotations.txt")
    return plans


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=False)
    ap.add_argument("--registry", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "registry"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    reg, ann = load(args.registry)
    plans = plan_all(reg, ann)
    counts = {}
    for name in plans:
        stem = reg.commands[name].registry
        counts[stem] = counts.get(stem, 0) + 1
    summary = ", ".join(f"{counts.get(k, 0)} {k.upper()}" for k in ("gl", "glx", "egl"))
    print(f"gen_wrappers: {len(plans)} commands wrapped ({summary})")
    if args.check:
        return
    os.makedirs(args.out, exist_ok=True)
    roles = gen_roles.read_roles(os.path.join(HERE, "roles.txt"), reg)
    emit_c.write_all(args.out, reg, ann, plans, args.registry, roles)
    with open(os.path.join(args.out, "wrapped.gen.txt"), "w") as f:
        for k in ("gl", "glx", "egl"):
            f.write(f"{k} {counts.get(k, 0)}\n")


if __name__ == "__main__":
    main()
