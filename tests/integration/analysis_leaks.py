#!/usr/bin/env python3
"""Checks each line of `gltrace leaks` against the trace's dump text (`apitrace dump`),
independently of gltrace's tables: the call named created an object of that kind with
that name (a glGen*/glCreate* call of the kind whose names or returned value hold it),
and no glDelete* call of the kind names it between its creation and the point the line
says it was still alive ("until" a call or the end). Prints problems and
"N passed, M failed".

usage: analysis_leaks.py LEAKS.txt DUMP.txt
"""
import re
import sys

LINE = re.compile(r'^(\d+): error: ([a-z ]+) (\d+) was not destroyed until (\d+|<EOF>)$')
CALL = re.compile(r'^(\d+) (\w+)\((.*)$')


def camel(kind):
    return ''.join(w.capitalize() for w in kind.split())


def numbers(text):
    return set(int(x) for x in re.findall(r'(?<![\w.])(\d+)(?![\w.])', text))


def main():
    leaks, dump = sys.argv[1:3]
    calls = {}
    deletes = []  # (no, function, text)
    for line in open(dump, errors='replace'):
        m = CALL.match(line)
        if not m:
            continue
        no, fn, rest = int(m.group(1)), m.group(2), m.group(3)
        calls[no] = (fn, rest)
        if fn.startswith('glDelete'):
            deletes.append((no, fn, rest))
    passed = failed = 0
    for line in open(leaks):
        line = line.rstrip('\n')
        m = LINE.match(line)
        if not m:
            print(f'not a leak line: {line!r}')
            failed += 1
            continue
        no, kind, name, until = int(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
        problems = []
        fn, rest = calls.get(no, ('', ''))
        k = camel(kind)
        if not (fn.startswith('glGen' + k) or fn.startswith('glCreate' + k) or
                (fn.startswith('glCreate') and re.search(r'\) = %d$' % name, rest.rstrip()))):
            problems.append(f'call {no} ({fn or "not in the dump"}) creates no {kind}')
        elif name not in numbers(rest):
            problems.append(f'call {no} does not hold the name {name}')
        end = float('inf') if until == '<EOF>' else int(until)
        for dno, dfn, drest in deletes:
            if no < dno < end and dfn.startswith('glDelete' + k) and name in numbers(drest):
                problems.append(f'call {dno} {dfn} deletes it')
                break
        if problems:
            print(f'{line}: ' + '; '.join(problems))
            failed += 1
        else:
            passed += 1
    print(f'{passed} passed, {failed} failed')


if __name__ == '__main__':
    main()
