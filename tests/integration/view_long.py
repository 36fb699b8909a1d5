#!/usr/bin/env python3
"""`gltrace view` on a trace of more frames than a browser can lay out in one element.

usage: view_long.py --gltrace BIN --trace TRACE [--big-frame TRACE2] --artifacts DIR

TRACE has some 600,000 frames (demo_trace's): at 64 px a row the frame list would be 38 M
px high, past Chrome's 33.5 M px cap (frames after ~524k could not be reached). Checks,
in headless Chromium: the list's scroll range stays under the cap, dragging the scroll
bar to the end shows the last frame, a wheel step moves a few rows (not thousands), going
to the last frame (Go) selects it with #frame=N in the URL, going to its last call too,
and opening the page with that link selects them again. TRACE2 has one frame of some
1.8 M calls (40 M px at 22 px a row): its last call is reached by the scroll bar and by Go,
and by a link. Screenshots in DIR.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import view_page as vb  # noqa: E402
from view_page import By, bad, check, http_get, note, ok  # noqa: E402,F401


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gltrace', required=True)
    ap.add_argument('--trace', required=True)
    ap.add_argument('--big-frame')
    ap.add_argument('--artifacts', required=True)
    a = ap.parse_args()
    os.makedirs(a.artifacts, exist_ok=True)
    t0 = time.time()
    srv = vb.Server(a.gltrace, a.trace, os.path.join(a.artifacts, 'server.log'))
    if not srv.url:
        bad('gltrace view printed no URL within 120 s')
        srv.stop()
        return vb.finish(t0, a.artifacts)
    page = None
    try:
        page = vb.Page(a.artifacts)
        steps(page, srv.url)
        if a.big_frame:
            rc, why = srv.stop()
            check(rc == 0, 'the server stops on SIGINT with exit 0', 'exit %s %s' % (rc, why))
            srv = vb.Server(a.gltrace, a.big_frame, os.path.join(a.artifacts, 'server-big-frame.log'))
            if not srv.url:
                bad('gltrace view printed no URL for %s' % a.big_frame)
            else:
                big_frame(page, srv.url)
    except Exception as e:  # a step that broke stops the rest, never the cleanup
        bad('the long-trace test stopped: %s: %s' % (type(e).__name__, str(e).split('\n')[0][:400]))
    finally:
        if page:
            for m in page.js_errors():
                bad('JavaScript error in the page: ' + m[:300])
            page.d.quit()
        rc, why = srv.stop()
        check(rc == 0, 'the server stops on SIGINT with exit 0', 'exit %s %s' % (rc, why))
    return vb.finish(t0, a.artifacts, page.shots if page else [])


def steps(page, url):
    d = page.d
    total = json.loads(http_get(url + 'api/frames?first=0&count=1')[2])['total']
    check(total > 600000, 'the trace has more than 600,000 frames (%d)' % total)
    last = json.loads(http_get(url + 'api/frames?first=%d&count=1' % (total - 1))[2])['frames'][0]
    d.get(url)
    check(page.wait('the page ready', lambda: page.js('return document.body.dataset.ready'), 60),
          'the page loads')
    page.wait_css('#frames .frame[data-frame="0"]', 30)
    h = page.js("return document.getElementById('frames').scrollHeight")
    check(h < 33554400, 'the frame list\'s scroll range is under the browser\'s 33.5 M px cap (%d px)' % h)
    # the scroll bar dragged to the end: the last frame
    page.js("const f = document.getElementById('frames'); f.scrollTop = f.scrollHeight;")
    check(page.wait_css('#frames .frame[data-frame="%d"]' % (total - 1), 30),
          'scrolled to the end, the frame list shows the last frame (%d)' % (total - 1))
    vis = page.js("""const b = document.getElementById('frames').getBoundingClientRect();
      const r = document.querySelector('#frames .frame[data-frame="' + arguments[0] + '"]');
      if (!r) return null; const q = r.getBoundingClientRect();
      return [q.top >= b.top - 1, q.bottom <= b.bottom + 1]""", total - 1)
    check(vis == [True, True], 'the last frame\'s row is inside the list\'s box', str(vis))
    page.shot('long-end.png')
    # the middle, then one wheel step: a few rows, as in a short list
    page.js("const f = document.getElementById('frames'); f.scrollTop = f.scrollHeight / 2;")
    time.sleep(0.5)
    before = int(page.js("return +document.getElementById('frames').dataset.first"))
    page.js("document.getElementById('frames').dispatchEvent(new WheelEvent('wheel', "
            "{deltaY: 320, bubbles: true, cancelable: true}))")
    time.sleep(0.5)
    after = int(page.js("return +document.getElementById('frames').dataset.first"))
    check(0 < after - before <= 10, 'a wheel step of 320 px moves 5 rows of 64 px (%d -> %d)' % (before, after))
    # go to the last frame
    page.js("document.getElementById('goto-kind').value = 'frame'")
    d.find_element(By.ID, 'goto').send_keys(str(total - 1))
    d.find_element(By.ID, 'goto-go').click()
    check(page.wait_css('#frames .frame.selected[data-frame="%d"]' % (total - 1), 30),
          'Go to frame %d selects it, in view' % (total - 1))
    check(page.wait('the hash', lambda: page.js("return location.hash") == '#frame=%d' % (total - 1), 10),
          'the URL says #frame=%d' % (total - 1), page.js("return location.hash"))
    # go to the trace's last call
    lc = last['last_call']
    page.js("document.getElementById('goto-kind').value = 'call'")
    box = d.find_element(By.ID, 'goto')
    box.clear()
    box.send_keys(str(lc))
    d.find_element(By.ID, 'goto-go').click()
    check(page.wait_css('#calls .call.selected[data-no="%d"]' % lc, 30), 'Go to call %d selects it' % lc)
    page.shot('long-goto.png')
    # the link reopens it
    link = url + '#frame=%d&call=%d' % (total - 1, lc)
    d.get('about:blank')
    d.get(link)
    page.wait('the page ready', lambda: page.js('return document.body.dataset.ready'), 60)
    check(page.wait_css('#frames .frame.selected[data-frame="%d"]' % (total - 1), 30) and
          page.wait_css('#calls .call.selected[data-no="%d"]' % lc, 30),
          'the link #frame=%d&call=%d reopens the last frame and call' % (total - 1, lc))
    page.shot('long-link.png')


def big_frame(page, url):
    d = page.d
    fr = json.loads(http_get(url + 'api/frames?first=0&count=1')[2])['frames'][0]
    check(fr['calls'] > 1500000, 'frame 0 has more than 1.5 M calls (%d)' % fr['calls'])
    last = fr['last_call']
    d.get('about:blank')
    d.get(url + '#frame=0')
    page.wait('the page ready', lambda: page.js('return document.body.dataset.ready'), 60)
    page.wait_css('#calls .call[data-no="0"]', 30)
    h = page.js("return document.getElementById('calls').scrollHeight")
    check(h < 33554400, 'the call list\'s scroll range is under the 33.5 M px cap (%d px)' % h)
    page.js("const c = document.getElementById('calls'); c.scrollTop = c.scrollHeight;")
    check(page.wait_css('#calls .call[data-no="%d"]' % last, 30),
          'scrolled to the end, the call list shows the frame\'s last call (%d)' % last)
    page.shot('big-frame-end.png')
    mid = fr['first_call'] + fr['calls'] // 2
    for no in (mid, last):
        page.js("document.getElementById('goto-kind').value = 'call'")
        box = d.find_element(By.ID, 'goto')
        box.clear()
        box.send_keys(str(no))
        d.find_element(By.ID, 'goto-go').click()
        check(page.wait_css('#calls .call.selected[data-no="%d"]' % no, 60), 'Go to call %d selects it' % no)
    d.get('about:blank')
    d.get(url + '#frame=0&call=%d' % last)
    page.wait('the page ready', lambda: page.js('return document.body.dataset.ready'), 60)
    check(page.wait_css('#calls .call.selected[data-no="%d"]' % last, 60),
          'the link #frame=0&call=%d reopens the call' % last)
    time.sleep(0.5)
    vis = page.js("""const b = document.getElementById('calls').getBoundingClientRect();
      const r = document.querySelector('#calls .call.selected'); if (!r) return null;
      const q = r.getBoundingClientRect(); return [q.top >= b.top - 1, q.bottom <= b.bottom + 1]""")
    check(vis == [True, True], 'the selected call\'s row is inside the call list\'s box', str(vis))
    page.shot('big-frame-link.png')


if __name__ == '__main__':
    sys.exit(main())
