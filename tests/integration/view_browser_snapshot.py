#!/usr/bin/env python3
"""The page on a frame range's trace (`gltrace --frames=A-B`, named NAME.A-B.trace), in
headless Chromium: the summary says "frame range A-B with a state snapshot of N calls",
frame k is labelled with the program's frame A+k, frame 0's snapshot calls (up to the end
marker that `gltrace info` names) are drawn muted and a separator row "state snapshot ends
— program frame A begins" follows the marker; frame 1 has neither.

usage: view_browser_snapshot.py --gltrace BIN --trace TRACE --artifacts DIR
Prints "N passed, M failed"; exit 0 when nothing failed, 1 when something did, 77 when
Selenium is missing (view_browser.sh checks first)."""
import argparse
import json
import os
import re
import time

from view_page import Page, Server, bad, check, finish, run

# the call rows drawn, top to bottom: [class, data-no, text]
ROWS_JS = """return [...document.querySelectorAll('#calls > .call')]
  .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
  .map(e => [e.className, e.dataset.no === undefined ? null : Number(e.dataset.no), e.textContent]);"""


# scrolls the call list so that call %d (frame 0's end marker) is in view
SCROLL_JS = """const c = document.querySelector('#calls');
const r = c.querySelector('.call');
let p = c;
while (p && p.scrollHeight <= p.clientHeight) p = p.parentElement;
if (p && r) p.scrollTop = Math.max(0, (%d - 5) * r.offsetHeight);
return true;"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gltrace', required=True)
    ap.add_argument('--trace', required=True)
    ap.add_argument('--artifacts', required=True)
    a = ap.parse_args()
    os.makedirs(a.artifacts, exist_ok=True)
    t0 = time.time()
    m = re.search(r'\.(\d+)-(\d+)\.trace$', a.trace)
    rc, out, err = run([a.gltrace, 'info', a.trace], 60)
    info = json.loads(out) if rc == 0 else {}
    snap = info.get('Snapshot')
    if not check(m and snap and snap['FirstFrame'] == int(m.group(1)),
                 'gltrace info says where the range trace\'s snapshot ends', repr(snap)):
        return finish(t0, a.artifacts)
    first, last, end = int(m.group(1)), int(m.group(2)), snap['EndCall']
    srv = Server(a.gltrace, a.trace, os.path.join(a.artifacts, 'server.log'))
    page = None
    try:
        if not check(srv.url, 'gltrace view prints its URL'):
            return finish(t0, a.artifacts)
        page = Page(a.artifacts)
        steps(page, srv.url, first, last, end)
    except Exception as e:  # a step that broke stops the rest, never the cleanup
        bad('the browser test stopped: %s: %s' % (type(e).__name__, str(e).split('\n')[0][:400]))
    finally:
        if page:
            for msg in page.js_errors():
                bad('JavaScript error in the page: ' + msg[:300])
            page.d.quit()
        rc, why = srv.stop()
        check(rc == 0, 'the server stops on SIGINT with exit 0', 'exit %s %s' % (rc, why))
    return finish(t0, a.artifacts, page.shots if page else [])


def steps(page, url, first, last, end):
    page.d.get(url)
    page.wait('the page ready', lambda: page.attr('body', 'data-ready') == '1', 60)
    # the marker is frame 0's (end+1)-th call only when calls are numbered from 0 in order:
    # the count is read from the rows below instead
    summary = page.js("const e = document.querySelector('#summary .snapshot-summary');"
                      "return e ? e.textContent : null")
    sm = re.match(r'^, frame range (\d+)-(\d+) with a state snapshot of ([\d,]+) calls?$', summary or '')
    check(sm and (int(sm.group(1)), int(sm.group(2))) == (first, last),
          'the summary line names the frame range %d-%d' % (first, last), repr(summary))
    names = page.wait('frame names', lambda: page.js(
        "return [...document.querySelectorAll('#frames .frame[data-frame]')]"
        ".map(e => [Number(e.dataset.frame), e.querySelector('.frame-name').textContent])") or None, 30)
    check(names and all(t.startswith('Frame %d (program frame %d)' % (k, first + k)) for k, t in names),
          'frame k is labelled "Frame k (program frame %d+k)"' % first, repr(names))

    page.click('#frames .frame[data-frame="0"]')
    page.wait('frame 0\'s first rows', lambda: page.attr('#calls', 'data-frame') == '0' and
              page.js(ROWS_JS) or None, 30)
    # a snapshot of hundreds of calls: the list draws the rows in view, so it is scrolled
    # to the end marker first
    page.js(SCROLL_JS % end)
    rows = page.wait('frame 0\'s rows and the separator', lambda: (
        lambda r: r if any('snapshot-sep' in c for c, n, t in r) and
        all('loading' not in c for c, n, t in r) else None)(page.js(ROWS_JS)), 30)
    rows = rows or page.js(ROWS_JS)
    seps = [i for i, (c, n, t) in enumerate(rows) if 'snapshot-sep' in c]
    if not check(len(seps) == 1, 'frame 0: one separator row', repr(rows[:12])):
        page.shot('snapshot-frame0.png')
        return
    s = seps[0]
    check(rows[s][2] == 'state snapshot ends — program frame %d begins' % first,
          'the separator reads "state snapshot ends — program frame %d begins"' % first, rows[s][2])
    check(s > 0 and rows[s - 1][1] == end and 'snapshot' in rows[s - 1][0].split(),
          'the separator follows the end marker (call %d), drawn as a snapshot call' % end,
          repr(rows[max(0, s - 1)]))
    check(s + 1 < len(rows) and 'snapshot' not in rows[s + 1][0].split() and rows[s + 1][1] > end,
          'the call after the separator is a captured call, not muted', repr(rows[s + 1:s + 2]))
    muted = [n for c, n, t in rows if 'snapshot' in c.split()]
    check(muted == [n for c, n, t in rows[:s]] and all('// fake' in t for c, n, t in rows[:s]),
          'every row above the separator, and none below, is a (fake) snapshot call', repr(muted))
    # the snapshot's calls are numbered from 0, one after the other
    check(sm and int(sm.group(3).replace(',', '')) == end + 1,
          'the summary\'s count is the calls up to the marker', '%r, %d' % (sm and sm.group(3), end))
    look = page.js("const e = document.querySelector('#calls .call.snapshot .text');"
                   "const f = document.querySelector('#calls .call:not(.snapshot):not(.snapshot-sep) .text');"
                   "return [getComputedStyle(e).color, getComputedStyle(f).color]")
    check(look[0] != look[1], 'the snapshot\'s calls are drawn in another colour', repr(look))
    page.shot('snapshot-frame0.png')

    page.click('#frames .frame[data-frame="1"]')
    page.wait('frame 1\'s rows', lambda: page.attr('#calls', 'data-frame') == '1' and all(
        'loading' not in c for c, n, t in page.js(ROWS_JS)) and page.js(ROWS_JS), 30)
    rows = page.js(ROWS_JS)
    check(rows and not any('snapshot' in c for c, n, t in rows),
          'frame 1: no separator and no snapshot call', repr(rows[:3]))
    title = page.js("return document.querySelector('#calls-title').textContent")
    check(title.startswith('frame 1 (program frame %d):' % (first + 1)),
          'the calls\' title names the program frame', title)


if __name__ == '__main__':
    raise SystemExit(main())
