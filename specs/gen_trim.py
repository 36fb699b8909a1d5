#!/usr/bin/env python3
"""Generate gltrace trim's table of function roles (trim_rules.gen.c) from specs/trim.txt.

Usage: gen_trim.py TRIM.txt OUT.c GL.xml GLX.xml EGL.xml
Each line of trim.txt names a function (or a re: pattern over the registry's commands)
and its role; argument names become indices. The output is sorted by name for binary
search (cli/trim_deps.c). See trim.txt for the grammar.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import annotations  # noqa: E402
import registry  # noqa: E402

ROLES = ("current", "swap", "bindfb", "xfb", "begin", "end", "vertex", "newlist", "endlist",
         "calllist", "state")
VALUES = ("program", "vao", "unit")  # tracked values; their slots come first, ids 1..3


class Rules:
    def __init__(self):
        self.entries = {}  # name -> dict of C fields
        self.slots = list(VALUES)  # slot id = index + 1
        self.layout = {}  # slot -> (argument keys, tracked value or "", the enum it keys only)

    def slot_id(self, name):
        if name not in self.slots:
            self.slots.append(name)
        return self.slots.index(name) + 1


def fail(where, msg):
    sys.exit(f"{where}: {msg}")


def functions(where, spec, reg):
    if not spec.startswith("re:"):
        if spec not in reg.commands:
            fail(where, f"{spec} is not in the registry")
        return [spec]
    names = sorted(n for n in reg.commands if re.search(spec[3:], n))
    if not names:
        fail(where, f"the pattern {spec} matches no command")
    return names


def arg_index(where, cmd, name):
    for i, p in enumerate(cmd.params):
        if p.name == name:
            return i
    fail(where, f"{cmd.name} has no argument {name}")


def enum_value(where, reg, name):
    if name not in reg.enums:
        fail(where, f"unknown enum {name}")
    return reg.enums[name].value


def state_fields(where, words, cmd, rules, reg):
    """The C fields of `state SLOT [KEY...] [reads SLOT[:KEY]] [sets VALUE=ARG]`."""
    slot, rest = words[0], words[1:]
    f = {"role": "TRIM_STATE", "slot": rules.slot_id(slot), "key_arg": -1, "key_value": 0,
         "key_value_if": 0,
         "sets": 0, "arg": -1, "read_slot": 0, "read_key": 0, "read_value": 0}
    nkeys = 0
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "reads" and i + 1 < len(rest):
            rslot, _, const = rest[i + 1].partition(":")
            if rslot not in rules.layout:
                fail(where, f"reads {rslot}, a slot not defined above")
            f["read_slot"] = rules.slot_id(rslot)
            f["read_key"] = enum_value(where, reg, const) if const else 0
            _, rvalue, rif = rules.layout[rslot]
            keyed = rvalue and (not rif or rif == f["read_key"])  # as the setters' keys
            f["read_value"] = VALUES.index(rvalue) + 1 if keyed else 0
            i += 2
            continue
        if w == "sets" and i + 1 < len(rest):
            value, _, arg = rest[i + 1].partition("=")
            if value not in VALUES or value != slot:
                fail(where, f"sets {value}: a tracked value ({', '.join(VALUES)}) named as the slot")
            f["sets"] = VALUES.index(value) + 1
            f["arg"] = arg_index(where, cmd, arg)
            i += 2
            continue
        if w.startswith("@"):
            value, _, only = w[1:].partition(":")
            if value not in VALUES:
                fail(where, f"unknown tracked value {w}")
            f["key_value"] = VALUES.index(value) + 1
            f["key_value_if"] = enum_value(where, reg, only) if only else 0
        elif nkeys:
            fail(where, "one argument key at most")
        else:
            f["key_arg"] = arg_index(where, cmd, w)
            nkeys = 1
        i += 1
    value = VALUES[f["key_value"] - 1] if f["key_value"] else ""
    layout = (nkeys, value, f["key_value_if"])
    if rules.layout.setdefault(slot, layout) != layout:
        fail(where, f"slot {slot} keyed differently from its first definition")
    return f


def entry(where, role, words, cmd, rules, reg):
    f = {"role": "TRIM_" + role.upper()}
    if role == "swap":
        f["arg"] = arg_index(where, cmd, words[0])
    elif role in ("current", "bindfb"):
        f["arg"] = arg_index(where, cmd, words[0])
        f["arg2"] = arg_index(where, cmd, words[1])
    elif role == "xfb":
        if words != ["on"] and words != ["off"]:
            fail(where, "xfb on|off")
        f["on"] = 1 if words == ["on"] else 0
    elif role == "state":
        f = state_fields(where, words, cmd, rules, reg)
    elif words:
        fail(where, f"{role} takes no words")
    return f


def read_rules(path, reg):
    rules = Rules()
    for where, words in annotations.fact_lines(path):
        role, *rest = words
        if role not in ROLES or not rest:
            fail(where, f"unknown role {role}" if role not in ROLES else "no function")
        for name in functions(where, rest[-1], reg):
            if name in rules.entries:
                fail(where, f"{name} has a role already")
            rules.entries[name] = entry(where, role, rest[:-1], reg.commands[name], rules, reg)
    return rules


FIELDS = ("role", "slot", "arg", "arg2", "key_arg", "key_value", "key_value_if", "sets", "on",
          "read_slot", "read_key", "read_value")


def emit(rules, src, out):
    lines = [f"/* Generated by specs/gen_trim.py from {os.path.basename(src)}. DO NOT EDIT. */",
             '#include <stddef.h>', "", '#include "trim_rules.h"', "",
             "const char *const trim_slot_names[] = {NULL, " +
             ", ".join(f'"{s}"' for s in rules.slots) + "};",
             f"const unsigned trim_slot_count = {len(rules.slots) + 1};", "",
             "const trim_rule trim_rules[] = {"]
    for name in sorted(rules.entries):
        f = dict({"slot": 0, "arg": -1, "arg2": -1, "key_arg": -1, "key_value": 0,
                  "key_value_if": 0, "sets": 0,
                  "on": 0, "read_slot": 0, "read_key": 0, "read_value": 0}, **rules.entries[name])
        vals = ", ".join(f".{k} = 0x{f[k]:x}" if k in ("read_key", "key_value_if") else f".{k} = {f[k]}"
                         for k in FIELDS)
        lines.append(f'    {{"{name}", {vals}}},')
    lines += ["};", f"const unsigned trim_rule_count = {len(rules.entries)};", ""]
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    os.replace(tmp, out)


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    reg = registry.load(sys.argv[3:6])
    emit(read_rules(src, reg), src, out)


if __name__ == "__main__":
    main()
