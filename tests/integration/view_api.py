#!/usr/bin/env python3
"""view_api.py: checks `gltrace view`'s HTTP API (cli/view/API.md) against the command
line tools on one trace. Started by view_api.sh, which copies the trace to a work dir.
In full mode also: the frames' CPU/GPU times against sums made here from the timeline's
Chrome JSON, and api/diff (gltrace diff-images) on copies of the thumbnails, one changed.

  view_api.py BIN_DIR TRACE MODE
MODE: full (every check), damaged (the trace cannot be read: JSON errors, still serving),
basic (no replays: summary, frames, calls, search).
Prints PASS/FAIL lines and a last line "N passed, M failed"; exits 1 on any failure."""
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps"))
from compare_png import decode_png, decode_png_bytes  # noqa: E402

BIN, TRACE, MODE = sys.argv[1], sys.argv[2], sys.argv[3]
GLTRACE = os.path.join(BIN, "gltrace")
GLRETRACE = os.path.join(BIN, "glretrace")
NAME = os.path.basename(TRACE)
passed = failed = 0


def ok(what):
    global passed
    passed += 1
    if os.environ.get("IT_VERBOSE"):
        print("PASS: %s: %s" % (NAME, what))


def bad(what, detail=""):
    global failed
    failed += 1
    print("FAIL: %s: %s%s" % (NAME, what, (": " + detail) if detail else ""))


def check(cond, what, detail=""):
    ok(what) if cond else bad(what, detail)
    return cond


def get(url, timeout=60):
    """(status, headers, body bytes); HTTP errors are answers too."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def get_json(url):
    st, h, body = get(url)
    try:
        return st, json.loads(body)
    except ValueError:
        return st, {"unparsable": body[:200].decode("utf-8", "replace")}


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, **kw)


def start_server():
    p = subprocess.Popen([GLTRACE, "view", "--listen", "127.0.0.1:0", TRACE],
                         stdout=subprocess.PIPE, stderr=open(TRACE + ".view-stderr", "w"))
    t0 = time.monotonic()
    line = p.stdout.readline().decode().strip()
    if not re.match(r"^http://127\.0\.0\.1:\d+/[0-9a-f]{32}/$", line):
        bad("the URL line", repr(line))
        p.kill()
        p.wait()
        sys.exit(1)
    return p, line, t0


def children_of(pid):
    """Processes whose parent is pid (the replays)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    out.append(int(d))
            except OSError:
                pass
    return out


def wait_job(url, job, secs=240):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        st, j = get_json(url + "api/job?id=%d" % job)
        if st != 200 or j.get("state") != "running":
            return st, j
        time.sleep(0.2)
    return 0, {"state": "timeout"}


def dump_lines(sel):
    r = run([GLTRACE, "dump", "--color=never", "--call-nos=no", "--multiline=no", "-v", sel, TRACE])
    return [l for l in r.stdout.decode("utf-8", "replace").split("\n")
            if l and not l.startswith("// ")]


def check_basic(url, info, frames_info):
    st, s = get_json(url + "api/summary")
    check(st == 200, "summary answers 200", str(s))
    for k, ik in (("calls", "CallsCount"), ("frames", "FramesCount"), ("threads", "ThreadsCount"),
                  ("api", "API"), ("version", "ContainerVersion")):
        check(s.get(k) == info[ik], "summary %s equals info's %s" % (k, ik),
              "%r != %r" % (s.get(k), info[ik]))
    check(s.get("size") == os.path.getsize(TRACE), "summary size is the file's")

    st, fr = get_json(url + "api/frames?first=0&count=100000")
    check(st == 200, "frames answers 200")
    complete = [(f["first_call"], f["last_call"], f["calls"]) for f in fr["frames"] if f.get("complete", True)]
    want = [(f["FirstCallId"], f["LastCallId"], f["TotalCalls"]) for f in frames_info]
    check(complete[:len(want)] == want, "frames' call ranges equal info --dump-frames",
          "first difference: %r" % next(((a, b) for a, b in zip(complete, want) if a != b), None))
    st, fr2 = get_json(url + "api/frames?first=1&count=2")
    check(st == 200 and [f["frame"] for f in fr2["frames"]] == [1, 2][:max(0, fr["total"] - 1)],
          "frames pages from first")

    # a frame's calls are dump's lines of its call range (every call, -v)
    total = fr["total"]
    picks = sorted({0, min(1, total - 1), total // 2, max(0, len(want) - 1)})
    for f in picks:
        if f >= total:
            continue
        fi = fr["frames"][f]
        st, c = get_json(url + "api/calls?frame=%d&count=10000" % f)
        if not check(st == 200, "calls of frame %d answer 200" % f, str(c)[:300]):
            continue
        texts = [x["text"] for x in c["calls"]]
        check(c["total"] == fi["calls"] and len(texts) == fi["calls"],
              "frame %d: total and calls listed are the frame's count" % f,
              "%d/%d/%d" % (c["total"], len(texts), fi["calls"]))
        # the frame's calls as they come out; with one thread, its call range
        sels = ["--frames=%d" % f]
        if info["ThreadsCount"] == 1:
            sels.append("--calls=%d-%d" % (fi["first_call"], fi["last_call"]))
        for sel in sels:
            exp = dump_lines(sel)
            check(texts == exp, "frame %d: call texts equal dump %s" % (f, sel),
                  next(("%r != %r" % (a, b) for a, b in zip(texts, exp) if a != b),
                       "lengths %d, %d" % (len(texts), len(exp))))
        check(all(x["depth"] >= 0 for x in c["calls"]), "frame %d: depths are not negative" % f)
        st, c2 = get_json(url + "api/calls?frame=%d&first=2&count=3" % f)
        check(len(texts) < 2 or st == 200 and [x["no"] for x in c2["calls"]] == [x["no"] for x in c["calls"][2:5]],
              "frame %d: calls page from first" % f)
        draws = [x for x in c["calls"] if x["draw"]]
        if fi.get("draws") is not None:
            check(len(draws) == fi["draws"], "frame %d: draws count the calls flagged draw" % f)

    # many requests at once (readers on many threads): each answers as alone
    from concurrent.futures import ThreadPoolExecutor
    urls = [url + "api/calls?frame=%d&count=10000" % (i % total) for i in range(24)] + \
           [url + "api/search?q=glClear&limit=5"] * 8
    alone = {u: get(u)[2] for u in set(urls)}
    with ThreadPoolExecutor(max_workers=len(urls)) as ex:
        together = list(ex.map(lambda u: get(u), urls))
    check(all(st == 200 and body == alone[u] for u, (st, h, body) in zip(urls, together)),
          "%d requests at once answer as one at a time" % len(urls))

    # errors: bad numbers, past the end, a stale token
    for q, code in (("calls?frame=%d" % total, 400), ("calls?frame=abc", 400), ("calls?frame=-1", 400),
                    ("calls", 400), ("frames?first=%d" % (total + 1), 400),
                    ("calls?frame=0&first=99999999", 400), ("state?call=%d" % (info["CallsCount"] + 1000), 400),
                    ("search?q=", 400), ("thumb?frame=zz", 400), ("job?id=999", 400), ("nosuch", 404)):
        st, body = get_json(url + "api/" + q)
        check(st == code and "error" in body, "api/%s answers %d with a JSON error" % (q, code),
              "%d %s" % (st, str(body)[:200]))
    m = re.match(r"^(http://[^/]+/)([0-9a-f]{32})/$", url)
    wrong = "%x" % (int(m.group(2), 16) ^ 1)
    for u in (m.group(1) + wrong.rjust(32, "0") + "/api/summary", m.group(1), m.group(1) + "api/summary"):
        st, h, body = get(u)
        check(st == 403 and b"stale" in body, "a wrong token gets 403 (%s)" % u[len(m.group(1)):][:20])

    # search: every call whose text holds the word, case-insensitively, as dump shows it
    word = "glViewport" if info["API"].startswith("OpenGL") else "gl"
    r = run([GLTRACE, "dump", "--color=never", "--multiline=no", "-v", TRACE])
    exp = [int(l.split(" ", 1)[0]) for l in r.stdout.decode("utf-8", "replace").split("\n")
           if l and l[0].isdigit() and word.lower() in l.split(" ", 1)[1].lower()]
    got, frm, rounds = [], 0, 0
    while frm is not None and rounds < 50:
        st, h, body = get(url + "api/search?q=%s&from=%d&limit=50" % (word.upper(), frm))
        lines = [json.loads(l) for l in body.decode().split("\n") if l]
        got += [l["no"] for l in lines if "no" in l]
        frm = lines[-1].get("next") if lines and lines[-1].get("done") else None
        rounds += 1
    check(got == exp, "search %s finds dump's calls (%d)" % (word.upper(), len(exp)),
          "got %d, first %r vs %r" % (len(got), got[:5], exp[:5]))
    return fr


def apitrace_marker():
    """The call number of the state snapshot's end marker as `apitrace dump` (the peer)
    prints the trace; None when it is not there or apitrace is missing."""
    try:
        r = run(["apitrace", "dump", "--color=never", TRACE])
    except OSError:
        return None
    for l in r.stdout.decode("utf-8", "replace").split("\n"):
        m = re.match(r"^(\d+) glStringMarkerGREMEDY\(.*gltrace: end of the state snapshot", l)
        if m:
            return int(m.group(1))
    return None


def check_snapshot(url, info, fr):
    """A frame range's trace (gltrace --frames=A-B, its name NAME.A-B.trace): summary's
    snapshot is info's, its end marker the one apitrace dump shows, frame 0's calls up to
    it flagged and no other call, each frame numbered A+k. Any other trace: none of it."""
    st, s = get_json(url + "api/summary")
    snap, want = s.get("snapshot", "absent"), info.get("Snapshot")
    frames = fr["frames"]
    if not want:
        check(snap is None, "no snapshot: summary's snapshot is null", repr(snap))
        check(all("program_frame" not in f for f in frames), "no snapshot: frames have no program_frame")
        st, c = get_json(url + "api/calls?frame=0&count=10000")
        check(st != 200 or not any(x.get("snapshot") for x in c["calls"]),
              "no snapshot: no call of frame 0 is flagged snapshot")
        return
    m = re.search(r"\.(\d+)-(\d+)\.trace$", NAME)
    first = int(m.group(1)) if m else want["FirstFrame"]
    check(isinstance(snap, dict) and snap.get("first_frame") == want["FirstFrame"] == first,
          "snapshot's first_frame is info's FirstFrame and the range's first frame",
          "%r, %r, %r" % (snap, want, first))
    if not isinstance(snap, dict):
        return
    peer = apitrace_marker()
    check(snap.get("end_call") == want["EndCall"] and (peer == want["EndCall"] or
                                                       peer is None and not shutil.which("apitrace")),
          "snapshot's end_call is info's EndCall and apitrace dump's marker",
          "%r, %r, %r" % (snap.get("end_call"), want["EndCall"], peer))
    if m:
        check(len([f for f in frames if f.get("complete", True)]) == int(m.group(2)) - first + 1,
              "the range's trace has frames A..B")
    check([f.get("program_frame") for f in frames] == [first + f["frame"] for f in frames],
          "frame k's program_frame is A+k")
    st, c = get_json(url + "api/calls?frame=0&count=10000")
    calls = c.get("calls", [])
    nos = [x["no"] for x in calls]
    end = nos.index(want["EndCall"]) if want["EndCall"] in nos else -1
    check(end >= 0 and snap.get("calls") == end + 1, "snapshot's calls count frame 0's calls up to "
          "the marker", "%r, marker at %d" % (snap.get("calls"), end))
    flags = [bool(x.get("snapshot")) for x in calls]
    check(end >= 0 and flags == [True] * (end + 1) + [False] * (len(calls) - end - 1),
          "frame 0: the calls up to the marker, and only they, are flagged snapshot",
          "%d flagged, marker at %d" % (sum(flags), end))
    check(all("// fake" in x["text"] for x in calls[:end + 1]),
          "frame 0: the snapshot's calls are fake calls")
    st, c2 = get_json(url + "api/calls?frame=0&first=%d&count=3" % max(0, end - 1))
    check([bool(x.get("snapshot")) for x in c2.get("calls", [])] == flags[max(0, end - 1):max(0, end - 1) + 3],
          "frame 0: a page from the middle is flagged as the whole frame")
    later = [x for f in frames[1:] for x in
             get_json(url + "api/calls?frame=%d&count=10000" % f["frame"])[1].get("calls", [])]
    check(later and not any(x.get("snapshot") for x in later), "no call after frame 0 is flagged snapshot")


def check_state(url, calls):
    """api/state equals glretrace -D of the call it dumped (the call asked for, or the
    first later one where state can be read), for a call and then one behind it (the
    state server restarts)."""
    for n in calls:
        st, j = get_json(url + "api/state?call=%d" % n)
        if not check(st == 200 and "job" in j, "state of call %d starts a job" % n, str(j)):
            continue
        st, j2 = wait_job(url, j["job"])
        if not check(j2.get("state") == "done", "state job of call %d is done" % n, str(j2)[:300]):
            continue
        st, h, body = get(url + j2["result"])
        d = j2.get("call", n)
        check(d >= n, "state of call %d dumps call %d, not before" % (n, d))
        r = run([GLRETRACE, "--headless", "-D", str(d), TRACE])
        try:
            same = json.loads(body) == json.loads(r.stdout)
        except ValueError as e:
            same = False
        check(st == 200 and same, "state of call %d equals glretrace -D %d" % (n, d),
              "%d, %d bytes vs %d" % (st, len(body), len(r.stdout)))


def check_replays(url, fr):
    st, j = get_json(url + "api/job?id=1")  # the thumbnails, started at startup
    st, j = wait_job(url, 1)
    check(j.get("state") == "done", "the thumbnail job ends done", str(j))
    st, h, body = get(url + "api/thumb?frame=0")
    check(st == 200 and h.get("Content-Type") == "image/png" and body[:8] == b"\x89PNG\r\n\x1a\n",
          "thumb of frame 0 is a PNG")
    st, fr2 = get_json(url + "api/frames?first=0&count=3")
    check(all(f["thumb"] for f in fr2["frames"] if f.get("complete", True)), "frames say thumb: true once made")
    st, j = get_json(url + "api/timeline")
    st, j2 = wait_job(url, j.get("job", 0))
    if check(j2.get("state") == "done", "the timeline job ends done", str(j2)):
        st, h, body = get(url + j2["result"])
        check(st == 200 and "attachment" in (h.get("Content-Disposition") or "") and
              "traceEvents" in json.loads(body), "the timeline is Chrome JSON, as a download")
        check_frame_times(url, json.loads(body))
        check_slices(url, json.loads(body))
    check_diff(url)


def check_slices(url, chrome):
    """api/slices?first=F&count=C: the timeline's slices of those frames, against the
    Chrome JSON read here: every CPU (gl) and GPU slice whose args.frame is in the range,
    with its call, start and duration (ns from the µs text) and name; the frame markers;
    the debug groups overlapping the calls."""
    events = chrome["traceEvents"] if isinstance(chrome, dict) else chrome
    frames = sorted({int(e["args"]["frame"]) for e in events
                     if e.get("ph") == "X" and e.get("cat") == "gl" and "frame" in (e.get("args") or {})})
    if not check(frames, "the timeline has calls with frames"):
        return
    for first, count in ((frames[0], 1), (frames[len(frames) // 2], 2), (frames[-1], 1)):
        st, j = get_json(url + "api/slices?first=%d&count=%d" % (first, count))
        if not check(st == 200 and "cpu" in j, "api/slices?first=%d&count=%d answers" % (first, count),
                     "%s %s" % (st, str(j)[:200])):
            continue
        want = {"gl": [], "gpu": []}
        for e in events:
            a = e.get("args") or {}
            if e.get("ph") == "X" and e.get("cat") in want and isinstance(a.get("frame"), int) and \
                    first <= a["frame"] < first + count and "call" in a:
                want[e["cat"]].append((round(e["ts"] * 1000), round(e["dur"] * 1000), a["call"], e["name"]))
        names = j["names"]
        got_cpu = sorted((s[0], s[1], s[2], names[s[3]]) for s in j["cpu"])
        got_gpu = sorted((s[0], s[1], s[2], names[s[3]]) for s in j["gpu"])
        # each µs text is rounded to ns once, here and in the reader: 1 ns at most
        close = lambda a, b: len(a) == len(b) and all(
            abs(x[0] - y[0]) <= 1 and abs(x[1] - y[1]) <= 1 and x[2:] == y[2:] for x, y in zip(a, b))
        check(close(got_cpu, sorted(want["gl"])),
              "frames %d-%d: api/slices' CPU slices are the JSON's (%d)" % (first, first + count - 1, len(want["gl"])),
              "%d vs %d, first %s vs %s" % (len(got_cpu), len(want["gl"]), got_cpu[:1], sorted(want["gl"])[:1]))
        check(close(got_gpu, sorted(want["gpu"])),
              "frames %d-%d: api/slices' GPU slices are the JSON's (%d)" % (first, first + count - 1, len(want["gpu"])),
              "%d vs %d" % (len(got_gpu), len(want["gpu"])))
        check(all(j["t0"] <= s[0] and s[0] + s[1] <= j["t1"] + 1 for s in j["cpu"]),
              "frames %d-%d: t0-t1 spans the CPU slices" % (first, first + count - 1))
        # every call of the range in the dump has its CPU slice (glretrace times each call it replays)
        st2, fr = get_json(url + "api/frames?first=%d&count=%d" % (first, count))
        ncalls = sum(f["calls"] for f in fr.get("frames", []))
        check(0 < len(got_cpu) <= ncalls, "frames %d-%d: %d CPU slices for %d calls" %
              (first, first + count - 1, len(got_cpu), ncalls))
    st, j = get_json(url + "api/slices?first=99999999")
    check(st == 400 and "error" in j, "api/slices past the last frame: 400", "%s %s" % (st, j))
    st, j = get_json(url + "api/slices?first=0&count=x")
    check(st == 400 and "error" in j, "api/slices with a bad count: 400", "%s %s" % (st, j))


def check_frame_of(url, frames_info):
    """api/frame_of?call=N: the frame whose call range (info --dump-frames) holds N."""
    if not frames_info:   # no complete frame (a cut trace): nothing to look up
        return
    picks = [frames_info[0], frames_info[len(frames_info) // 2], frames_info[-1]]
    for i, f in enumerate(picks):
        k = frames_info.index(f)
        for no in sorted({f["FirstCallId"], f["LastCallId"], (f["FirstCallId"] + f["LastCallId"]) // 2}):
            st, j = get_json(url + "api/frame_of?call=%d" % no)
            check(st == 200 and j.get("frame") == k and j.get("call") == no,
                  "api/frame_of?call=%d is frame %d" % (no, k), "%s %s" % (st, j))
    st, j = get_json(url + "api/frame_of?call=4294967295")
    check(st == 400 and "error" in j, "api/frame_of past the last call: 400", "%s %s" % (st, j))
    st, j = get_json(url + "api/frame_of")
    check(st == 400 and "error" in j, "api/frame_of without call=: 400", "%s %s" % (st, j))


def check_frame_times(url, chrome):
    """Once the timeline job is done, api/frames has each frame's CPU time (the sum of
    its calls' slices, category gl) and GPU time (its slices of category gpu) as summed
    here from the same Chrome JSON, by their args.frame."""
    st, fr = get_json(url + "api/frames?first=0&count=100000")
    frames = fr.get("frames", [])
    check(st == 200 and fr.get("times") == "done", "frames say times: done once the timeline is done",
          str(fr.get("times")))
    events = chrome["traceEvents"] if isinstance(chrome, dict) else chrome
    n = len(frames)
    cpu, gpu, ncpu, ngpu = [0] * n, [0] * n, [0] * n, [0] * n
    any_gpu = False
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in ("gl", "gpu"):
            continue
        f, dur = (e.get("args") or {}).get("frame"), e.get("dur", 0)
        if not isinstance(f, (int, float)) or dur <= 0 or not 0 <= f < n:
            continue
        f = int(f)
        if e["cat"] == "gl":
            cpu[f] += round(dur * 1000)
            ncpu[f] += 1
        else:
            gpu[f] += round(dur * 1000)
            ngpu[f] += 1
            any_gpu = True
    # each slice's µs text is rounded to ns once, here and there: a ns per slice at most
    bad_cpu = [(i, x.get("cpu_ns"), cpu[i]) for i, x in enumerate(frames)
               if x.get("cpu_ns") is None or abs(x["cpu_ns"] - cpu[i]) > ncpu[i] + 1]
    check(n > 0 and not bad_cpu, "every frame's cpu_ns is the sum of its calls' CPU slices (%d frames, "
          "%d ns in all)" % (n, sum(cpu)), "first differences: %r" % bad_cpu[:3])
    if any_gpu:
        bad_gpu = [(i, x.get("gpu_ns"), gpu[i]) for i, x in enumerate(frames)
                   if x.get("gpu_ns") is None or abs(x["gpu_ns"] - gpu[i]) > ngpu[i] + 1]
        check(not bad_gpu, "every frame's gpu_ns is the sum of its GPU slices (%d ns in all)" % sum(gpu),
              "first differences: %r" % bad_gpu[:3])
    else:
        check(all(x.get("gpu_ns") is None for x in frames),
              "no GPU slices in the timeline: gpu_ns is null")
    drawn = [x for x in frames if x.get("draws")]
    check(drawn and all(x["cpu_ns"] and x["cpu_ns"] > 0 for x in drawn),
          "every frame with draws has cpu_ns > 0 (%d frames)" % len(drawn),
          str([(x["frame"], x.get("cpu_ns")) for x in drawn if not x.get("cpu_ns")][:5]))


def write_png(path, w, h, rows):
    """An RGB8 PNG of rows (bytes, top-down)."""
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    raw = b"".join(b"\0" + r for r in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def changed_copy(src, dst, size=16):
    """dst: src with its top-left size x size square changed by at least 128 in every
    channel; returns the number of pixels changed."""
    w, h, rows = decode_png(src)
    s = min(size, w, h)
    out = []
    for y, r in enumerate(rows):
        r = bytearray(r)
        if y < s:
            for i in range(3 * s):
                r[i] = 0 if r[i] > 127 else 255
        out.append(bytes(r))
    write_png(dst, w, h, out)
    return s * s


def check_diff(url):
    """api/diff: gltrace diff-images on two folders made from the thumbnails, one image
    changed: its verdicts, the report and the images under diff/N/."""
    st, s = get_json(url + "api/summary")
    thumbs = s.get("thumbs_dir")
    have = sorted(n for n in os.listdir(thumbs) if n.endswith(".png"))[:3] if thumbs else []
    if not check(have, "the summary names the thumbnails folder, with thumbnails", "%r" % thumbs):
        return
    # three images: the thumbnails, or copies of the first under other names
    names = sorted(have + ["copy%d.png" % i for i in range(3 - len(have))])
    work = os.path.dirname(os.path.realpath(TRACE))
    ref, src = os.path.join(work, NAME + ".cmp-ref"), os.path.join(work, NAME + ".cmp-src")
    for d in (ref, src):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    for n in names:
        t = os.path.join(thumbs, n if n in have else have[0])
        shutil.copy(t, os.path.join(ref, n))
        shutil.copy(t, os.path.join(src, n))
    changed = names[len(names) // 2]
    npix = changed_copy(os.path.join(ref, changed), os.path.join(src, changed))
    # ref absolute, src relative to the trace's folder
    q = "api/diff?ref=%s&src=%s" % (urllib.parse.quote(ref), urllib.parse.quote(os.path.basename(src)))
    st, j = get_json(url + q)
    if not check(st == 200 and "job" in j, "api/diff starts a job", "%d %s" % (st, j)):
        return
    st, j2 = wait_job(url, j["job"], 120)
    if not check(j2.get("state") == "done" and j2.get("kind") == "diff", "the diff job ends done", str(j2)):
        return
    st, r = get_json(url + j2["result"])
    verdicts = {im["name"]: im["verdict"] for im in r.get("images", [])}
    check(st == 200 and verdicts == {n: "mismatch" if n == changed else "match" for n in names},
          "the diff says %s differs and the other %d match" % (changed, len(names) - 1), str(verdicts))
    check(r.get("counts") == {"match": len(names) - 1, "mismatch": 1, "missing": 0, "unreadable": 0},
          "the diff counts its verdicts", str(r.get("counts")))
    check(r.get("ref") == ref + "/" and r.get("src") == src + "/",
          "the diff names its prefixes (the relative one in the trace's folder)", "%s %s" % (r.get("ref"), r.get("src")))
    st, h, body = get(url + r.get("report", "none"))
    check(st == 200 and "text/html" in (h.get("Content-Type") or "") and changed.encode() in body and
          b"MISMATCH" in body, "the report is served as HTML, naming the differing image")
    links = re.findall(rb'src="([^"]+)"', body)
    base = url + r.get("report", "").rsplit("/", 1)[0] + "/"
    check(links and all(get(base + l.decode())[0] == 200 for l in links),
          "the report's image links are served (%d)" % len(links), str(links[:3]))
    im = next((x for x in r.get("images", []) if x["name"] == changed), {})
    st, h, body = get(url + (im.get("ref") or "none"))
    check(st == 200 and body == open(os.path.join(ref, changed), "rb").read(),
          "the reference image is served as it was")
    st, h, body = get(url + (im.get("diff") or "none"))
    if check(st == 200 and h.get("Content-Type") == "image/png", "the difference mask is served as a PNG"):
        w, hh, rows = decode_png_bytes(body)
        red = sum(1 for row in rows for x in range(w) if row[3 * x] - row[3 * x + 1] > 100)
        check(red == npix, "the difference mask marks the %d changed pixels in red" % npix, "%d red" % red)
    matched = next((x for x in r.get("images", []) if x["verdict"] == "match"), {})
    check(matched and matched.get("diff") is None and matched.get("src"),
          "a matching image has no difference mask", str(matched))
    # bad requests: a JSON error, or a failed job saying why
    for q, code in (("diff?ref=&src=x", 400), ("diff?src=x", 400)):
        st, body = get_json(url + "api/" + q)
        check(st == code and "error" in body, "api/%s answers %d with a JSON error" % (q, code),
              "%d %s" % (st, body))
    st, j = get_json(url + "api/diff?ref=no-such-folder/&src=/no/such/prefix")
    st, j2 = wait_job(url, j.get("job", 0), 60)
    check(j2.get("state") == "failed" and "no images" in j2.get("error", ""),
          "a diff of folders without images fails, saying so", str(j2))
    for path in ("diff/%d/../../%s" % (j["job"] - 1, NAME), "diff/%d/ref/%%2e%%2e/%%2e%%2e/x" % (j["job"] - 1),
                 "diff/999/index.html", "diff/1/index.html"):
        st, h, body = get(url + path)
        check(st == 404, "%s: 404" % path, str(st))


def stop(p):
    kids = children_of(p.pid)
    p.send_signal(signal.SIGINT)
    try:
        rc = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "hung"
    check(rc == 0, "SIGINT stops the server with exit 0", str(rc))
    time.sleep(0.2)
    left = [k for k in kids if os.path.exists("/proc/%d" % k) and
            open("/proc/%d/stat" % k).read().rsplit(")", 1)[1].split()[0] != "Z"]
    check(not left, "no replay outlives the server", str(left))


def main():
    p, url, t0 = start_server()
    try:
        if MODE == "damaged":
            st, s = get_json(url + "api/summary")
            check(st == 500 and "error" in s and NAME in s["error"],
                  "a damaged trace: summary answers 500 with a JSON error naming the file", str(s)[:300])
            for q in ("frames", "calls?frame=0", "search?q=gl", "state?call=0", "timeline"):
                st, body = get_json(url + "api/" + q)
                check(st >= 400 and "error" in body, "a damaged trace: api/%s is a JSON error" % q,
                      "%d %s" % (st, str(body)[:200]))
            st, h, body = get(url)
            check(st in (200, 404), "a damaged trace: the server still serves", str(st))
        else:
            info = json.loads(run([GLTRACE, "info", TRACE]).stdout)
            frames_info = json.loads(run([GLTRACE, "info", "--dump-frames", TRACE]).stdout)["Frames"]
            fr = check_basic(url, info, frames_info)
            check_snapshot(url, info, fr)
            check_frame_of(url, frames_info)
            if MODE == "full":
                check_replays(url, fr)
                last = info["CallsCount"] - 1
                ends = [f["last_call"] for f in fr["frames"]]
                check_state(url, [ends[min(3, len(ends) - 1)], ends[min(1, len(ends) - 1)], min(last, 120)])
    finally:
        if p.poll() is None:
            stop(p)
        else:
            bad("the server died", "exit %s" % p.returncode)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


main()
