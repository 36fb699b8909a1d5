#!/usr/bin/env python3
"""Drives `gltrace view`'s page in headless Chromium (Selenium + chromedriver).

usage: view_browser.py --gltrace BIN --glretrace BIN --trace TRACE --artifacts DIR

Starts `gltrace view --listen 127.0.0.1:0 TRACE` (TRACE in a scratch folder: the server
writes its index and cache beside it), reads the URL from its stdout and checks the page:
frames with thumbnails, a frame's calls against `gltrace dump`, the state after a call
against `glretrace --headless -D`, a framebuffer image with zoom and pixel inspector,
search, the timeline download, each frame's CPU time once the profiled replay is read,
an image comparison (Compare: the thumbnails against copies, one changed, with its
difference mask), an API error shown in the page, a wrong token's 403 page.
Screenshots go to DIR. Prints "N passed, M failed"; exit 0 when nothing failed, 1 when
something did, 77 when Selenium or Chromium is missing (checked by view_browser.sh too).
"""
import argparse
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'apps'))
from compare_png import decode_png  # noqa: E402

try:
    from selenium import webdriver
    from selenium.common.exceptions import (StaleElementReferenceException, TimeoutException,
                                            WebDriverException)
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as e:  # pragma: no cover - the .sh checks first
    print('view_browser: SKIP: Selenium is missing (%s): apt-get install python3-selenium' % e)
    sys.exit(77)

PASSED = 0
FAILED = []
VERBOSE = bool(os.environ.get('IT_VERBOSE'))


def ok(msg):
    global PASSED
    PASSED += 1
    if VERBOSE:
        print('PASS: ' + msg, flush=True)


def bad(msg):
    FAILED.append(msg)
    print('FAIL: ' + msg, flush=True)


def note(msg):
    print('    note: ' + msg, file=sys.stderr, flush=True)


def check(cond, msg, why=''):
    if cond:
        ok(msg)
    else:
        bad(msg + (': ' + why if why else ''))
    return cond


def http_get(url, timeout=30):
    """(status, content type, body bytes) of a GET, errors included."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.headers.get('Content-Type', ''), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get('Content-Type', ''), e.read()


def run(argv, timeout):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def dump_calls(gltrace, trace, first, last):
    """{no: (thread, text)} of `gltrace dump --thread-ids --calls=first-last`."""
    rc, out, err = run([gltrace, 'dump', '--color=never', '--thread-ids',
                        '--calls=%d-%d' % (first, last), trace], 60)
    if rc != 0:
        raise RuntimeError('gltrace dump exits %d: %s' % (rc, err.decode(errors='replace')[-300:]))
    calls, cur = {}, None
    for line in out.decode('utf-8', errors='replace').split('\n'):
        m = re.match(r'^(\d+) @(\d+) (.*)$', line)
        if m:
            cur = int(m.group(1))
            calls[cur] = [int(m.group(2)), m.group(3)]
        elif cur is not None and line and not line.startswith('//'):
            calls[cur][1] += '\n' + line
    # the blank line after a frame's swap is the dump's, not the call's
    return {k: (t, s.rstrip('\n')) for k, (t, s) in calls.items()}


class Server:
    def __init__(self, gltrace, trace, log):
        self.log = open(log, 'wb')
        self.p = subprocess.Popen([gltrace, 'view', '--listen', '127.0.0.1:0', trace],
                                  stdout=subprocess.PIPE, stderr=self.log)
        self.url = None
        line = b''
        end = time.time() + 120   # the index is built at start
        while time.time() < end and b'\n' not in line:
            r, _, _ = select.select([self.p.stdout], [], [], 0.5)
            if r:
                b = os.read(self.p.stdout.fileno(), 4096)
                if not b:
                    break
                line += b
            elif self.p.poll() is not None:
                break
        m = re.search(rb'(http://127\.0\.0\.1:\d+/[0-9a-f]{32}/)', line)
        if m:
            self.url = m.group(1).decode()

    def stop(self):
        if self.p.poll() is not None:
            return self.p.returncode, 'exited before the end'
        self.p.send_signal(signal.SIGINT)
        try:
            return self.p.wait(timeout=20), ''
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None, 'still running 20 s after SIGINT (killed)'


class Page:
    def __init__(self, artifacts):
        o = webdriver.ChromeOptions()
        for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--window-size=1600,1000',
                  '--disable-dev-shm-usage', '--no-first-run', '--hide-scrollbars'):
            o.add_argument(a)
        if os.path.exists('/usr/bin/chromium'):
            o.binary_location = '/usr/bin/chromium'
        o.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
        self.d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=o)
        self.d.set_page_load_timeout(60)
        self.d.set_script_timeout(60)
        self.artifacts = artifacts
        self.shots = []

    def click(self, css, tries=5):
        """clicks the element CSS finds (rows are made again as pages arrive: retried)"""
        for i in range(tries):
            try:
                self.d.find_element(By.CSS_SELECTOR, css).click()
                return
            except StaleElementReferenceException:
                if i == tries - 1:
                    raise
                time.sleep(0.2)

    def attr(self, css, name):
        return self.js("const e = document.querySelector(arguments[0]);"
                       "return e ? e.getAttribute(arguments[1]) : null", css, name)

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, what, fn, timeout):
        """fn() until truthy; returns its value, None on timeout (reported by the caller)."""
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.2).until(lambda d: fn())
        except TimeoutException:
            note('timed out after %d s waiting for %s' % (timeout, what))
            return None

    def wait_css(self, css, timeout, what=None):
        return self.wait(what or css, lambda: self.d.find_elements(By.CSS_SELECTOR, css), timeout)

    def shot(self, name):
        path = os.path.join(self.artifacts, name)
        self.d.save_screenshot(path)
        self.shots.append(path)
        return path

    def errors_shown(self):
        return [e.text for e in self.d.find_elements(By.CSS_SELECTOR, '#errors .error .msg')]

    def js_errors(self):
        try:
            logs = self.d.get_log('browser')
        except WebDriverException:
            return []
        # uncaught exceptions, and anything the page's Content-Security-Policy refused
        # (inline styles or handlers, eval)
        return [e['message'] for e in logs
                if e.get('level') == 'SEVERE' and ('Uncaught' in e.get('message', '') or
                                                   'Content Security Policy' in e.get('message', ''))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gltrace', required=True)
    ap.add_argument('--glretrace', required=True)
    ap.add_argument('--trace', required=True)
    ap.add_argument('--artifacts', required=True)
    ap.add_argument('--frame', type=int, default=2, help='the frame whose calls are checked')
    a = ap.parse_args()
    os.makedirs(a.artifacts, exist_ok=True)
    for f in os.listdir(a.artifacts):
        if f.endswith('.png'):
            os.unlink(os.path.join(a.artifacts, f))
    t0 = time.time()

    srv = Server(a.gltrace, a.trace, os.path.join(a.artifacts, 'server.log'))
    if not srv.url:
        bad('gltrace view printed no URL within 120 s (stderr: %s)' % a.artifacts + '/server.log')
        srv.stop()
        return finish(t0, a.artifacts)
    ok('gltrace view prints its URL: ' + srv.url)
    url = srv.url
    page = None
    try:
        page = Page(a.artifacts)
        steps(page, srv, url, a)
    except Exception as e:  # a step that broke stops the rest, never the cleanup
        bad('the browser test stopped: %s: %s' % (type(e).__name__, str(e).split('\n')[0][:400]))
        if page:
            try:
                page.shot('failure.png')
            except WebDriverException:
                pass
    finally:
        if page:
            for m in page.js_errors():
                bad('JavaScript error in the page: ' + m[:300])
            page.d.quit()
        rc, why = srv.stop()
        check(rc == 0, 'the server stops on SIGINT with exit 0', 'exit %s %s' % (rc, why))
    return finish(t0, a.artifacts, page.shots if page else [])


def steps(page, srv, url, a):
    d = page.d
    # ---- the page, its summary and frame list ------------------------------------------
    st, _, body = http_get(url + 'api/summary')
    summary = json.loads(body) if st == 200 else {}
    check(st == 200 and summary.get('frames', 0) > 0, 'api/summary answers with frames',
          '%s %s' % (st, body[:200]))
    d.get(url)
    check(page.wait('the page ready', lambda: page.js('return document.body.dataset.ready'), 30),
          'the page loads (body[data-ready])')
    rows = page.wait_css('#frames .frame[data-frame]', 20, 'frame rows')
    check(rows, 'the frame list shows frames')
    st, _, body = http_get(url + 'api/frames?first=0&count=5')
    frames = json.loads(body) if st == 200 else {}
    total = frames.get('total', 0)
    frames = frames.get('frames', [])
    check(total >= summary.get('frames', 0) > 0, 'api/frames has the summary\'s frames (%d)' % total,
          '%s %s' % (st, body[:200]))
    if frames:
        f0 = page.js("return document.querySelector('#frames .frame[data-frame=\"0\"] .ncalls').textContent")
        check(f0.replace(',', '').startswith('%d calls' % frames[0]['calls']),
              'frame 0 shows its call count', '%r, API says %d' % (f0, frames[0]['calls']))
    check(str(total) in d.find_element(By.ID, 'frames-count').text.replace(',', ''),
          'the frame count is shown', d.find_element(By.ID, 'frames-count').text)
    check(not page.errors_shown(), 'no error shown after loading', '; '.join(page.errors_shown()))

    # thumbnails come when the server has made them: placeholders until then
    thumbs = page.wait('a thumbnail', lambda: page.js(
        "return [...document.querySelectorAll('#frames img.thumb')]"
        ".filter(i => i.complete && i.naturalWidth > 0).length"), 180)
    check(thumbs, 'at least one frame thumbnail loads (within 180 s)')
    page.shot('frames.png')

    # the list is virtual: scrolling to the end shows the last frame
    page.js("const f = document.getElementById('frames'); f.scrollTop = f.scrollHeight;")
    check(page.wait_css('#frames .frame[data-frame="%d"]' % (total - 1), 20),
          'scrolled to the end, the frame list shows the last frame (%d)' % (total - 1))
    n_dom = page.js("return document.querySelectorAll('#frames .frame').length")
    check(n_dom < 200, 'the frame list keeps only the rows in view in the page', '%d rows' % n_dom)
    page.js("document.getElementById('frames').scrollTop = 0;")

    # ---- a frame's calls against gltrace dump --------------------------------------------
    F = min(a.frame, total - 1)
    fcss = '#frames .frame[data-frame="%d"]' % F
    page.wait_css(fcss, 20)
    page.click(fcss)
    check(page.wait('the calls of frame %d' % F, lambda: page.js(
        "return document.getElementById('calls').dataset.frame === arguments[0] && "
        "document.querySelectorAll('#calls .call[data-no]').length > 0", str(F)), 30),
        'clicking frame %d lists its calls' % F)
    first = int(page.attr(fcss, 'data-first'))
    last = int(page.attr(fcss, 'data-last'))
    expected = dump_calls(a.gltrace, a.trace, first, last)
    shown = page.js("return [...document.querySelectorAll('#calls .call[data-no]')].map(r => "
                    "[+r.dataset.no, +r.dataset.thread, r.querySelector('.text').textContent, "
                    "r.dataset.draw === '1'])")
    compared = 0
    mismatch = []
    for no, thread, text, _ in shown:
        if no in expected:
            compared += 1
            if expected[no] != (thread, text):
                mismatch.append('call %d: page %r, dump %r' % (no, (thread, text[:120]), (expected[no][0], expected[no][1][:120])))
    check(compared >= min(10, len(expected)) and not mismatch,
          'frame %d: the calls in view have gltrace dump\'s text and thread (%d compared)' % (F, compared),
          '; '.join(mismatch[:3]) or '%d of %d rows compared' % (compared, len(shown)))
    shown_nos = [s[0] for s in shown]
    check(shown_nos == sorted(shown_nos) and shown_nos[0] == first,
          'the calls are in order from the frame\'s first call (%d)' % first, str(shown_nos[:5]))
    # scroll the frame's call list to the end: the last call comes (a page fetched on demand)
    page.js("const c = document.getElementById('calls'); c.scrollTop = c.scrollHeight;")
    check(page.wait_css('#calls .call[data-no="%d"]' % last, 20),
          'scrolled to the end, the call list shows the frame\'s last call (%d)' % last)
    page.js("document.getElementById('calls').scrollTop = 0;")

    # ---- a call's state against glretrace -D ---------------------------------------------
    draws = [s for s in shown if s[3]]
    target = draws[len(draws) // 2][0] if draws else shown[len(shown) // 2][0]
    note('state after call %d (%s)' % (target, 'a draw' if draws else 'no draw in view'))
    page.wait_css('#calls .call[data-no="%d"]' % target, 10)
    page.js("""
      window.__sawProgress = false;
      const box = document.getElementById('state-progress-box');
      new MutationObserver(() => { if (!box.hidden) window.__sawProgress = true; })
        .observe(box, {attributes: true});""")
    page.click('#calls .call[data-no="%d"]' % target)
    check(page.wait_css('#calls .call.selected[data-no="%d"]' % target, 5),
          'the clicked call is selected')
    check(page.wait_css('#call-detail[data-no="%d"]:not([hidden])' % target, 5),
          'the selected call\'s text is shown below the list')
    state = page.wait('the state of call %d' % target, lambda: page.js(
        "const s = document.getElementById('state-pane').dataset.state; "
        "return s === 'done' || s === 'failed' ? s : null"), 180)
    check(page.js('return window.__sawProgress'), 'a progress bar shows while the state loads')
    if state != 'done':
        err = d.find_element(By.ID, 'state-error').text
        bad('the state after call %d loads: %s' % (target, state and err or 'timed out'))
        page.shot('state.png')
    else:
        ok('the state after call %d loads' % target)
        rc, out, err = run([a.glretrace, '--headless', '-D', str(target), a.trace], 120)
        ref = json.loads(out) if rc == 0 else None
        check(ref is not None, 'glretrace -D %d gives the reference' % target, err.decode(errors='replace')[-200:])
        if ref:
            for name in ('GL_VIEWPORT', 'GL_CURRENT_PROGRAM', 'GL_DEPTH_TEST', 'GL_CULL_FACE'):
                if name not in ref['parameters']:
                    continue
                v = page.js("const r = document.querySelector('#state-params tr[data-name=\"' + arguments[0] + '\"]');"
                            "return r ? r.dataset.value : null", name)
                check(v is not None and json.loads(v) == ref['parameters'][name],
                      'the parameters table shows %s = %s as glretrace -D' % (name, ref['parameters'][name]),
                      'page shows %s' % v)
            nrows = page.js("return document.querySelectorAll('#state-params tbody tr').length")
            check(nrows >= len(ref['parameters']), 'the parameters table has a row per parameter',
                  '%d rows, %d parameters' % (nrows, len(ref['parameters'])))
        changed_marks(page, target, ref, a)
        # the filter box
        f = d.find_element(By.ID, 'state-filter')
        f.send_keys('viewport')
        visible = page.wait('the filter', lambda: page.js(
            "const v = [...document.querySelectorAll('#state-params tbody tr')].filter(r => !r.hidden)"
            ".map(r => r.dataset.name); return v.length && v.length < 20 ? v : null"), 5)
        check(visible and 'GL_VIEWPORT' in visible, 'the filter box narrows the parameters to GL_VIEWPORT', str(visible))
        page.shot('state.png')
        f.clear()
        page.js("const f = document.getElementById('state-filter'); f.value = '';"
                "f.dispatchEvent(new Event('input'));")

        # ---- shaders, uniforms, textures where the call has them -------------------------
        if ref and ref.get('shaders'):
            page.click('#state-tabs .tab[data-tab="shaders"]')
            for stage, src in ref['shaders'].items():
                got = page.js("const p = document.querySelector('#state-shaders .shader[data-stage=\"' + "
                              "arguments[0] + '\"] pre.glsl'); return p ? [p.textContent, "
                              "p.querySelectorAll('.tok-type, .tok-kw').length] : null", stage)
                check(got and got[0] == src and got[1] > 0,
                      'the %s is shown as glretrace -D gives it, highlighted' % stage,
                      'page %r' % (got and [got[0][:80], got[1]]))
            page.shot('shaders.png')
        if ref and ref.get('uniforms'):
            page.click('#state-tabs .tab[data-tab="uniforms"]')
            name, val = next(iter(ref['uniforms'].items()))
            v = page.js("const r = document.querySelector('#state-uniforms tr[data-name=\"' + arguments[0] + '\"]');"
                        "return r ? r.dataset.value : null", name)
            check(v is not None and json.loads(v) == val, 'the uniforms table shows %s as glretrace -D' % name, str(v))
        if ref and ref.get('textures'):
            page.click('#state-tabs .tab[data-tab="textures"]')
            name, tex = next(iter(ref['textures'].items()))
            got = page.wait('the texture %s' % name, lambda: page.js(
                "const v = [...document.querySelectorAll('#state-textures .image-view[data-loaded=\"1\"]')]"
                ".find(e => e.dataset.name === arguments[0]); if (!v) return null;"
                "const c = v.querySelector('canvas'), r = c.getBoundingClientRect();"
                "return r.width > 0 ? [c.width, c.height] : null", name), 20)
            check(got == [tex['__width__'], tex['__height__']],
                  'the texture "%s" is drawn, %dx%d' % (name, tex['__width__'], tex['__height__']), str(got))
            page.shot('textures.png')

        # ---- the framebuffer as images -----------------------------------------------------
        d.find_element(By.CSS_SELECTOR, '#state-tabs .tab[data-tab="framebuffer"]').click()
        size = page.wait('a framebuffer image', lambda: page.js(
            "const v = document.querySelector('#state-framebuffer .image-view[data-loaded=\"1\"] canvas');"
            "if (!v) return null; const r = v.getBoundingClientRect();"
            "return r.width > 0 && r.height > 0 ? [r.width, r.height, v.width, v.height] : null"), 20)
        check(size, 'a framebuffer attachment is drawn as an image of non-zero size', str(size))
        if size and ref:
            states = page.wait('every attachment', lambda: page.js(
                "const v = [...document.querySelectorAll('#state-framebuffer .image-view')].map(e => e.dataset.loaded);"
                "return v.length && !v.includes('0') ? v : null"), 20)
            check(states and len(states) == len(ref['framebuffer']) and set(states) == {'1'},
                  'every framebuffer attachment (%s) is drawn' % ', '.join(ref['framebuffer']), str(states))
            fb = next(iter(ref['framebuffer'].values()))
            check(size[2:] == [fb['__width__'], fb['__height__']],
                  'the framebuffer image is %dx%d as glretrace -D\'s' % (fb['__width__'], fb['__height__']),
                  str(size[2:]))
        if size:
            canvas = d.find_element(By.CSS_SELECTOR, '#state-framebuffer .image-view canvas')
            view = d.find_element(By.CSS_SELECTOR, '#state-framebuffer .image-view')
            z0 = float(view.get_attribute('data-zoom'))
            view.find_element(By.CSS_SELECTOR, 'button[title="zoom in"]').click()
            z1 = float(view.get_attribute('data-zoom'))
            check(abs(z1 - 2 * z0) < 1e-6, 'the zoom button doubles the zoom', '%s -> %s' % (z0, z1))
            ActionChains(d).move_to_element_with_offset(canvas, 3, 3).perform()
            rgba = page.wait('the pixel inspector', lambda: view.find_element(
                By.CSS_SELECTOR, '.pixel-info').get_attribute('data-rgba'), 5)
            check(rgba and re.fullmatch(r'\d+,\d+,\d+,\d+', rgba),
                  'hovering the image shows the pixel\'s RGBA (%s)' % rgba)
            # a pixel of the page's canvas against the reference PNG decoded by the browser
            page.shot('framebuffer.png')

    # ---- an API error is shown in the page --------------------------------------------------
    page.js("loadState(4294967295)")
    err = page.wait('the state error', lambda: page.js(
        "const e = document.getElementById('state-error'); return e.hidden ? null : e.textContent"), 30)
    check(err and '4294967295' in err, 'a call past the end: the server\'s error is shown in the page', str(err))
    check(any('api/state' in e for e in page.errors_shown()), 'the error banner names the request',
          '; '.join(page.errors_shown()))
    page.shot('api-error.png')
    page.js("for (const e of document.querySelectorAll('#errors .error')) e.remove();")

    # ---- search ----------------------------------------------------------------------------
    box = d.find_element(By.ID, 'search')
    box.send_keys('SwapBuffers')
    d.find_element(By.ID, 'search-go').click()
    done = page.wait('the search', lambda: page.js(
        "return ['done', 'failed'].includes(document.getElementById('search-panel').dataset.state) ? "
        "document.getElementById('search-panel').dataset.state : null"), 60)
    results = page.js("return [...document.querySelectorAll('#search-results .result')].map(r => "
                      "[+r.dataset.no, +r.dataset.frame])")
    check(done == 'done' and results, 'searching "SwapBuffers" lists results', '%s, %d results' % (done, len(results or [])))
    rc, out, _ = run([a.gltrace, 'dump', '--color=never', a.trace], 120)
    swaps = [int(m.group(1)) for m in re.finditer(rb'^(\d+) \w*SwapBuffers', out, re.M)]
    check([r[0] for r in results] == swaps[:len(results)] and len(results) == min(len(swaps), 500),
          'the results are the trace\'s swaps (%d)' % len(swaps),
          'page %s..., dump %s...' % (results[:3], swaps[:3]))
    if len(results) > 3:
        no, fr = results[3]
        page.click('#search-results .result[data-no="%d"]' % no)
        check(page.wait_css('#calls .call.selected[data-no="%d"]' % no, 20),
              'clicking result %d selects call %d in frame %d' % (3, no, fr))
        check(d.find_element(By.ID, 'calls').get_attribute('data-frame') == str(fr),
              'the result\'s frame is the one shown')
        check(page.wait_css('#frames .frame.selected[data-frame="%d"]' % fr, 5),
              'the result\'s frame is selected in the frame list')
        page.shot('search.png')

    # ---- timeline ------------------------------------------------------------------------------
    d.find_element(By.ID, 'timeline-btn').click()
    tl = page.wait('the timeline', lambda: page.js(
        "const s = document.getElementById('timeline').dataset.state; "
        "return s === 'done' || s === 'failed' ? s : null"), 300)
    if tl == 'done':
        href = d.find_element(By.ID, 'timeline-link').get_attribute('href')
        st, ctype, body = http_get(href, 60)
        try:
            events = json.loads(body)
            events = events['traceEvents'] if isinstance(events, dict) else events
        except (ValueError, KeyError, TypeError):
            events = None
        check(st == 200 and events, 'the timeline link gives Chrome JSON with events',
              '%s %s %d bytes' % (st, ctype, len(body)))
        page.shot('timeline.png')
        timeline_panel(page, url, a)
    else:
        bad('the timeline job: %s (%s)' % (tl or 'timed out', '; '.join(page.errors_shown())))

    # ---- each frame's CPU (and GPU) time, once the profiled replay is read -------------------
    st, _, body = http_get(url + 'api/frames?first=0&count=3')
    fr = json.loads(body) if st == 200 else {}
    f0 = (fr.get('frames') or [{}])[0]
    check(fr.get('times') == 'done' and isinstance(f0.get('cpu_ns'), int),
          'api/frames has the frames\' times once the timeline is done', str(body[:300]))
    page.js("document.getElementById('frames').scrollTop = 0;")
    shown = page.wait('frame 0\'s times', lambda: page.js(
        "const t = document.querySelector('#frames .frame[data-frame=\"0\"] .frame-times');"
        "return t ? [t.dataset.cpuNs, t.textContent] : null"), 60)
    check(shown and f0.get('cpu_ns') is not None and int(shown[0]) == f0['cpu_ns'] and
          re.search(r'\d+(\.\d+)? (µs|ms|s) CPU', shown[1]),
          'frame 0\'s row shows its CPU time (%s)' % (shown and shown[1]), '%s, API %s' % (shown, f0.get('cpu_ns')))
    if shown and f0.get('cpu_ns'):
        m = re.search(r'([\d.]+) (µs|ms|s) CPU', shown[1])
        ns = float(m.group(1)) * {'µs': 1e3, 'ms': 1e6, 's': 1e9}[m.group(2)] if m else -1
        check(abs(ns - f0['cpu_ns']) <= 0.06 * f0['cpu_ns'] + 1e3,
              'the CPU time shown is the API\'s, rounded', '%s vs %d ns' % (shown[1], f0['cpu_ns']))
    if f0.get('gpu_ns') is not None:
        check(shown and 'GPU' in shown[1], 'frame 0\'s row shows its GPU time', str(shown))
    page.shot('frame-times.png')

    # ---- the event list, go-to and links, the layout at three widths ------------------------
    event_list(page, url)
    goto_and_links(page, url, total)
    widths(page)

    # ---- image comparison: the thumbnails against copies, one changed --------------------------
    compare(page, url, summary, a)

    # ---- a wrong token -----------------------------------------------------------------------
    wrong = re.sub(r'/[0-9a-f]{32}/', '/' + '0' * 32 + '/', url)
    st, ctype, body = http_get(wrong)
    check(st == 403 and 'html' in ctype, 'a wrong token gets 403 and an HTML page', '%s %s' % (st, ctype))
    d.get(wrong)
    text = d.find_element(By.TAG_NAME, 'body').text
    check(text.strip() and not d.find_elements(By.ID, 'frames'),
          'the browser shows the server\'s page for a wrong token', text[:200])
    page.shot('wrong-token.png')
    root = re.sub(r'/[0-9a-f]{32}/$', '/', url)
    st, _, _ = http_get(root + 'api/summary')
    check(st == 403, 'the API without the token is refused (403)', str(st))


def flatten(obj, prefix, out):
    """the page's flattenParams: nested objects as "OUTER / NAME" """
    for k, v in obj.items():
        name = prefix + ' / ' + k if prefix else k
        if isinstance(v, dict) and v.get('__class__') != 'image':
            flatten(v, name, out)
        else:
            out[name] = v
    return out


def changed_marks(page, target, ref, a):
    """The parameters changed by the previous call and since the previous draw are marked
    (the previous call's against glretrace -D of both calls), and "changed only" shows
    just those."""
    legend = page.wait('the changes legend', lambda: page.js(
        "const l = document.getElementById('state-changes'); return l.textContent ? "
        "[l.dataset.call, l.dataset.draw, l.textContent] : null"), 10)
    check(legend and legend[0] != '', 'the state view says what the previous call changed (%s)' %
          (legend and legend[2]), str(legend))
    marked = page.js("return [...document.querySelectorAll('#state-params tbody tr[data-changed]')]"
                     ".map(r => [r.dataset.name, r.dataset.changed, r.querySelector('td.chg').textContent])")
    n_call = sum(1 for m in marked if 'call' in m[1])
    check(legend and str(n_call) == legend[0] and all(m[2] in ('●', '○') for m in marked),
          'the rows changed by the previous call are marked ● (%d), those since the previous draw ○' % n_call,
          str(marked[:5]))
    prev = page.js("const c = S.calls.get(S.selectedIndex - 1); return c ? c.no : null")
    if ref and prev is not None:
        rc, out, err = run([a.glretrace, '--headless', '-D', str(prev), a.trace], 120)
        if rc == 0:
            cur, before = flatten(ref['parameters'], '', {}), flatten(json.loads(out)['parameters'], '', {})
            want = sorted(k for k in set(cur) | set(before) if cur.get(k) != before.get(k))
            got = sorted(m[0] for m in marked if 'call' in m[1])
            check(got == want, 'the rows marked ● are those glretrace -D gives different after calls %d and %d (%d)' %
                  (prev, target, len(want)), 'page %s, glretrace %s' % (got[:6], want[:6]))
    page.js("document.getElementById('state-changed-only').click()")
    shown = page.js("return [...document.querySelectorAll('#state-params tbody tr')].filter(r => !r.hidden)"
                    ".map(r => r.dataset.name)")
    check(sorted(shown) == sorted(m[0] for m in marked),
          '"changed only" shows just the %d changed parameters' % len(marked), '%d shown' % len(shown))
    page.shot('state-changed.png')
    page.js("document.getElementById('state-changed-only').click()")


def timeline_panel(page, url, a):
    """The timeline panel: the selected frame's CPU and GPU slices drawn on a canvas,
    zoomed by the wheel, a slice's click selecting its call, a selected call outlined;
    Open in Perfetto's PING/PONG then the buffer (a stand-in window: no network here);
    the drawing time of 100,000 slices."""
    d = page.d
    st = page.wait('the timeline panel', lambda: page.js(
        "const p = document.getElementById('timeline-panel');"
        "return !p.hidden && ['done', 'failed'].includes(p.dataset.state) ? p.dataset.state : null"), 120)
    if not check(st == 'done', 'the Timeline button opens the timeline panel with the frame\'s slices',
                 '%s (%s)' % (st, '; '.join(page.errors_shown()))):
        page.shot('timeline-panel.png')
        return
    n = int(page.attr('#timeline-panel', 'data-slices') or 0)
    check(n > 0, 'the panel has slices (%d)' % n, page.js("return document.getElementById('tl-status').textContent"))
    drawn = page.js("""
      const c = document.getElementById('tl-canvas'), x = c.getContext('2d');
      const p = x.getImageData(0, 0, c.width, c.height).data; let n = 0;
      for (let k = 0; k < p.length; k += 4) if (p[k + 3] && (p[k] < 200 || p[k + 1] < 200)) n++;
      return n;""")
    check(drawn > 100, 'the canvas is drawn (%d coloured pixels)' % drawn)
    page.shot('timeline-panel.png')
    # the wheel zooms in around the pointer
    v = page.js("return [TL.v0, TL.v1]")
    page.js("const c = document.getElementById('tl-canvas'), r = c.getBoundingClientRect();"
            "c.dispatchEvent(new WheelEvent('wheel', {deltaY: -500, clientX: r.left + r.width / 2,"
            " clientY: r.top + 30, bubbles: true, cancelable: true}))")
    v2 = page.js("return [TL.v0, TL.v1]")
    check(v2[1] - v2[0] < (v[1] - v[0]) * 0.7, 'the wheel zooms the timeline in', '%s -> %s' % (v, v2))
    page.js("tlFit()")
    # a click on a CPU slice selects its call in the call list
    hit = page.js("""
      const d = TL.data, c = document.getElementById('tl-canvas');
      const row = d.rows.findIndex(r => r.label.startsWith('CPU')), tr = row < 0 ? null : d.rows[row].track;
      if (row < 0 || !tr.n) return null;
      // zoomed to the slice and its neighbours first, as one would
      const i = tr.n >> 1;
      TL.v0 = tr.ts[i] - tr.dur[i]; TL.v1 = tr.ts[i] + 2 * tr.dur[i]; tlDraw();
      const k = (c.clientWidth - TL_LABEL_W) / (TL.v1 - TL.v0);
      const x = Math.round(TL_LABEL_W + (tr.ts[i] + tr.dur[i] / 2 - TL.v0) * k);
      const h = tlHit(x, TL_AXIS_H + row * TL_ROW_H + TL_ROW_H / 2);
      if (!h) return null;
      const r = c.getBoundingClientRect();
      c.dispatchEvent(new MouseEvent('click', {clientX: r.left + x, clientY: r.top + TL_AXIS_H + row * TL_ROW_H + 9, bubbles: true}));
      return h[0].call[h[1]];""")
    check(hit is not None and page.wait_css('#calls .call.selected[data-no="%d"]' % hit, 20),
          'clicking a CPU slice selects its call (%s) in the call list' % hit)
    check(page.wait('the outline', lambda: page.attr('#timeline-panel', 'data-selected-call') == str(hit), 10),
          'the selected call\'s slice is outlined in the timeline')
    # selecting another call in the list outlines its slice
    other = page.js("const r = [...document.querySelectorAll('#calls .call[data-no]')].map(e => +e.dataset.no)"
                    ".filter(n => n !== arguments[0] && tlSlicesOf(n).length); return r.length ? r[0] : null", hit)
    if other is not None:
        page.click('#calls .call[data-no="%d"]' % other)
        check(page.wait('the outline', lambda: page.attr('#timeline-panel', 'data-selected-call') == str(other), 10),
              'selecting call %d in the list outlines its slice' % other)
    page.shot('timeline-selected.png')
    # Open in Perfetto: a stand-in window answers PONG to PING, then gets the buffer
    page.js("""
      window.__perfetto = {pings: 0, got: null};
      // a MessagePort stands in for the window: a message event's source must be one
      const fake = new MessageChannel().port1;
      fake.closed = false;
      fake.postMessage = (m, origin) => {
        if (m === 'PING') { window.__perfetto.pings++;
          window.dispatchEvent(new MessageEvent('message', {data: 'PONG', origin, source: fake})); }
        else window.__perfetto.got = {origin, title: m.perfetto && m.perfetto.title,
          bytes: m.perfetto && m.perfetto.buffer && m.perfetto.buffer.byteLength};
      };
      window.open = () => fake;""")
    d.find_element(By.ID, 'tl-perfetto').click()
    got = page.wait('the buffer posted', lambda: page.js("return window.__perfetto.got"), 60)
    st, _, body = http_get(url + 'api/result?job=' + str(json.loads(http_get(url + 'api/timeline')[2])['job']), 60)
    check(got and got['origin'] == 'https://ui.perfetto.dev' and got['bytes'] == len(body) and
          page.js("return window.__perfetto.pings") >= 1,
          'Open in Perfetto: PING, PONG, then the whole JSON (%s bytes) posted to ui.perfetto.dev' %
          (got and got['bytes']), '%s, JSON %d bytes' % (got, len(body)))
    # 100,000 slices: how long drawing and a zoom step take (synthetic, made in the page)
    ms = page.js("""
      const keep = TL.data, v = [TL.v0, TL.v1];
      const n = 100000, cpu = [], gpu = [], groups = [];
      for (let i = 0; i < n; i++) { cpu.push([i * 1000, 700, i, i % 7]); if (i % 3 === 0) gpu.push([i * 1000 + 300, 900, i, i % 7]); }
      for (let g = 0; g < 1000; g++) groups.push([g * 100000, 99000, 0, 8, 1], [g * 100000 + 10, 40000, 1, 9, 1]);
      const names = ['glDrawArrays', 'glUniform4f', 'glBindBuffer', 'glBufferSubData', 'glColor3f', 'glVertex3f', 'glEnd', 'outer', 'inner'];
      const t = performance.now();
      TL.data = tlPrepare({t0: 0, t1: n * 1000, first: 0, count: 1, cpu, gpu, groups, frames: [[0, 0, 0, 0]], names});
      const prep = performance.now() - t;
      tlFit(); const fit = TL.drawMs;
      const c = document.getElementById('tl-canvas'), cx = c.clientWidth / 2;
      let zoom = 0; for (let k = 0; k < 10; k++) { tlZoom(0.5, cx); zoom = Math.max(zoom, TL.drawMs); }
      let out = 0; for (let k = 0; k < 10; k++) { tlZoom(2, cx); out = Math.max(out, TL.drawMs); }
      TL.data = keep; TL.v0 = v[0]; TL.v1 = v[1]; tlShowCall(TL.selected, false);
      return [prep, fit, zoom, out];""")
    note('timeline panel, 100,000 calls + 33,334 GPU slices + 2,000 groups: prepare %.1f ms, draw all %.1f ms, '
         'worst zoom-in step %.1f ms, worst zoom-out step %.1f ms' % tuple(ms))
    # a bound for a machine shared with builds (on a quiet one: 10-35 ms drawn whole, a
    # zoom step under 20 ms)
    check(max(ms[1:]) < 500, 'the panel draws 100,000 slices in under 500 ms a frame (%.1f ms at worst)' % max(ms[1:]))


def event_list(page, url):
    """The event list: the frame's draws (and clears...) with their GPU times, a click
    selecting the call."""
    d = page.d
    d.find_element(By.ID, 'view-events').click()
    st = page.wait('the event list', lambda: page.js(
        "const e = document.getElementById('events'); return e.dataset.state === 'done' ? e.dataset.count : null"), 60)
    rows = page.js("return [...document.querySelectorAll('#events .event[data-no]')].map(r => "
                   "[+r.dataset.no, r.dataset.kind, r.dataset.gpuNs || null])")
    frame = int(page.js("return S.frame.frame"))
    st2, calls = 0, []
    fr = json.loads(http_get(url + 'api/frames?first=%d&count=1' % frame)[2])['frames'][0]
    for first in range(0, fr['calls'], 10000):
        calls += json.loads(http_get(url + 'api/calls?frame=%d&first=%d&count=10000' % (frame, first))[2])['calls']
    draws = [c['no'] for c in calls if c['draw']]
    listed = [r[0] for r in rows if r[1] == 'draw']
    check(st is not None and listed and listed == draws[:len(listed)],
          'the event list lists frame %d\'s draws in order (%d in view of %d)' % (frame, len(listed), len(draws)),
          '%s vs %s' % (listed[:5], draws[:5]))
    # the other GPU work: glClear and its kin, never the clear values (glClearColor)
    work = re.compile(r'^(glClear|glClearBuffer\w*|glClearNamedFramebuffer\w*|glClearNamedBuffer\w*|glClearTex\w*|'
                      r'glDispatchCompute\w*|glBlit\w*Framebuffer\w*|glGenerate\w*Mipmap\w*)\(')
    want_other = [c['no'] for c in calls if not c['draw'] and work.match(c['text'])]
    other = [r[0] for r in rows if r[1] not in ('draw', 'group')]
    check(other == want_other[:len(other)] and (other or not want_other),
          'the event list lists the frame\'s clears, dispatches and blits, not glClearColor (%d)' % len(other),
          '%s vs %s' % (other[:5], want_other[:5]))
    times = page.wait('the GPU times', lambda: page.js(
        "return document.getElementById('events').dataset.times === 'done' ? "
        "[...document.querySelectorAll('#events .event[data-gpu-ns]')].length : null"), 20)
    note('event list: %s rows with a GPU time' % times)
    page.shot('events.png')
    if listed:
        page.click('#events .event[data-no="%d"]' % listed[-1])
        check(page.wait_css('#calls .call.selected[data-no="%d"]' % listed[-1], 20) or
              page.js("return S.selected") == listed[-1], 'clicking an event selects its call (%d)' % listed[-1])
    d.find_element(By.ID, 'view-calls').click()


def goto_and_links(page, url, total):
    """Go to the last frame and a call by number; the selection is in the URL and a link
    with it reopens it."""
    d = page.d
    page.js("document.getElementById('goto-kind').value = 'frame'")
    box = d.find_element(By.ID, 'goto')
    box.clear()
    box.send_keys(str(total - 1))
    d.find_element(By.ID, 'goto-go').click()
    check(page.wait_css('#frames .frame.selected[data-frame="%d"]' % (total - 1), 20),
          'go to frame %d selects the last frame, in view' % (total - 1))
    check(page.wait('the hash', lambda: page.js("return location.hash") == '#frame=%d' % (total - 1), 5),
          'the URL says #frame=%d' % (total - 1), page.js("return location.hash"))
    fr = json.loads(http_get(url + 'api/frames?first=%d&count=1' % (total // 2))[2])['frames'][0]
    call = (fr['first_call'] + fr['last_call']) // 2
    page.js("document.getElementById('goto-kind').value = 'call'")
    box.clear()
    box.send_keys(str(call))
    d.find_element(By.ID, 'goto-go').click()
    check(page.wait_css('#calls .call.selected[data-no="%d"]' % call, 20),
          'go to call %d selects it in frame %d' % (call, total // 2))
    h = page.wait('the hash', lambda: page.js("return location.hash") == '#frame=%d&call=%d' % (total // 2, call), 5)
    check(h, 'the URL says #frame=%d&call=%d' % (total // 2, call), page.js("return location.hash"))
    # the link reopens it
    d.get('about:blank')
    d.get(url + '#frame=%d&call=%d' % (total // 2, call))
    page.wait('the page ready', lambda: page.js('return document.body.dataset.ready'), 30)
    check(page.wait_css('#calls .call.selected[data-no="%d"]' % call, 30) and
          page.wait_css('#frames .frame.selected[data-frame="%d"]' % (total // 2), 10),
          'a link with #frame=%d&call=%d reopens that frame and call' % (total // 2, call))
    page.shot('link.png')


def widths(page):
    """The page at 1280, 1440 and 1920 px: the header on one line, the parameters' values
    in view, the frames' times not clipped (screenshots kept)."""
    d = page.d
    page.js("openTimelinePanel(); selectTab('params');")
    page.wait('the timeline panel', lambda: page.attr('#timeline-panel', 'data-state') == 'done', 30)
    page.wait('the state', lambda: page.attr('#state-pane', 'data-state') in ('done', 'failed'), 120)
    for w in (1280, 1440, 1920):
        d.set_window_size(w, 1000)
        time.sleep(0.5)
        vw = page.js("return window.innerWidth")
        top_h = page.js("return document.getElementById('top').getBoundingClientRect().height")
        check(top_h < 40, '%d px: the header is one line (%d px high)' % (w, top_h))
        over = page.js("""return [...document.querySelectorAll('#top > *')].filter(e => e.offsetParent &&
          e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.id)""")
        check(not over, '%d px: nothing in the header runs off the page' % w, str(over))
        val = page.js("""const t = document.querySelector('#state-params tbody tr:not([hidden]) td.value');
          if (!t || !t.offsetParent) return null; const r = t.getBoundingClientRect();
          return [r.left, r.right]""")
        if val:
            check(val[0] < vw - 40 and val[1] <= vw + 1, '%d px: the parameters\' Value column is in view' % w,
                  '%s of %d' % (val, vw))
        clipped = page.js("""return [...document.querySelectorAll('#frames .frame-times')]
          .filter(e => e.scrollWidth > e.clientWidth + 1).length""")
        check(clipped == 0, '%d px: no frame time is clipped' % w, '%d clipped' % clipped)
        page.shot('width-%d.png' % w)
    d.set_window_size(1600, 1000)


def write_png(path, w, h, rows):
    def chunk(t, d):
        return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) +
                chunk(b'IDAT', zlib.compress(b''.join(b'\0' + r for r in rows))) + chunk(b'IEND', b''))


def compare(page, url, summary, a):
    """Compare: the thumbnails folder (the reference field's default) against a folder of
    copies with one image's corner changed: one row differs, with the two images and a
    difference mask drawn side by side."""
    d = page.d
    # every thumbnail made: the folder no longer changes
    page.wait('the thumbnail job', lambda: json.loads(http_get(url + 'api/job?id=1')[2]).get('state')
              in ('done', 'failed'), 300)
    thumbs = summary.get('thumbs_dir')
    names = sorted(n for n in os.listdir(thumbs) if n.endswith('.png'))[:4] if thumbs else []
    if not check(names, 'the thumbnails folder has images to compare', str(thumbs)):
        return
    other = os.path.join(os.path.dirname(os.path.realpath(a.trace)), 'compare-src')
    shutil.rmtree(other, ignore_errors=True)
    os.makedirs(other)
    all_thumbs = sorted(n for n in os.listdir(thumbs) if n.endswith('.png'))
    for n in all_thumbs:   # the same names as the reference, so that none is missing
        shutil.copy(os.path.join(thumbs, n), os.path.join(other, n))
    changed = names[len(names) // 2]
    w, h, rows = decode_png(os.path.join(thumbs, changed))
    rows = [bytes(0 if v > 127 else 255 for v in r[:48]) + r[48:] if y < 16 else r for y, r in enumerate(rows)]
    write_png(os.path.join(other, changed), w, h, rows)

    d.find_element(By.ID, 'compare-btn').click()
    check(page.wait_css('#compare-panel:not([hidden])', 5), 'the Compare button opens the comparison panel')
    ref = d.find_element(By.ID, 'compare-ref').get_attribute('value')
    check(ref == thumbs, 'the reference defaults to the thumbnails folder', '%r vs %r' % (ref, thumbs))
    d.find_element(By.ID, 'compare-src').send_keys(other)
    page.js("""
      window.__sawCompareProgress = false;
      const p = document.getElementById('compare-progress');
      new MutationObserver(() => { if (!p.hidden) window.__sawCompareProgress = true; })
        .observe(p, {attributes: true});""")
    d.find_element(By.ID, 'compare-go').click()
    st = page.wait('the comparison', lambda: page.js(
        "const s = document.getElementById('compare-panel').dataset.state;"
        "return s === 'done' || s === 'failed' ? s : null"), 400)  # ASan: every image decoded
    check(page.js('return window.__sawCompareProgress'), 'a progress bar shows while comparing')
    if not check(st == 'done', 'the comparison ends done', '%s (%s)' % (st, '; '.join(page.errors_shown()))):
        page.shot('compare.png')
        return
    rows = page.js("return [...document.querySelectorAll('#compare-results .cmp-row')].map(r => "
                   "[r.dataset.name, r.dataset.verdict])")
    check(rows == [[changed, 'mismatch']], 'one row: %s differs (the matching ones hidden)' % changed, str(rows))
    status = d.find_element(By.ID, 'compare-status').text
    check('%d match' % (len(all_thumbs) - 1) in status.replace(',', '') and '1 differ' in status,
          'the status counts %d matching and 1 differing' % (len(all_thumbs) - 1), status)
    imgs = page.wait('the three images', lambda: page.js(
        "const r = document.querySelector('#compare-results .cmp-row[data-verdict=\"mismatch\"]');"
        "if (!r) return null; const v = ['cmp-ref', 'cmp-src', 'cmp-diff'].map(c => r.querySelector('img.' + c));"
        "return v.every(i => i && i.complete && i.naturalWidth > 0) ? v.map(i => [i.naturalWidth, "
        "i.getBoundingClientRect().left]) : null"), 30)
    check(imgs and all(i[0] == w for i in imgs) and imgs[0][1] < imgs[1][1] < imgs[2][1],
          'the reference, the compared image and the difference mask are shown side by side, %d wide' % w, str(imgs))
    # the mask's changed corner is red: drawn into a canvas by the page
    red = page.js("""
      const i = document.querySelector('#compare-results img.cmp-diff');
      const c = document.createElement('canvas'); c.width = i.naturalWidth; c.height = i.naturalHeight;
      const x = c.getContext('2d'); x.drawImage(i, 0, 0);
      const p = x.getImageData(0, 0, 16, 16).data; let n = 0;
      for (let k = 0; k < p.length; k += 4) if (p[k] - p[k + 1] > 100) n++;
      return n;""")
    check(red == 256, 'the difference mask marks the changed 16x16 corner in red', '%s red pixels' % red)
    href = page.attr('#compare-report', 'href')
    st2, ctype, body = http_get(url + href) if href else (0, '', b'')
    check(st2 == 200 and 'html' in ctype and changed.encode() in body, 'the full report link serves the HTML report',
          '%s %s' % (st2, ctype))
    page.js("document.getElementById('compare-results').scrollTop = 0;")
    page.shot('compare.png')
    d.find_element(By.ID, 'compare-all').click()
    n = page.wait('the matching rows', lambda: page.js(
        "return document.querySelectorAll('#compare-results .cmp-row[data-verdict=\"match\"]').length || null"), 5)
    check(n == len(all_thumbs) - 1, '"matching ones too" lists the %d matching images' % (len(all_thumbs) - 1), str(n))
    d.find_element(By.ID, 'compare-close').click()


def finish(t0, artifacts, shots=()):
    for s in shots:
        print('screenshot: ' + s)
    print('view_browser: screenshots and server log in ' + artifacts)
    if FAILED:
        print('---- view_browser failures:')
        for f in FAILED:
            print('  ' + f)
    print('view_browser: %d passed, %d failed (%.1f s)' % (PASSED, len(FAILED), time.time() - t0))
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
