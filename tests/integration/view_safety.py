#!/usr/bin/env python3
"""view_safety.py: `gltrace view` on a machine shared with other users (its
safety defects), one group of checks per defect, on a small corpus trace (tri.trace)
copied into WORK. Started by view_safety.sh.

  view_safety.py BIN_DIR TRACE WORK

1. cache: TRACE.view planted as a link to another folder, or as another user's folder,
   is not used, nor TRACE.idx planted as a link; links planted in the cache under cache files' names (a thumbnail,
   timeline.json, thumbs.log, thumbs.done) are replaced, never written through; a 0600
   trace gets a 0700 cache, 0600 files and a 0600 index.
2. walk: diff-images and api/diff over a folder of self-links end at once; a missing
   folder says "no such folder", never "out of memory"; SIGTERM then ends the server.
3. comparison: a link src/b.png -> a secret text file is not served.
4. --open: xdg-open gets the path of a 0600 redirect page, not the URL with the token.
5. 1,100 idle connections do not lock out a request with the token.
6. defence in depth: another Host, a cross-origin Origin and a %00 are refused; CSP and
   X-Frame-Options are sent; --listen on a non-loopback address warns; the server's
   messages never carry the token.
7. a trace truncated or replaced while served: every API answer says so (409).
Prints FAIL lines (PASS with IT_VERBOSE) and a last line "N passed, M failed"."""
import http.client
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zlib

BIN, TRACE0, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
GLTRACE = os.path.join(BIN, "gltrace")
passed = failed = 0


def ok(what):
    global passed
    passed += 1
    if os.environ.get("IT_VERBOSE"):
        print("PASS: %s" % what, flush=True)


def bad(what, detail=""):
    global failed
    failed += 1
    print("FAIL: %s%s" % (what, (": " + str(detail)[:300]) if detail else ""), flush=True)


def check(cond, what, detail=""):
    ok(what) if cond else bad(what, detail)
    return cond


def get(url, timeout=30, headers=None):
    """(status, headers, body); HTTP errors are answers too; (None, None, why) when the
    connection failed."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()
    except (OSError, http.client.HTTPException) as e:
        return None, None, repr(e).encode()


def get_json(url, **kw):
    st, h, body = get(url, **kw)
    try:
        return st, json.loads(body)
    except ValueError:
        return st, {"unparsable": body[:200]}


def raw_get(port, path, headers):
    """A GET with exactly these headers (Host included): (status, headers, body)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        c.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        for k, v in headers.items():
            c.putheader(k, v)
        c.endheaders()
        r = c.getresponse()
        return r.status, r.headers, r.read()
    except (OSError, http.client.HTTPException) as e:
        return None, None, repr(e).encode()
    finally:
        c.close()


SERVERS = []


class Server:
    def __init__(self, trace, args=(), env=None):
        SERVERS.append(self)
        self.err_path = trace + ".stderr-%d" % time.monotonic_ns()
        self.err = open(self.err_path, "w")
        self.p = subprocess.Popen([GLTRACE, "view"] + list(args) + [trace],
                                  stdout=subprocess.PIPE, stderr=self.err, env=env)
        self.url = self.p.stdout.readline().decode().strip()
        m = re.match(r"^http://127\.0\.0\.1:(\d+)/([0-9a-f]{32})/$", self.url)
        self.port, self.token = (int(m.group(1)), m.group(2)) if m else (0, "")

    def stderr(self):
        if not self.err.closed:
            self.err.flush()
        with open(self.err_path, errors="replace") as f:
            return f.read()

    def job(self, jid, timeout=120):
        """Waits for job jid to end: its last answer."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            st, j = get_json(self.url + "api/job?id=%d" % jid)
            if st == 400 and "no job" in j.get("error", "") and time.monotonic() - t0 < 10:
                time.sleep(0.1)  # the thumbnails' job is made just after the URL is printed
                continue
            if st != 200 or j.get("state") != "running":
                return j
            time.sleep(0.2)
        return {"state": "timeout"}

    def stop(self, timeout=15):
        """SIGTERM; True when it exits 0 in time (else it is killed)."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            rc = None
        self.err.close()
        return rc == 0


def fresh(name, mode=None):
    """A folder of its own with a copy of the trace: its path."""
    d = os.path.join(WORK, name)
    os.makedirs(d)
    t = os.path.join(d, "t.trace")
    shutil.copyfile(TRACE0, t)
    if mode is not None:
        os.chmod(t, mode)
    return t


def png_bytes(w, h, rgb):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    rows = b"".join(b"\0" + bytes(rgb) * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def thumbs_and_timeline(s):
    """Waits for the thumbnails (job 1) and the timeline: their answers."""
    thumbs = s.job(1)
    st, t = get_json(s.url + "api/timeline")
    timeline = s.job(t["job"]) if st == 200 else {"state": "none", "answer": t}
    return thumbs, timeline


# ---- 1. the cache ------------------------------------------------------------------------

def check_cache():
    # frames' last calls (thumbnail names) from a first, unharmed run
    t = fresh("cache0")
    s = Server(t)
    st, fr = get_json(s.url + "api/frames?first=0&count=100")
    s.stop()
    names = ["%010d.png" % f["last_call"] for f in fr.get("frames", [])]
    check(st == 200 and names, "cache: the trace's frames", fr)

    # a) TRACE.view is a link to a folder of the user's; b) another user's folder
    for kind in ("link", "other-user"):
        t = fresh("cache-" + kind)
        elsewhere = os.path.join(WORK, "elsewhere-" + kind)
        os.makedirs(elsewhere)
        if kind == "link":
            os.symlink(elsewhere, t + ".view")
            # and TRACE.idx as a link to an empty file of the user's: not replaced
            idx_victim = os.path.join(WORK, "victim-idx")
            open(idx_victim, "w").close()
            os.symlink(idx_victim, t + ".idx")
        else:
            os.makedirs(t + ".view")
            os.chown(t + ".view", 65534, 65534)
            elsewhere = t + ".view"
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(WORK, "xdg-" + kind))
        s = Server(t, env=env)
        thumbs, _ = thumbs_and_timeline(s)
        s.stop()
        check(os.listdir(elsewhere) == [],
              "cache: a planted TRACE.view (%s) is not written into" % kind, os.listdir(elsewhere))
        check("not used as the cache" in s.stderr(),
              "cache: a planted TRACE.view (%s) is refused with a message" % kind, s.stderr()[-300:])
        check(thumbs.get("state") == "done",
              "cache: thumbnails made in the user's cache instead (%s)" % kind, thumbs)
        if kind == "link":
            check(os.path.getsize(idx_victim) == 0, "cache: a link planted as TRACE.idx is "
                  "not written through", os.path.getsize(idx_victim))

    # c) links planted in the cache under its files' names; a 0600 trace
    old = os.umask(0o022)
    try:
        t = fresh("cache-links", 0o600)
        cache = t + ".view"
        os.makedirs(cache + "/thumbs")
        victims = {}
        for rel in ["thumbs/" + names[0], "timeline.json", "thumbs.log", "timeline.log",
                    "thumbs.done"]:
            v = os.path.join(WORK, "victim-" + rel.replace("/", "_"))
            with open(v, "w") as f:
                f.write("precious\n")
            os.symlink(v, os.path.join(cache, rel))
            victims[rel] = v
        s = Server(t)
        thumbs, timeline = thumbs_and_timeline(s)
        st, _, png = get(s.url + "api/thumb?frame=0")
        s.stop()
        check(thumbs.get("state") == "done" and timeline.get("state") == "done",
              "cache: thumbnails and timeline made beside planted links", (thumbs, timeline))
        for rel, v in victims.items():
            with open(v, "rb") as f:
                check(f.read() == b"precious\n", "cache: a link planted as %s is not written "
                      "through" % rel)
        check(st == 200 and png.startswith(b"\x89PNG"), "cache: the thumbnail served is the "
              "replay's", png[:40])
        modes = {}
        for root, dirs, files in os.walk(cache):
            for n in dirs + files:
                p = os.path.join(root, n)
                st_ = os.lstat(p)
                if not stat.S_ISLNK(st_.st_mode):
                    modes[os.path.relpath(p, cache)] = stat.S_IMODE(st_.st_mode)
        modes["."] = stat.S_IMODE(os.stat(cache).st_mode)
        wrong = {k: oct(m) for k, m in modes.items()
                 if m != (0o700 if os.path.isdir(os.path.join(cache, k)) else 0o600)}
        check(len(modes) > 4 and not wrong, "cache: a 0600 trace's cache is 0700/0600", wrong)
        idx = stat.S_IMODE(os.stat(t + ".idx").st_mode) if os.path.exists(t + ".idx") else None
        check(idx == 0o600, "cache: a 0600 trace's index is 0600", oct(idx or 0))
    finally:
        os.umask(old)


# ---- 2. the walk, 3. what a comparison serves ---------------------------------------------

def loop_dir(base):
    """A folder whose links lead back to itself, four ways: a walk that follows them
    has 4^depth folders to read."""
    os.makedirs(base)
    for n in "abcd":
        os.symlink(base, os.path.join(base, n))
    return base


def check_walk():
    loops = loop_dir(os.path.join(WORK, "walk", "loop"))
    t0 = time.monotonic()
    try:
        r = subprocess.run([GLTRACE, "diff-images", loops + "/x", loops + "/y"],
                           capture_output=True, timeout=30, cwd=WORK)
        dt, out = time.monotonic() - t0, r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        dt, out = None, "still walking after 30 s"
    check(dt is not None and dt < 10 and "out of memory" not in out,
          "walk: diff-images over a folder of self-links ends, without a false out of memory",
          "%s s: %s" % (dt, out[-200:]))
    r = subprocess.run([GLTRACE, "diff-images", WORK + "/no-such/x/", WORK + "/no-such/y/"],
                       capture_output=True, timeout=30)
    err = r.stderr.decode(errors="replace")
    check(r.returncode == 1 and "no such folder" in err and "out of memory" not in err,
          "walk: diff-images on a missing folder says no such folder", err)

    t = fresh("walk-server")
    s = Server(t)
    res = {}
    for what, ref in (("loop", "../walk/loop/x"), ("missing", WORK + "/no-such/")):
        st, j = get_json(s.url + "api/diff?ref=%s&src=%s" % (ref, ref))
        res[what] = s.job(j["job"], timeout=20) if st == 200 else {"answer": j}
    check(res["loop"].get("state") == "failed" and
          "out of memory" not in res["loop"].get("error", ""),
          "walk: api/diff over self-links ends (failed: no images) within 20 s", res["loop"])
    check(res["missing"].get("state") == "failed" and
          "no such folder" in res["missing"].get("error", ""),
          "walk: api/diff on a missing folder says no such folder", res["missing"])
    t0 = time.monotonic()
    stopped = s.stop(timeout=15)
    check(stopped, "walk: SIGTERM ends the server after the comparisons (%.1f s)" %
          (time.monotonic() - t0))


def check_comparison():
    t = fresh("cmp")
    d = os.path.dirname(t)
    secret = os.path.join(WORK, "secret.txt")
    with open(secret, "w") as f:
        f.write("root:x:0:0:secret\n")
    for side in ("ref", "src"):
        os.makedirs(os.path.join(d, side))
        with open(os.path.join(d, side, "a.png"), "wb") as f:
            f.write(png_bytes(4, 4, (10, 20, 30)))
    with open(os.path.join(d, "ref", "b.png"), "wb") as f:
        f.write(png_bytes(4, 4, (1, 2, 3)))
    os.symlink(secret, os.path.join(d, "src", "b.png"))
    s = Server(t)
    st, j = get_json(s.url + "api/diff?ref=ref&src=src")
    job = s.job(j["job"]) if st == 200 else {"answer": j}
    st, r = get_json(s.url + "api/result?job=%d" % j.get("job", 0))
    leaked = []
    urls = ["diff/%d/src/b.png" % j.get("job", 0)]
    for im in r.get("images", []):
        urls += [im[k] for k in ("ref", "src", "diff") if im.get(k)]
    for u in urls:
        code, _, body = get(s.url + u)
        if body and b"secret" in body:
            leaked.append(u)
    s.stop()
    check(job.get("state") == "done", "comparison: the job ends", job)
    check(not leaked, "comparison: a link to a text file is not served as an image", leaked)
    verdicts = {im["name"]: im["verdict"] for im in r.get("images", [])}
    check(verdicts.get("a.png") == "match", "comparison: the real images still compared",
          verdicts)


# ---- 4. --open ------------------------------------------------------------------------------

def check_open():
    t = fresh("open")
    fake = os.path.join(WORK, "fakebin")
    os.makedirs(fake)
    record = os.path.join(WORK, "xdg-open.args")
    with open(os.path.join(fake, "xdg-open"), "w") as f:
        f.write('#!/bin/sh\n'
                'for a in "$@"; do printf "%%s\\n" "$a"; done > "%s.tmp"\n'
                'if [ -f "$1" ]; then stat -c %%a "$1" >> "%s.tmp"; cat "$1" >> "%s.tmp"; fi\n'
                'mv "%s.tmp" "%s"\n' % ((record,) * 5))
    os.chmod(os.path.join(fake, "xdg-open"), 0o755)
    env = dict(os.environ, PATH=fake + ":" + os.environ["PATH"])
    s = Server(t, ["--open"], env=env)
    for _ in range(100):
        if os.path.exists(record):
            break
        time.sleep(0.1)
    s.stop()
    lines = open(record).read().split("\n") if os.path.exists(record) else []
    arg = lines[0] if lines else ""
    check(s.token and s.token not in arg, "open: xdg-open's argument holds no token", arg)
    check(len(lines) > 2 and lines[1] == "600" and s.token in "".join(lines[2:]),
          "open: it names a 0600 page that leads to the URL", lines[:3])


# ---- 5. idle connections ------------------------------------------------------------------

def check_idle():
    t = fresh("idle")
    s = Server(t)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 4096)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    socks = []
    try:
        for _ in range(1100):
            c = socket.socket()
            c.settimeout(5)
            try:
                c.connect(("127.0.0.1", s.port))
            except OSError:
                c.close()
                break
            socks.append(c)
        time.sleep(1)
        t0 = time.monotonic()
        st, _, body = get(s.url + "api/summary", timeout=20)
        dt = time.monotonic() - t0
        check(st == 200, "idle: %d idle connections do not lock out a request with the token "
              "(%.1f s)" % (len(socks), dt), body[:200])
    finally:
        for c in socks:
            c.close()
    check(s.stop(), "idle: SIGTERM ends the server")


# ---- 6. defence in depth -------------------------------------------------------------------

def check_defence():
    t = fresh("defence")
    s = Server(t)
    host = "127.0.0.1:%d" % s.port
    base = "/%s/" % s.token
    st, _, _ = raw_get(s.port, base + "api/summary", {"Host": "evil.example:%d" % s.port})
    check(st == 403, "defence: another Host (DNS rebinding) is refused", st)
    st, _, _ = raw_get(s.port, base + "api/summary", {"Host": host})
    check(st == 200, "defence: our own Host is served", st)
    st, _, _ = raw_get(s.port, base + "api/summary", {"Host": "localhost:%d" % s.port})
    check(st == 200, "defence: localhost is served", st)
    st, _, _ = raw_get(s.port, base + "api/summary",
                       {"Host": host, "Origin": "http://evil.example"})
    check(st == 403, "defence: a cross-origin API request is refused", st)
    st, _, _ = raw_get(s.port, base + "api/summary", {"Host": host, "Origin": "http://" + host})
    check(st == 200, "defence: a same-origin API request is served", st)
    for path in ("", "api/summary"):
        st, h, _ = get(s.url + path)
        csp = h.get("Content-Security-Policy", "") if h else ""
        check("frame-ancestors 'none'" in csp and "script-src 'self'" in csp and
              h.get("X-Frame-Options") == "DENY",
              "defence: CSP and X-Frame-Options on /%s" % path, dict(h or {}))
    for path in ("api/summary%00x", "index.html%00.png", "api/frames?first=0%00"):
        st, _, _ = raw_get(s.port, base + path, {"Host": host})
        check(st == 400, "defence: %%00 in %s is 400" % path, st)
    s.stop()
    check(s.token not in s.stderr(), "defence: the server's messages never carry the token")
    # a non-loopback address warns before it binds: a port taken on 127.0.0.1 makes the
    # bind to every address fail, so nothing is ever served to the network here
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    r = subprocess.run([GLTRACE, "view", "--listen", "0.0.0.0:%d" % taken.getsockname()[1], t],
                       capture_output=True, timeout=60)
    taken.close()
    err = r.stderr.decode(errors="replace")
    check("network" in err and "warning" in err,
          "defence: --listen 0.0.0.0 warns that the trace is served to the network", err[-300:])


# ---- 7. a trace changed while served ---------------------------------------------------------

def check_changed():
    for how in ("truncated", "replaced"):
        t = fresh("changed-" + how)
        s = Server(t)
        st0, _ = get_json(s.url + "api/frames?first=0&count=10")
        time.sleep(0.05)
        if how == "truncated":
            with open(t, "r+b") as f:
                f.truncate(os.path.getsize(t) // 2)
        else:
            other = t + ".new"
            shutil.copyfile(TRACE0, other)
            os.rename(other, t)
        answers = {}
        for path in ("api/summary", "api/frames?first=0&count=10", "api/calls?frame=0",
                     "api/search?q=gl"):
            answers[path] = get_json(s.url + path)
        st, h, _ = get(s.url)
        s.stop()
        check(st0 == 200, "changed: served before (%s)" % how, st0)
        wrong = {p: a for p, a in answers.items()
                 if a[0] != 409 or "changed" not in a[1].get("error", "")}
        check(not wrong, "changed: every API answer says the trace was %s" % how, wrong)
        check(st == 200 and h and h.get("X-Gltrace-Trace-Changed") == "1",
              "changed: the page's answer carries X-Gltrace-Trace-Changed (%s)" % how,
              dict(h or {}))


def main():
    for f in (check_cache, check_walk, check_comparison, check_open, check_idle, check_defence,
              check_changed):
        t0 = time.monotonic()
        try:
            f()
        except Exception as e:  # a crash is a failure of that group, not of the rest
            bad("%s raised" % f.__name__, repr(e))
        if os.environ.get("IT_VERBOSE"):
            print("  %s: %.1f s" % (f.__name__, time.monotonic() - t0), flush=True)
    for s in SERVERS:  # any left by a group that raised
        if s.p.poll() is None:
            s.p.kill()
            s.p.wait()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
