#!/usr/bin/env python3
"""An independent strict check of FXT files we write, straight from
../shared/formats/fuchsia-trace-format.md (not from our C reader): every record's
size matches its content, reserved bits and padding are zero, string and thread
refs are defined before use, arguments are well formed. Prints the events per
timeline kind, with gltrace's marker conventions (formats/fxt/fxt_format.h)
decoded, in the form of `gltrace convert --counts` (zero counts left out), so a
test can compare the two readers.
usage: fxt_check.py FILE  (exit 1 with "offset N: what" on the first violation)"""
import collections
import struct
import sys

EVENT_KINDS = ['instant', 'counter', 'begin', 'end', 'complete', 'async_begin',
               'async_instant', 'async_end', 'flow_begin', 'flow_step', 'flow_end']
MAGIC = 0x0016547846040010


class Bad(Exception):
    pass


def bits(w, lo, n):
    return (w >> lo) & ((1 << n) - 1)


class Checker:
    def __init__(self, data):
        if len(data) % 8:
            raise Bad('offset %d: file size is not a multiple of 8' % (len(data) - len(data) % 8))
        self.words = struct.unpack('<%dQ' % (len(data) // 8), data)
        self.strings = {}
        self.threads = {}
        self.counts = collections.Counter()

    def fail(self, word, what):
        raise Bad('offset %d: %s' % (word * 8, what))

    def zero(self, w, lo, n, at, what):
        if bits(w, lo, n):
            self.fail(at, 'reserved bits of %s are not zero' % what)

    def stream(self, at, end, length, what):
        """A padded inline byte stream at word `at`; returns (bytes, next word)."""
        nw = (length + 7) // 8
        if at + nw > end:
            self.fail(at, '%s runs past its record' % what)
        raw = struct.pack('<%dQ' % nw, *self.words[at:at + nw]) if nw else b''
        if any(raw[length:]):
            self.fail(at, 'padding of %s is not zero' % what)
        return raw[:length], at + nw

    def strref(self, ref, at, end, what):
        if ref == 0:
            return '', at
        if ref & 0x8000:
            raw, at = self.stream(at, end, ref & 0x7fff, what)
            return raw.decode('utf-8', 'replace'), at
        if ref not in self.strings:
            self.fail(at, '%s: string index %d used before its string record' % (what, ref))
        return self.strings[ref], at

    def thread(self, ref, at, end):
        if ref == 0:
            if at + 2 > end:
                self.fail(at, 'inline thread runs past its record')
            return (self.words[at], self.words[at + 1]), at + 2
        if ref not in self.threads:
            self.fail(at, 'thread index %d used before its thread record' % ref)
        return self.threads[ref], at

    def args(self, n, at, end):
        out = {}
        for _ in range(n):
            if at >= end:
                self.fail(at, 'argument past the end of its record')
            h = self.words[at]
            typ, size = bits(h, 0, 4), bits(h, 4, 12)
            if size == 0 or at + size > end:
                self.fail(at, 'argument size %d does not fit its record' % size)
            name, p = self.strref(bits(h, 16, 16), at + 1, at + size, 'argument name')
            if typ in (0, 1, 2, 9):  # null, int32, uint32, bool: value in the header
                if typ == 0:
                    self.zero(h, 32, 32, at, 'a null argument')
                if typ == 9:
                    self.zero(h, 33, 31, at, 'a bool argument')
                value = bits(h, 32, 32)
            elif typ in (3, 4, 5, 7, 8):  # one value word
                self.zero(h, 32, 32, at, 'an argument')
                if p >= at + size:
                    self.fail(at, 'argument value word missing')
                value, p = self.words[p], p + 1
            elif typ == 6:
                self.zero(h, 48, 16, at, 'a string argument')
                value, p = self.strref(bits(h, 32, 16), p, at + size, 'string argument')
            else:
                self.fail(at, 'argument type %d' % typ)
            if p != at + size:
                self.fail(at, 'argument of %d words holds %d' % (size, p - at))
            out[name] = value
            at += size
        return out, at

    def event(self, h, at, end):
        typ, nargs = bits(h, 16, 4), bits(h, 20, 4)
        if typ >= len(EVENT_KINDS):
            self.fail(at, 'event type %d' % typ)
        p = at + 2  # header, timestamp
        thread, p = self.thread(bits(h, 24, 8), p, end)
        cat, p = self.strref(bits(h, 32, 16), p, end, 'category')
        name, p = self.strref(bits(h, 48, 16), p, end, 'name')
        args, p = self.args(nargs, p, end)
        if typ not in (0, 2, 3):
            p += 1  # counter id, end time, correlation id
        if p != end:
            self.fail(at, 'event record of %d words holds %d' % (end - at, p - at))
        kind = EVENT_KINDS[typ]
        if kind == 'instant':
            anchors = {'gltrace.wall_offset_ns', 'gltrace.mono_offset_ns'}
            if thread == (0, 0) and not cat and not name and args and set(args) <= anchors:
                return  # the clock anchors: not an event
            ph = args.get('chrome.ph')
            if ph in ('N', 'O', 'D') and 'chrome.id' in args:
                kind = 'object'
            elif ph == 'P':
                kind = 'sample'
            elif ph == 'F' and 'chrome.id' in args and 'chrome.parent' in args:
                kind = 'stack_frame'
        self.counts[kind] += 1

    def record(self, at):
        h = self.words[at]
        typ, size = bits(h, 0, 4), bits(h, 4, 12)
        if typ == 15:
            size = bits(h, 4, 32)
        if size == 0:
            self.fail(at, 'record of size 0')
        end = at + size
        if end > len(self.words):
            self.fail(at, 'record of %d words runs past the end of the file' % size)
        if at == 0 and h != MAGIC:
            self.fail(0, 'the file does not start with the magic record')
        if typ == 2:
            idx, length = bits(h, 16, 15), bits(h, 32, 15)
            self.zero(h, 31, 1, at, 'a string record')
            self.zero(h, 47, 17, at, 'a string record')
            raw, p = self.stream(at + 1, end, length, 'string')
            if p != end:
                self.fail(at, 'string record of %d words holds %d' % (size, p - at))
            if idx:
                self.strings[idx] = raw.decode('utf-8', 'replace')
        elif typ == 3:
            self.zero(h, 24, 40, at, 'a thread record')
            if size != 3:
                self.fail(at, 'thread record of %d words' % size)
            if bits(h, 16, 8):
                self.threads[bits(h, 16, 8)] = (self.words[at + 1], self.words[at + 2])
        elif typ == 4:
            self.event(h, at, end)
        elif typ == 7:
            self.zero(h, 44, 20, at, 'a kernel object record')
            _, p = self.strref(bits(h, 24, 16), at + 2, end, 'object name')
            _, p = self.args(bits(h, 40, 4), p, end)
            if p != end:
                self.fail(at, 'kernel object record of %d words holds %d' % (size, p - at))
            objtype = bits(h, 16, 8)
            if objtype in (1, 2):
                self.counts['process_name' if objtype == 1 else 'thread_name'] += 1
        elif typ == 8:
            self.zero(h, 60, 4, at, 'a context switch record')
            p = at + 2
            _, p = self.thread(bits(h, 28, 8), p, end)
            _, p = self.thread(bits(h, 36, 8), p, end)
            if p != end:
                self.fail(at, 'context switch record of %d words holds %d' % (size, p - at))
            self.counts['context_switch'] += 1
        elif typ == 1:
            if size != 2 or bits(h, 16, 48):
                self.fail(at, 'initialization record malformed')
        return end

    def run(self):
        at = 0
        if not self.words:
            raise Bad('offset 0: empty file')
        while at < len(self.words):
            at = self.record(at)
        return self.counts


def main():
    try:
        counts = Checker(open(sys.argv[1], 'rb').read()).run()
    except Bad as e:
        print('%s: %s' % (sys.argv[1], e), file=sys.stderr)
        sys.exit(1)
    for k in sorted(counts):
        print(k, counts[k])


main()
