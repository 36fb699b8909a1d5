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
import sys
import time

# view_page exits 77 when Selenium is missing, before the imports below
from view_page import (By, Page, Server, WebDriverException, bad, check, dump_calls, finish,
                       http_get, note, ok, run)
from selenium.webdriver.common.action_chains import ActionChains
from view_browser_panels import (changed_marks, compare, event_list, goto_and_links,
                                 timeline_panel, widths)


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
    summary, total = frame_list(page, url)
    shown = frame_calls(page, a, total)
    call_state(page, a, shown)
    api_error(page)
    search(page, a)
    timeline(page, url, a)
    frame_times(page, url)
    event_list(page, url)
    goto_and_links(page, url, total)
    widths(page)
    # image comparison: the thumbnails against copies, one changed
    compare(page, url, summary, a)
    wrong_token(page, url)


def frame_list(page, url):
    """The page, its summary and frame list; (api/summary's answer, the frame count)."""
    d = page.d
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
    return summary, total


def frame_calls(page, a, total):
    """A frame's calls against gltrace dump; the rows in view ([no, thread, text, draw])."""
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
    return shown


def call_state(page, a, shown):
    """A call's state against glretrace -D."""
    d = page.d
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
        return
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
    state_tabs(page, ref)
    framebuffer_images(page, ref)


def state_tabs(page, ref):
    """Shaders, uniforms, textures where the call has them."""
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


def framebuffer_images(page, ref):
    """The framebuffer as images: sizes, zoom, the pixel inspector."""
    d = page.d
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


def api_error(page):
    """An API error is shown in the page."""
    page.js("loadState(4294967295)")
    err = page.wait('the state error', lambda: page.js(
        "const e = document.getElementById('state-error'); return e.hidden ? null : e.textContent"), 30)
    check(err and '4294967295' in err, 'a call past the end: the server\'s error is shown in the page', str(err))
    check(any('api/state' in e for e in page.errors_shown()), 'the error banner names the request',
          '; '.join(page.errors_shown()))
    page.shot('api-error.png')
    page.js("for (const e of document.querySelectorAll('#errors .error')) e.remove();")


def search(page, a):
    """Search: the results are the trace's swaps, a result selects its call."""
    d = page.d
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


def timeline(page, url, a):
    """The timeline job, its download and panel."""
    d = page.d
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


def frame_times(page, url):
    """Each frame's CPU (and GPU) time, once the profiled replay is read."""
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


def wrong_token(page, url):
    """A wrong token: 403 and the server's page."""
    d = page.d
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




if __name__ == '__main__':
    sys.exit(main())
