#!/usr/bin/env python3
"""view_api.py: checks `gltrace view`'s HTTP API (cli/view/API.md) against the command
line tools on one trace. Started by view_api.sh, which copies the trace to a work dir.

  view_api.py BIN_DIR TRACE MODE
MODE: full (every check), damaged (the trace cannot be read: JSON errors, still serving),
basic (no replays: summary, frames, calls, search).
Prints PASS/FAIL lines and a last line "N passed, M failed"; exits 1 on any failure."""
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

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
