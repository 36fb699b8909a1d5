"""Steps of view_browser.py on the page's panels: what changed marks in the state, the
timeline panel, the event list, go-to and links, the layout at three widths, and the
image comparison."""

import json
import os
import re
import shutil
import struct
import sys
import time
import zlib

from view_page import By, check, http_get, note, run

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'apps'))
from compare_png import decode_png  # noqa: E402


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
    # done, and its rows drawn: the list draws them after it says done, and until then
    # the rows on the page may be none or the previous frame's
    st = page.wait('the event list', lambda: page.js(
        "const e = document.getElementById('events'); if (e.dataset.state !== 'done') return null;"
        "const r = e.querySelector('.event[data-no]'), f = S.frame;"
        "if (+e.dataset.count === 0) return e.dataset.count;"
        "return r && +r.dataset.no >= f.first_call && +r.dataset.no < f.first_call + f.calls ? e.dataset.count : null"), 60)
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


