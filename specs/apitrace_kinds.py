#!/usr/bin/env python3
"""Writes specs/apitrace_kinds.txt: how apitrace's tracer writes each pointer parameter
and pointer return value of every GL, GLX and EGL function it knows.

Usage: apitrace_kinds.py APITRACE_SOURCE_DIR [COMMIT] > specs/apitrace_kinds.txt

apitrace describes its functions in Python (specs/glapi.py, glxapi.py, eglapi.py over
specs/stdapi.py). This loads those modules from an apitrace checkout and writes one
fact per value, in the words of specs/classify.py's written_as():
  address   the pointer itself (OpaquePointer, OpaqueBlob, IntPointer, LinearPointer)
  blob      bytes (Blob)
  array     elements (Array, Pointer(T): an array of one)
  string    a string (String)
  attribs   a key/value list (AttribArray)
  poly      a value whose kind depends on another argument (Polymorphic)
Run again only when apitrace's specs change; the file keeps the commit it was made
from. specs/apitrace_diff.txt says why each value written differently by us differs,
and tests/specs/test_pointer_kinds.py holds the two together.
"""
import os
import subprocess
import sys


def kind_of(t, stdapi):
    """One of the words above for a pointer-valued apitrace type, or None for scalars."""
    while isinstance(t, (stdapi.Const, stdapi.Alias)):
        t = t.type
    if isinstance(t, (stdapi.Opaque, stdapi.IntPointer, stdapi.LinearPointer, stdapi.ObjPointer)):
        return "address"
    if isinstance(t, stdapi.Blob):
        return "blob"
    if isinstance(t, (stdapi.Array, stdapi.Pointer)):
        return "array"
    if isinstance(t, stdapi.String):
        return "string"
    if isinstance(t, stdapi.AttribArray):
        return "attribs"
    if isinstance(t, stdapi.Polymorphic):
        kinds = {kind_of(c, stdapi) for _, c in t.switchTypes}
        if t.defaultType is not None:
            kinds.add(kind_of(t.defaultType, stdapi))
        kinds.discard(None)
        return "poly" if kinds else None
    return None


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2])
    src = os.path.abspath(sys.argv[1])
    sys.path.insert(0, src)
    from specs import stdapi, glapi, glxapi, eglapi  # noqa: E402 (apitrace's, not ours)
    commit = sys.argv[2] if len(sys.argv) == 3 else None
    if not commit:
        try:
            commit = subprocess.run(["git", "-C", src, "rev-parse", "HEAD"], capture_output=True,
                                    text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            commit = "unknown"
    print("# How apitrace's tracer writes each pointer value (specs/apitrace_kinds.py), from")
    print(f"# apitrace {commit}. FUNCTION.PARAM KIND, or FUNCTION.return KIND.")
    rows = {}
    for module in (glapi.glapi, glxapi.glxapi, eglapi.eglapi):
        for f in module.functions:
            for arg in f.args:
                kind = kind_of(arg.type, stdapi)
                if kind:
                    rows[f"{f.name}.{arg.name}"] = kind
            kind = kind_of(f.type, stdapi)
            if kind:
                rows[f"{f.name}.return"] = kind
    for key in sorted(rows):
        print(key, rows[key])


if __name__ == "__main__":
    main()
