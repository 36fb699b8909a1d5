#!/usr/bin/env python3
"""Check a frame range's state snapshot against the full recording (snapshot_state.sh).

usage: snapshot_state_check.py FULL.json RANGE.json RANGE_DUMP.txt

FULL.json: our `glretrace -D` at the first call of the range's first frame in the full
recording; RANGE.json: the same at the first call after the snapshot in the range
trace; RANGE_DUMP.txt: `gltrace dump` of the range trace. Two checks:
  - the dumps are equal (state_compare.py's comparison), but where a value depends on
    objects the snapshot did not re-create (no glGen*/glCreate* of their kind among its
    calls: that part of the snapshot is not written yet), and the window's pixels;
  - the bindings the snapshot writes (its last glBindBuffer per target, glUseProgram,
    glBindTexture per unit and target, ...) are the full recording's, whether or not the
    objects exist in the replay.
Prints each difference and a summary; exit 0 when there is none, 1 otherwise, 2 on
unreadable input.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from state_compare import walk  # noqa: E402

# kind of object: (functions that create one, differences (path: what) that depend on them)
KINDS = {
    "buffer": (r"glGenBuffers|glCreateBuffers",
               r"^buffers|^parameters/GL_\w*BUFFER(_BINDING:|/)|"
               r"^parameters/GL_VERTEX_ATTRIB_ARRAY\d+/GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING"),
    "texture": (r"glGenTextures|glCreateTextures",
                # a unit's bound texture is an object named as the target's enable
                r"^textures|^parameters/GL_TEXTURE\d+/GL_TEXTURE_(BINDING_\w+:|BUFFER|\w+/|\w+: only)"),
    "sampler": (r"glGenSamplers|glCreateSamplers", r"^parameters/GL_TEXTURE\d+/GL_SAMPLER"),
    "program": (r"glCreateProgram|glCreateShaderProgramv",
                r"^shaders|^uniforms|^program|^parameters/GL_CURRENT_PROGRAM:"),
    # vertex arrays, the default one's fixed-function client arrays too
    "vertex array": (r"glGenVertexArrays|glCreateVertexArrays|glVertexAttribPointer|"
                     r"gl(Vertex|Normal|Color|TexCoord)Pointer",
                     r"^parameters/GL_VERTEX_ARRAY_BINDING:|^parameters/GL_VERTEX_ATTRIB_ARRAY\d+/|"
                     r"^parameters/GL_(VERTEX|NORMAL|COLOR|INDEX|TEXTURE_COORD|EDGE_FLAG|FOG_COORD|"
                     r"SECONDARY_COLOR)_ARRAY(_SIZE|_TYPE|_STRIDE|_POINTER|_BUFFER_BINDING)?:"),
    "transform feedback": (r"glGenTransformFeedbacks|glCreateTransformFeedbacks",
                           r"^parameters/GL_TRANSFORM_FEEDBACK_BINDING:"),
    "framebuffer": (r"glGenFramebuffers|glCreateFramebuffers",
                    r"^parameters/GL_(DRAW|READ)_FRAMEBUFFER(_BINDING:|/)"),
    "renderbuffer": (r"glGenRenderbuffers|glCreateRenderbuffers",
                     r"^parameters/GL_RENDERBUFFER_BINDING:"),
}
# the window's contents at the frame's start: no state of the snapshot's
WINDOW = r"^framebuffer/"

CALL = re.compile(r"^\d+ (\w+)\((.*)\)(?: = \S+)? // fake$")


def snapshot_calls(dump_path):
    """[(function, {argument: value text})] of the fake calls before the end marker."""
    calls = []
    with open(dump_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = CALL.match(line.rstrip("\n"))
            if not m:
                continue
            if m.group(1) == "glStringMarkerGREMEDY":
                break
            args = dict(re.findall(r"(\w+) = ([^,]+)", m.group(2)))
            calls.append((m.group(1), args))
    return calls


def written_bindings(calls):
    """{dump path: value} of the bindings the snapshot writes, the last of each."""
    out, unit = {}, "GL_TEXTURE0"
    for fn, a in calls:
        if fn == "glActiveTexture":
            unit = a["texture"]
            out["parameters/GL_ACTIVE_TEXTURE"] = unit
        elif fn == "glBindBuffer":
            out[f"parameters/{a['target']}_BINDING"] = int(a["buffer"])
        elif fn == "glUseProgram":
            out["parameters/GL_CURRENT_PROGRAM"] = int(a["program"])
        elif fn == "glBindTexture":
            out[f"parameters/{unit}/{a['target'].replace('GL_TEXTURE_', 'GL_TEXTURE_BINDING_')}"] = \
                int(a["texture"])
        elif fn == "glBindSampler":
            out[f"parameters/GL_TEXTURE{a['unit']}/GL_SAMPLER_BINDING"] = int(a["sampler"])
        elif fn == "glBindVertexArray":
            out["parameters/GL_VERTEX_ARRAY_BINDING"] = int(a["array"])
        elif fn == "glBindTransformFeedback":
            out["parameters/GL_TRANSFORM_FEEDBACK_BINDING"] = int(a["id"])
        elif fn == "glBindRenderbuffer":
            out["parameters/GL_RENDERBUFFER_BINDING"] = int(a["renderbuffer"])
        elif fn == "glBindFramebuffer":
            t = a["target"]
            for side in ("DRAW", "READ"):
                if t in ("GL_FRAMEBUFFER", f"GL_{side}_FRAMEBUFFER"):
                    out[f"parameters/GL_{side}_FRAMEBUFFER_BINDING"] = int(a["framebuffer"])
    return out


def lookup(state, path):
    v = state
    for part in path.split("/"):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def check_bindings(full, calls, out):
    """Every binding of the full dump that the snapshot must write, written as it was."""
    written = written_bindings(calls)
    params = full.get("parameters", {})
    want = {}
    for k in ("GL_ACTIVE_TEXTURE", "GL_CURRENT_PROGRAM", "GL_VERTEX_ARRAY_BINDING",
              "GL_TRANSFORM_FEEDBACK_BINDING", "GL_RENDERBUFFER_BINDING",
              "GL_DRAW_FRAMEBUFFER_BINDING", "GL_READ_FRAMEBUFFER_BINDING", "GL_ARRAY_BUFFER_BINDING",
              "GL_PIXEL_PACK_BUFFER_BINDING", "GL_PIXEL_UNPACK_BUFFER_BINDING",
              "GL_UNIFORM_BUFFER_BINDING", "GL_DRAW_INDIRECT_BUFFER_BINDING"):
        if k in params:
            want[f"parameters/{k}"] = params[k]
    if params.get("GL_VERTEX_ARRAY_BINDING", 0) == 0 and "GL_ELEMENT_ARRAY_BUFFER_BINDING" in params:
        want["parameters/GL_ELEMENT_ARRAY_BUFFER_BINDING"] = params["GL_ELEMENT_ARRAY_BUFFER_BINDING"]
    for unit, v in params.items():
        if re.fullmatch(r"GL_TEXTURE\d+", unit) and isinstance(v, dict):
            for k, n in v.items():
                if re.fullmatch(r"GL_TEXTURE_BINDING_\w+|GL_SAMPLER_BINDING", k) and n:
                    want[f"parameters/{unit}/{k}"] = n
    for path, v in sorted(want.items()):
        got = written.get(path, 0 if isinstance(v, int) else None)
        if got != v:
            out.append(f"{path}: the snapshot writes {got!r}, the program had {v!r}")
    return len(want)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    try:
        with open(argv[1], encoding="utf-8") as f:
            full = json.load(f)
        with open(argv[2], encoding="utf-8") as f:
            rng = json.load(f)
        calls = snapshot_calls(argv[3])
    except (OSError, ValueError) as e:
        print(f"snapshot_state_check: {e}")
        return 2
    fns = " ".join(fn for fn, _ in calls)
    missing = {k: re.compile(p) for k, (made, p) in KINDS.items() if not re.search(made, fns)}
    diffs, left = [], {}
    walk("", full, rng, diffs)
    out = []
    for d in diffs:
        kinds = [k for k, p in missing.items() if p.search(d)]
        if kinds or re.search(WINDOW, d):
            for k in kinds or ["window contents"]:
                left[k] = left.get(k, 0) + 1
        else:
            out.append(d)
    nbind = check_bindings(full, calls, out)
    for line in out[:40]:
        print(line)
    print(f"{len(diffs) - len(out)} differences left to objects the snapshot does not make "
          f"({', '.join(f'{k}: {n}' for k, n in sorted(left.items())) or 'none'}); "
          f"{nbind} bindings checked; {len(calls)} snapshot calls")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
