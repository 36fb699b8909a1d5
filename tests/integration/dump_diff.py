#!/usr/bin/env python3
"""dump_diff.py APITRACE_DUMP GLTRACE_DUMP SIGS [--frames] [--any-order]
[--collapse-repeats]: are two recordings the same?

Compares `apitrace dump -v --thread-ids=yes` of apitrace's recording of a program with
the same dump of gltrace's recording of the same run, call by call and argument text by
argument text, thread by thread, after normalising what legitimately differs between
two recordings. Each rule and why:

  R1 header lines (`// process.commandLine = ...`) are dropped: gltrace records the
     command line as a trace property, apitrace 11's recorder writes none.
  R2 call numbers are dropped: they shift wherever R4 drops a call.
  R3 addresses (hex numbers of 6 digits or more) -> PTR: the process's own pointers
     (displays, contexts, configs, map pointers) differ from run to run.
  R4 calls of functions apitrace's recorder does not wrap (SIGS: the list
     apitrace_sigs.py reads off its tracers) are dropped from gltrace's dump: apitrace
     hands the program the driver's function for them, unrecorded.
  R6 where apitrace writes a number and gltrace a name of that value, the two agree:
     gltrace names values apitrace's enum tables lack (EGL_PLATFORM_SURFACELESS_MESA).
  R7 outputs of a call that failed (= EGL_FALSE) -> OUT: the driver wrote nothing, so
     they are whatever the program's memory held.
  R8 with --frames (programs that run until a signal stops them), both dumps are cut
     after the last frame both have, and an incomplete last call is dropped.
  R9 indirect draws from client memory (glDrawArraysIndirect with no
     GL_DRAW_INDIRECT_BUFFER bound): gltrace writes the draw commands as a blob and the
     client arrays they read as fake gl*Pointer calls before the draw, apitrace the
     pointer alone (a trace that cannot replay them); such fake calls are dropped and
     gltrace's `indirect = blob(N)` reads as apitrace's PTR.
  R10 glGetInteger64v/Booleanv/Floatv/Doublev of GL_NUM_EXTENSIONS and
     GL_NUM_PROGRAM_BINARY_FORMATS: apitrace changes these answers (its own extensions,
     no binary formats) in glGetIntegerv only, gltrace in every getter, so the program
     sees one answer whichever it asks: their values are not compared.
  R11 bytes written through a persistent map that is neither coherent nor explicitly
     flushed (made the GL's by glMemoryBarrier): gltrace writes them as fake memcpys,
     apitrace writes nothing (its replay reads stale data); such memcpys are dropped, from
     both dumps: where the program names what it wrote (GL_VMWX_map_buffer_debug's
     glNotifyMappedBufferRangeVMWX, the map's GL_MAP_NOTIFY_EXPLICIT_BIT_VMWX taken out of
     the trace) both write those memcpys alike, which mapped_buffers.sh compares.

  R12 calls are compared per thread, in each thread's order: how the threads' calls
     interleave is the scheduler's choice, different in every run. Threads are paired
     in the order of their first calls, each apitrace thread with the unpaired gltrace
     thread whose calls agree with it longest (two threads that start alike may start
     in either order). With --frames, a thread that makes no swap is compared over
     the calls both recordings of it hold (the signal stops it anywhere).
  R13 the string a glGet*InfoLog/Source/Label call asked with bufSize = 0 returns -> OUT:
     the GL writes nothing there, so apitrace writes whatever the program's buffer held
     (bytes of old memory, piglit's shaders), gltrace NULL.
  R14 glMultiTexCoordPointerEXT (EXT_direct_state_access) with client memory: apitrace
     writes the call at once with the address, which no replay can read; gltrace takes it
     as every other client array, a fake call with the blob before each draw that reads
     it. apitrace's call with an address and gltrace's fake ones are dropped.
  R15 with --any-order (a program that loads its images on worker threads and uploads
     each when it is ready: endless-sky), a thread's calls may come in another order:
     they are compared as a multiset (each call text as often in both), texture names
     left out (which name an image gets follows the order), and named so.
  R16 with --collapse-repeats (a program that draws when its events ask: openscad, a Qt
     application, redraws an unchanged view as often as expose and timer events come,
     which differs from run to run), a frame whose calls equal the frame before it is
     dropped, in both recordings.

Exit 0 when the normalised dumps are equal; else prints the first differences (and
exit 1). Anything not covered by a rule is a difference: a bug or a missing rule.
"""
import difflib
import re
from collections import Counter
import sys

SWAPS = re.compile(r"^(glXSwapBuffers|eglSwapBuffers|eglSwapBuffersWithDamage\w*)\(")
CALL = re.compile(r"^\d+ (?:@(\d+) )?")
ENUM_HEADERS = ("/usr/include/GL/gl.h", "/usr/include/GL/glext.h", "/usr/include/GL/glx.h",
                "/usr/include/GL/glxext.h", "/usr/include/EGL/egl.h", "/usr/include/EGL/eglext.h")


def enum_values():
    values = {}
    for path in ENUM_HEADERS:
        try:
            with open(path, errors="replace") as f:
                for line in f:
                    m = re.match(r"#define ((?:GL|GLX|EGL)_\w+)\s+(0x[0-9A-Fa-f]+|\d+)\b", line)
                    if m:
                        values.setdefault(m.group(1), int(m.group(2), 0))
        except OSError:
            pass
    return values


MAP = re.compile(r"^glMap\w*BufferRange\w*\(.*length = (\d+), access = ([^)]*)\) = (0x[0-9a-f]+)$")
FAKE_MEMCPY = re.compile(r"^memcpy\(dest = (0x[0-9a-f]+), .*\) // fake$")


def calls(path, unflushed=False):
    """The dump's call lines per thread id, in order, numbers dropped (R1, R2, R3);
    with UNFLUSHED, R11."""
    threads, ranges, thread = {}, [], "0"
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("//") or not line.strip():
                continue  # R1
            m = CALL.match(line)
            if not m:  # a continuation (a multi-line string): the call's thread
                threads.setdefault(thread, []).append("| " + line)
                continue
            thread = m.group(1) or "0"
            line = line[m.end():]
            if unflushed and unflushed_write(line, ranges):
                continue
            threads.setdefault(thread, []).append(re.sub(r"\b0x[0-9a-f]{6,}\b", "PTR", line))  # R3
    return list(threads.values())


def unflushed_write(line, ranges):  # R11
    m = MAP.match(line)
    if m and "GL_MAP_PERSISTENT_BIT" in m.group(2) and not re.search(
            r"GL_MAP_(COHERENT|FLUSH_EXPLICIT)_BIT", m.group(2)):
        ranges.append((int(m.group(3), 16), int(m.group(1))))
    m = FAKE_MEMCPY.match(line)
    return bool(m) and any(start <= int(m.group(1), 16) < start + n for start, n in ranges)


def drop_unwrapped(lines, known):  # R4
    return [l for l in lines if not re.match(r"^\w+\(", l) or l.split("(", 1)[0] in known]


def indirect_from_client(lines):  # R9
    out = []
    for l in lines:
        if re.match(r"glDraw\w*Indirect\(", l) and "indirect = blob(" in l:
            while out and re.match(r"gl\w*Pointer\w*\(.*\) // fake$", out[-1]):
                out.pop()
            l = re.sub(r"indirect = blob\(\d+\)", "indirect = PTR", l)
        out.append(l)
    return out


OTHER_GETTER = re.compile(r"^(glGet(?:Integer64|Boolean|Float|Double)v\(pname = "
                          r"(?:GL_NUM_EXTENSIONS|GL_NUM_PROGRAM_BINARY_FORMATS), params = )&\S+\)$")


def other_getters(lines):  # R10
    return [OTHER_GETTER.sub(r"\1&ANSWER)", l) for l in lines]


def failed_outputs(lines):  # R7
    return [re.sub(r"= &-?\d+\b", "= &OUT", l) if l.endswith(") = EGL_FALSE") else l
            for l in lines]


ZERO_SIZE_OUTPUT = re.compile(r'^(glGet\w*(?:InfoLog|Source|Label)\w*\(.*\bbufSize = 0, .*= )'
                              r'(?:NULL|"(?:[^"\\]|\\.)*")\)$')


def zero_size_outputs(lines):  # R13
    return [ZERO_SIZE_OUTPUT.sub(r"\1OUT)", l) for l in lines]


def ext_client_arrays(lines):  # R14
    return [l for l in lines if not re.match(
        r"^glMultiTexCoordPointerEXT\((?:.*pointer = PTR\)$|.*\) // fake$)", l)]


def any_order(lines):  # R15
    return Counter(re.sub(r"\b(texture|textures) = (&?)\d+", r"\1 = \2N", l) for l in lines)


def collapse_repeats(lines):  # R16
    out, frame, last = [], [], None
    for l in lines:
        frame.append(l)
        if SWAPS.match(l):
            if frame != last:
                out += frame
            last, frame = frame, []
    return out + frame


def cut_frames(a, b):  # R8; R12 for a thread that makes no swap
    def frames(lines):
        return [i for i, l in enumerate(lines) if SWAPS.match(l) and not l.endswith("// incomplete")]
    fa, fb = frames(a), frames(b)
    n = min(len(fa), len(fb))
    if n == 0 and not fa and not fb:
        whole = [l for l in a if not l.endswith("// incomplete")], \
            [l for l in b if not l.endswith("// incomplete")]
        n = min(len(whole[0]), len(whole[1]))
        return whole[0][:n], whole[1][:n]
    if n == 0:
        return a, b
    return a[:fa[n - 1] + 1], b[:fb[n - 1] + 1]


ALIGN_WINDOW = 2000
TOKEN = re.compile(r"-?\d+|[A-Za-z_]\w*|\S")


def same(a, g, values):
    """Lines equal, or equal but for R6 (apitrace's number, gltrace's name of it)."""
    if a == g:
        return True
    ta, tg = TOKEN.findall(a), TOKEN.findall(g)
    if len(ta) != len(tg):
        return False
    for x, y in zip(ta, tg):
        if x != y and not (re.fullmatch(r"-?\d+", x) and values.get(y) == int(x) % (1 << 32)):
            return False
    return True


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 3:
        sys.exit("usage: dump_diff.py APITRACE_DUMP GLTRACE_DUMP SIGS [--frames] [--any-order] "
                 "[--collapse-repeats]")
    with open(args[2]) as f:
        known = {line.split()[0] for line in f if line.strip()}
    a = [ext_client_arrays(zero_size_outputs(other_getters(failed_outputs(t))))
         for t in calls(args[0], unflushed=True)]
    g = [ext_client_arrays(zero_size_outputs(other_getters(failed_outputs(
        indirect_from_client(drop_unwrapped(t, known)))))) for t in calls(args[1], unflushed=True)]
    if len(a) != len(g):
        print(f"dump_diff: {len(a)} thread(s) in apitrace's recording, {len(g)} in gltrace's")
        return 1
    values, failed, alike, reordered = enum_values(), 0, [], False
    for n, (ta, tg) in enumerate(pair_threads(a, g, values)):
        if "--collapse-repeats" in sys.argv:
            ta, tg = collapse_repeats(ta), collapse_repeats(tg)
        if "--frames" in sys.argv:
            ta, tg = cut_frames(ta, tg)
        bad = differences(ta, tg, values)
        if bad and "--any-order" in sys.argv and any_order(ta) == any_order(tg):  # R15
            bad, reordered = [], True
        alike.append(str(len(ta)))
        if bad:
            failed = 1
            print(f"dump_diff: thread {n}: {len(bad)} difference(s) in {len(ta)} (apitrace) and "
                  f"{len(tg)} (gltrace) lines; the first:")
            for x, y in bad[:6]:
                print(f"    apitrace: {x[:300]}\n    gltrace:  {y[:300]}")
    if not failed:
        print(f"dump_diff: {' + '.join(alike)} calls alike" +
              (f" ({len(a)} threads)" if len(a) > 1 else "") +
              (" (in another order: --any-order)" if reordered else ""))
    return failed


def pair_threads(a, g, values):  # R12
    """(apitrace thread, gltrace thread) pairs: each apitrace thread, in order, with the
    unpaired gltrace thread whose calls agree with it longest."""
    def agree(x, y):
        n = 0
        while n < min(len(x), len(y)) and same(x[n], y[n], values):
            n += 1
        return n
    free, pairs = list(range(len(g))), []
    for ta in a:
        best = max(free, key=lambda j: (agree(ta, g[j]), -j))
        free.remove(best)
        pairs.append((ta, g[best]))
    return pairs


def differences(a, g, values):
    """(apitrace line, gltrace line) pairs that differ, "-" for a line one side lacks.
    Lines are aligned from the first difference on, over a bounded window: a long
    dump (glxgears) of repeated frames would make the alignment quadratic."""
    n = 0
    while n < min(len(a), len(g)) and same(a[n], g[n], values):
        n += 1
    if n == len(a) == len(g):
        return []
    a, g = a[n:n + ALIGN_WINDOW], g[n:n + ALIGN_WINDOW]
    bad = []
    ops = difflib.SequenceMatcher(None, a, g, autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in ops:
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            bad += [(x, y) for x, y in zip(a[i1:i2], g[j1:j2]) if not same(x, y, values)]
            continue
        bad += [(x, "-") for x in a[i1:i2]] + [("-", y) for y in g[j1:j2]]
    return bad


if __name__ == "__main__":
    sys.exit(main())
