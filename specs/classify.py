"""How each parameter and return value of a command is written to the trace.

A plan says, for one value, its kind, when it is written (enter or leave) and the C
expressions it needs. Kinds:
  scalar SK           one value of scalar kind SK (sint, uint, float, double,
                      enum:SIG, bitmask, pointer)
  symbolic PNAME      a value of scalar kind SK written as an enum when the pname
                      parameter PNAME takes enum values and the value is whole
  string              NUL-terminated string (NULL: null)
  string_n LEN        string of LEN bytes (LEN < 0: NUL-terminated)
  out_string LEN      output string, at most LEN bytes, written at leave
  strings COUNT [LENS] array of COUNT strings, with optional per-string lengths
  array LEN           array of LEN scalars of the pointed-to type
  blob LEN            LEN bytes
  pointers LEN        array of LEN opaque pointers
  attribs LIST        attribute list whose keys and values specs/attrib_lists.txt's
                      list LIST describes
  pointer             the pointer value itself (handles, offsets, callbacks)
  blob_indirect LEN   LEN bytes of draw commands: a blob, or an offset with a
                      GL_DRAW_INDIRECT_BUFFER bound (the indirect draws' indirect)
  element_lists COUNT TYPE N  N index lists, list i COUNT[i] indices of TYPE (the
                      parameters' names): blobs, or offsets with an element buffer
                      bound (glMultiDrawElements' indices)
  writer FN ARGS      written by the hand-written FN(writer, ARGS..., value), for values
                      whose size and kinds depend on another parameter
  struct NAME         a pointer to one struct, written by the hand-written helper
                      gtw_struct_NAME (wrappers/gtw_*.c)
Non-const pointers with a length are outputs: written at leave ("out_" prefix or
the output flag). Anything the rules cannot decide stops the generator with the
command's name: it never guesses silently. In particular a pointer is written as an
address only where a fact says why (an opaque type, an `address REASON` param or
compsize line): a pointer whose bytes the call reads or fills needs a size rule, from
the registry's len= or a `len` line, else the generator refuses it.
"""
import dataclasses
import re
from dataclasses import dataclass, field

CHAR_TYPES = {"GLchar", "GLcharARB", "char"}


class Unclassified(Exception):
    pass


@dataclass
class Plan:
    kind: str
    args: list = field(default_factory=list)
    output: bool = False   # written at leave
    scalar: str = ""       # element kind for scalar/array/attribs
    pack: bool = False     # an output that is an offset when a pixel pack buffer is bound


def length_expr(text, cmd, ann):
    """C expression for a len= attribute or annotation argument."""
    text = text.strip()
    m = re.fullmatch(r"COMPSIZE\((.*)\)", text)
    if m:
        how = ann.compsize.get(text)
        if not how:
            raise Unclassified(f"no size helper for {text} (add a compsize line)")
        if how[0] in ("unpack", "elements"):
            how = ("helper", how[1])
        if how[0] in ("kind", "address"):
            raise Unclassified(f"{text} is written as {how[1] if how[0] == 'kind' else 'an address'}, not sized")
        params = [p for p in m.group(1).split(",") if p]
        return f"{how[1]}({', '.join(params)})"
    names = {p.name: p for p in cmd.params}

    def deref(mo):
        p = names.get(mo.group(0))
        if p is not None and p.pointers:
            return f"({p.name} ? *{p.name} : 0)"  # a length given through a pointer
        return mo.group(0)
    return re.sub(r"[A-Za-z_]\w*", deref, text)


def scalar_kind(base, ann, where):
    kind = ann.types.get(base)
    if not kind:
        raise Unclassified(f"{where}: no scalar kind for type {base} (add a type line)")
    return kind


def _compsize_plan(cmd, p, ann):
    """Plans that a COMPSIZE form decides by itself, or None for plain sizes."""
    how = ann.compsize.get(p.length)
    if not how or how[0] == "helper":
        return None
    if how[0] == "kind":
        return Plan(how[1])
    if how[0] == "address":
        return Plan("pointer")
    # pixel and index data: a blob, or an offset into a bound buffer
    return Plan("blob_" + how[0], [length_expr(p.length.replace("COMPSIZE", "COMPSIZE"), cmd, ann)],
                output=not p.const)


def _through_buffer(plan, cmd, p, ann):
    """PLAN, for pixel data read through the pixel unpack buffer (an `unpack` line) or
    written into the pixel pack buffer (a `pack` line) when one is bound: then the
    pointer is an offset into that buffer, and reading it as memory would crash the
    program."""
    key = f"{cmd.name}.{p.name}"
    if key in ann.proxy:  # a proxy target reads no pixels: the program may pass anything
        if plan.kind not in ("blob", "blob_unpack") or plan.output or not plan.args:
            raise Unclassified("proxy applies to sized bytes the call reads (a blob)")
        target = ann.proxy[key]
        if target not in {q.name for q in cmd.params}:
            raise Unclassified(f"proxy names {target}, which {cmd.name} does not take")
        plan = dataclasses.replace(plan, args=[f"gtsz_unless_proxy({target}, {plan.args[0]})"]
                                   + plan.args[1:])
    if key in ann.unpack:
        if plan.kind != "blob" or plan.output:
            raise Unclassified("unpack applies to bytes the call reads (a blob)")
        return Plan("blob_unpack", plan.args)
    if key in ann.pack and plan.kind != "pointer":  # an address is already safe
        if plan.kind not in ("blob", "array") or not plan.output:
            raise Unclassified("pack applies to memory the call fills (a blob or an array)")
        return dataclasses.replace(plan, pack=True)
    return plan


def _pointer_plan(cmd, p, ann):
    where = f"{cmd.name}.{p.name}"
    base_kind = ann.types.get(p.base, "")
    out = not p.const
    if p.pointers == 1 and base_kind == "opaque":
        return Plan("pointer")
    if p.pointers == 1 and base_kind.startswith("struct:"):
        return Plan("struct", [base_kind[7:]])
    length_text = ann.lengths.get(where, p.length)  # a `len` line fills the registry's gap
    if p.length and where in ann.lengths:
        raise Unclassified(f"the registry has len={p.length!r}: drop the len line")
    if length_text and "COMPSIZE" in length_text:
        plan = _compsize_plan(cmd, _with_length(p, length_text), ann)
        if plan:
            return plan
    length = length_expr(length_text, cmd, ann) if length_text else None
    if p.pointers == 1 and p.base in CHAR_TYPES:
        if not out:
            return Plan("string_n", [length]) if length else Plan("string")
        if length:
            return Plan("out_string", [length], output=True)
        raise Unclassified(f"{where}: output string without a length")
    if p.pointers == 1 and p.base == "void" and length:
        return Plan("blob", [length], output=out)
    if p.pointers == 2 and length:
        if p.base in CHAR_TYPES:
            return Plan("strings", [length], output=out)
        if p.base == "void":
            return Plan("pointers", [length], output=out)
    if p.pointers == 1 and length:
        return Plan("array", [length], output=out, scalar=scalar_kind(p.base, ann, where))
    what = "memory the call fills" if out else "input pointer"
    raise Unclassified(f"{where}: {what} ({p.ctype}) without a size rule: add a `len` line, "
                       "or `param ... address REASON` if the GL never reads or fills its bytes")


def _with_length(p, length):
    """P with its len= replaced (a `len` line), for the COMPSIZE rules."""
    return dataclasses.replace(p, length=length)


def _annotated(cmd, p, kind, args, ann):
    where = f"{cmd.name}.{p.name}"
    output = kind.startswith("out_")
    kind = kind[4:] if output else kind
    exprs = [length_expr(a, cmd, ann) if a not in ("-",) else a for a in args]
    if kind == "element_lists":  # parameter names, COUNT an array: passed as they are
        exprs = list(args)
    if kind == "attribs":
        if len(args) != 1:
            raise Unclassified(f"{where}: attribs takes one list name")
        exprs = list(args)  # a list of specs/attrib_lists.txt, not an expression
    if kind == "writer":  # `param F.P [out_]writer FN ARG...`: FN(w, ARG..., P) writes it
        if not args:
            raise Unclassified(f"{where}: writer takes a function name")
        return Plan("writer", list(args), output=output)
    if kind == "address":  # `param F.P address REASON...`: the pointer itself, never its bytes
        if not args:
            raise Unclassified(f"{where}: address needs a reason (why the GL never reads its bytes)")
        if not p.pointers:
            raise Unclassified(f"{where}: address on a parameter that is no pointer")
        return Plan("pointer")
    if kind == "pointer":
        raise Unclassified(f"{where}: write `address REASON...`, not `pointer`")
    if kind == "scalar":  # `param F.P scalar KIND`: one value of scalar kind KIND
        if len(args) != 1:
            raise Unclassified(f"{where}: scalar takes one kind")
        return Plan("scalar", scalar=args[0])
    scalar = ""
    if kind in ("array", "attribs"):
        scalar = scalar_kind(p.base, ann, where)
    if kind == "string" and output:
        kind = "out_string"
    return Plan(kind, exprs, output=output, scalar=scalar)


def param_plan(cmd, p, ann):
    try:
        return _through_buffer(_param_plan(cmd, p, ann), cmd, p, ann)
    except Unclassified as e:
        where = f"{cmd.name}.{p.name}"
        raise Unclassified(str(e) if str(e).startswith(where) else f"{where}: {e}") from None


def _grouped(kind, group, ann):
    """The scalar kind of an integer or enum value of registry group GROUP (a `group`
    annotation), or KIND as it is."""
    if group in ann.groups and kind.startswith(("enum:", "sint", "uint")):
        return ann.groups[group]
    return kind


SYMBOLIC_BASES = ("GLint", "GLfloat", "GLdouble")


def _symbolic(cmd, p, ann):
    """A `symbolic PNAME PARAM` plan for P (its pname's parameter name), or None."""
    i = cmd.params.index(p)
    before = cmd.params[i - 1] if i else None
    for pname, param in ann.symbolic:
        if (p.name == param and p.base in SYMBOLIC_BASES and before is not None
                and before.name == pname and before.base == "GLenum" and before.pointers == 0):
            return Plan("symbolic", [pname], scalar=scalar_kind(p.base, ann, f"{cmd.name}.{p.name}"))
    return None


def _param_plan(cmd, p, ann):
    note = ann.params.get(f"{cmd.name}.{p.name}")
    if note:
        return _annotated(cmd, p, note[0], note[1], ann)
    if p.pointers == 0:
        symbolic = _symbolic(cmd, p, ann)
        if symbolic:
            return symbolic
        kind = scalar_kind(p.base, ann, f"{cmd.name}.{p.name}")
        return Plan("scalar", scalar=_grouped(kind, p.group, ann))
    return _pointer_plan(cmd, p, ann)


def return_plan(cmd, ann):
    if cmd.ret == "void":
        return None
    note = ann.returns.get(cmd.name)
    if note:
        kind, args = note
        if kind == "scalar":  # `return F scalar KIND`
            return Plan("scalar", output=True, scalar=args[0])
        exprs = [length_expr(a, cmd, ann) for a in args]
        scalar = ""
        if kind == "array":
            scalar = scalar_kind(cmd.ret_base, ann, cmd.name)
        if kind == "struct":
            exprs = list(args)  # the struct's name, not an expression
        return Plan(kind, exprs, output=True, scalar=scalar)
    pointers = cmd.ret.count("*")
    if pointers == 0:
        kind = scalar_kind(cmd.ret_base, ann, cmd.name)
        return Plan("scalar", output=True, scalar=_grouped(kind, cmd.ret_group, ann))
    if pointers == 1 and ann.types.get(cmd.ret_base, "").startswith("struct:"):
        return Plan("struct", [ann.types[cmd.ret_base][7:]], output=True)
    if pointers == 1 and cmd.ret_base in CHAR_TYPES | {"GLubyte"}:
        return Plan("string", output=True)
    if pointers == 1:
        return Plan("pointer", output=True)
    raise Unclassified(f"{cmd.name}: cannot classify the return type {cmd.ret}")


# How a plan writes its value, in the words of specs/apitrace_kinds.txt (what a reader
# of the trace gets: the pointer itself, bytes, elements, a string, a key/value list).
WRITTEN_AS = {"pointer": "address", "blob": "blob", "blob_unpack": "blob",
              "blob_elements": "blob", "blob_indirect": "blob", "array": "array",
              "pointers": "array", "strings": "array", "element_lists": "array",
              "struct": "array", "writer": "array", "string": "string",
              "string_n": "string", "out_string": "string", "attribs": "attribs"}


def written_as(plan):
    """The word for how PLAN writes its value, or None for a scalar."""
    if plan is None or plan.kind in ("scalar", "symbolic"):
        return None
    return WRITTEN_AS[plan.kind]
