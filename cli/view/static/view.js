// gltrace view: the page (plain JS, no build step, no network beyond its own server).
// The HTTP interface it uses is cli/view/API.md. Every path is relative: the page is
// served at /TOKEN/, so "api/..." resolves under the token.
// The helpers are common.js; the state panel state.js (its images image.js); image
// comparison compare.js; the timeline timeline.js; the event list events.js; what
// changed changes.js; the virtual list vlist.js. main() starts the page.
'use strict';

// ---------------------------------------------------------------------------------------
// state of the page

const S = {
  summary: null,
  frameTotal: 0,
  frames: null,            // Pages of frame records
  frame: null,             // selected frame record
  calls: null,             // Pages of the selected frame's calls
  callTotal: 0,
  collapsed: new Map(),    // begin index -> end index (hidden: begin+1 .. end)
  hidden: [],              // merged [a, b] index ranges hidden by collapsed groups
  selected: null,          // selected call number
  selectedIndex: null,     // its index in the frame
  stateSeq: 0,             // bumps when a new state request replaces the old one
  thumbs: new Map(),       // frame -> {ok: bool, tried: time}
};

// ---------------------------------------------------------------------------------------
// frames (left)

const FRAME_ROW = 64;
const THUMB_TRIES = 8;
let frameList;

function frameThumb(f) {
  const t = S.thumbs.get(f) || { ok: false, tried: 0, img: null };
  S.thumbs.set(f, t);
  if (t.ok) return t.img.cloneNode();
  const rec = S.frames.get(f);
  // a frame without a swap never gets one; another is asked for again after 2.5 s, 5 s,
  // 10 s ... 60 s, THUMB_TRIES times in all (the thumbnail job makes the frames in order:
  // on a long trace a late frame's comes much later), then left alone
  if ((rec && rec.complete === false) || t.tries >= THUMB_TRIES) {
    return el('div', { class: 'thumb-none', title: 'no thumbnail for this frame' });
  }
  if (!t.loading && Date.now() - t.tried > Math.min(60000, 2500 * Math.pow(2, (t.tries || 1) - 1))) {
    t.tries = (t.tries || 0) + 1;
    t.loading = true;
    t.tried = Date.now();
    const img = new Image();
    img.className = 'thumb';
    img.alt = 'frame ' + f;
    img.dataset.frame = f;
    img.onload = () => {
      t.loading = false; t.ok = true; t.img = img;
      const row = $(`#frames .frame[data-frame="${f}"]`);
      const slot = row && row.querySelector('.thumb, .thumb-placeholder, .thumb-none');
      if (slot) slot.replaceWith(img.cloneNode());
    };
    img.onerror = () => { t.loading = false; t.tried = Date.now(); };
    img.src = 'api/thumb?frame=' + f + '&try=' + t.tried;
  }
  return el('div', { class: 'thumb-placeholder', title: 'thumbnail not made yet' });
}

function renderFrameRow(i, old) {
  const f = S.frames.get(i);
  // the times arrive later (a profiled replay): a row without them is made again
  const key = f ? 'f' + i + (f.cpu_ns !== null && f.cpu_ns !== undefined ? 't' : '') : 'l' + i;
  const t = S.thumbs.get(i);
  if (old && old.dataset.key === key && (!f || !t || (!t.ok && !(t.tries >= THUMB_TRIES &&
      !old.querySelector('.thumb-none'))) || old.querySelector('img.thumb'))) {
    old.classList.toggle('selected', !!(S.frame && S.frame.frame === i));
    return old;
  }
  if (!f) {
    return el('div', { class: 'frame loading', 'data-key': key }, el('span', { text: 'frame ' + i + ' …' }));
  }
  const row = el('div', {
    class: 'frame' + (S.frame && S.frame.frame === i ? ' selected' : '') + (f.complete === false ? ' incomplete' : ''),
    'data-key': key, 'data-frame': i, 'data-first': f.first_call, 'data-last': f.last_call,
    'data-calls': f.calls, title: `calls ${f.first_call}–${f.last_call}`,
  },
  frameThumb(i),
  el('div', { class: 'frame-info' },
    el('div', { class: 'frame-name', text: 'Frame ' + i },
      programFrame(f),
      f.complete === false ? el('span', { class: 'incomplete', text: ' (no swap)', title: 'the calls after the last swap' }) : null),
    el('div', { class: 'frame-counts' },
      el('span', { class: 'ncalls', text: fmtInt(f.calls) + (f.calls === 1 ? ' call' : ' calls') }),
      f.draws === null || f.draws === undefined ? null
        : el('span', { class: 'ndraws', text: fmtInt(f.draws) + (f.draws === 1 ? ' draw' : ' draws') })),
    frameTimes(f)));
  row.addEventListener('click', () => selectFrame(i));
  return row;
}

 // a frame range's trace: frame k is the program's frame A+k
function programFrame(f) {
  if (f.program_frame === undefined || f.program_frame === null) return null;
  return el('span', { class: 'program-frame', text: ` (program frame ${f.program_frame})`,
    title: 'the frame number in the program that was recorded (gltrace --frames)' });
}

// "1.2 ms CPU · 0.4 ms GPU" (GPU only where the replay had timer queries)
function frameTimes(f) {
  if (f.cpu_ns === null || f.cpu_ns === undefined) return null;
  const gpu = f.gpu_ns !== null && f.gpu_ns !== undefined;
  return el('div', {
    class: 'frame-times', 'data-cpu-ns': f.cpu_ns, 'data-gpu-ns': gpu ? f.gpu_ns : null,
    title: 'replayed with timing: the CPU time of the frame\'s calls' +
      (gpu ? ', the GPU time of its GPU work' : ' (no GPU timer queries)'),
  }, el('span', { class: 'cpu', text: fmtNs(f.cpu_ns) + ' CPU' }),
  gpu ? el('span', { class: 'gpu', text: ' · ' + fmtNs(f.gpu_ns) + ' GPU' }) : null);
}

// While the frames' times are to come ("times": "pending"), asks now and then; once
// they are in, the pages already loaded are fetched again and their rows made anew.
async function waitFrameTimes() {
  let delay = 2000;
  for (;;) {
    await sleep(delay);
    delay = Math.min(delay * 1.3, 10000);
    let j;
    try {
      j = await api('api/frames?first=0&count=1');
    } catch (e) { continue; }   // shown by the lists' own requests if it lasts
    if (j.times === 'pending') continue;
    if (j.times !== 'done') return;
    const pages = S.frames;
    for (const [p, items] of [...pages.pages]) {
      if (!Array.isArray(items)) continue;
      pages.fetchPage(p * pages.size, pages.size).then(fresh => {
        pages.pages.set(p, fresh);
        frameList.refresh();
      }, e => showError(e, 'frame times'));
    }
    $('#frames').dataset.times = 'done';
    return;
  }
}

async function initFrames() {
  S.frames = new Pages(100, async (first, count) => {
    const j = await api(`api/frames?first=${first}&count=${count}`);
    if (j.times) S.frameTimes = j.times;
    if (typeof j.total === 'number' && j.total !== S.frameTotal) {
      S.frameTotal = j.total;
      frameList.setCount(j.total);
      $('#frames-count').textContent = '(' + fmtInt(j.total) + ')';
    }
    return j.frames;
  }, () => frameList.refresh());
  frameList = new VList($('#frames'), FRAME_ROW, renderFrameRow);
  // the first page at once; it tells the total
  await S.frames.load(0);
  if (S.frameTimes === 'pending') waitFrameTimes();
  else if (S.frameTimes === 'done') $('#frames').dataset.times = 'done';
  if (S.frameTotal === 0) {
    $('#frames').append(el('div', { class: 'empty', text: 'no frames in this trace' }));
  }
  // thumbnails not made yet: those in view asked for again (frameThumb says when)
  setInterval(() => {
    const [a, b] = frameList.range();
    for (let i = a; i <= b; i++) {
      const t = S.thumbs.get(i);
      if (t && !t.ok && !t.loading) frameThumb(i);
    }
    frameList.refresh();   // rows whose tries are over say so
  }, 3000);
  $('#frames').addEventListener('keydown', e => {
    if (!S.frame) return;
    let f = S.frame.frame;
    if (e.key === 'ArrowDown') f++;
    else if (e.key === 'ArrowUp') f--;
    else if (e.key === 'PageDown') f += 10;
    else if (e.key === 'PageUp') f -= 10;
    else if (e.key === 'Home') f = 0;
    else if (e.key === 'End') f = S.frameTotal - 1;
    else return;
    f = Math.max(0, Math.min(S.frameTotal - 1, f));
    e.preventDefault();
    if (f >= 0 && f < S.frameTotal) selectFrame(f);
  });
}

// ---------------------------------------------------------------------------------------
// calls (middle)

const CALL_ROW = 22;
let callList;

function visibleCount() {
  let n = S.callTotal;
  for (const [a, b] of S.hidden) n -= b - a + 1;
  return n;
}
function indexOfVisible(v) {
  let i = v;
  for (const [a, b] of S.hidden) {
    if (a <= i) i += b - a + 1; else break;
  }
  return i;
}
function visibleOfIndex(i) {
  let v = i;
  for (const [a, b] of S.hidden) {
    if (b < i) v -= b - a + 1;
    else if (a <= i) return null;   // inside a collapsed group
    else break;
  }
  return v;
}
// A frame range's trace: frame 0 starts with the state snapshot (its first
// summary.snapshot.calls calls, the end marker last); a separator row follows the marker.
// The call list's rows are the visible calls with that row inserted.
function snapSepRow() {
  const sn = S.summary && S.summary.snapshot;
  if (!sn || !sn.calls || !S.frame || S.frame.frame !== 0 || sn.calls > S.callTotal) return null;
  const v = visibleOfIndex(sn.calls - 1);
  return v === null ? null : v + 1;
}
function rowOfVisible(v) {
  const s = snapSepRow();
  return s !== null && v >= s ? v + 1 : v;
}
function rowCount() {
  return visibleCount() + (snapSepRow() !== null ? 1 : 0);
}

function rebuildHidden() {
  const r = [...S.collapsed].map(([a, b]) => [a + 1, b]).filter(([a, b]) => a <= b)
    .sort((x, y) => x[0] - y[0]);
  const m = [];
  for (const x of r) {
    if (m.length && x[0] <= m[m.length - 1][1] + 1) m[m.length - 1][1] = Math.max(m[m.length - 1][1], x[1]);
    else m.push(x.slice());
  }
  S.hidden = m;
  callList.setCount(rowCount());
  callList.refresh();
}

// the indent of a call in debug groups (a style property: the page's CSP refuses style
// attributes)
function indentOf(depth) {
  const e = el('span', { class: 'indent' });
  e.style.width = (depth * 14) + 'px';
  return e;
}

function snapSeparator(old) {
  if (old && old.dataset.key === 'sep') return old;
  return el('div', {
    class: 'call snapshot-sep', 'data-key': 'sep', role: 'separator',
    title: 'the calls above re-create the contexts, objects and state that the program had ' +
      'made before the recorded frames (gltrace --frames); they are marked fake',
  }, el('span', { text: `state snapshot ends — program frame ${S.summary.snapshot.first_frame} begins` }));
}

function renderCallRow(r, old) {
  const sep = snapSepRow();
  if (r === sep) return snapSeparator(old);
  const v = sep !== null && r > sep ? r - 1 : r;
  const i = indexOfVisible(v);
  const c = S.calls ? S.calls.get(i) : undefined;
  const key = (c ? 'c' : 'l') + S.frame.frame + ':' + i + (S.collapsed.has(i) ? 'x' : '') +
    (c && c.no === S.selected ? 's' : '');
  if (old && old.dataset.key === key) return old;
  if (!c) return el('div', { class: 'call loading', 'data-key': key, 'data-index': i, text: '…' });
  const cls = ['call'];
  if (c.draw) cls.push('draw');
  if (c.snapshot) cls.push('snapshot');
  if (c.group) cls.push('group-' + c.group);
  if (c.no === S.selected) cls.push('selected');
  if (c.backtrace && c.backtrace.length) cls.push('has-bt');
  const depth = c.depth || 0;
  const twisty = c.group === 'begin'
    ? el('button', { type: 'button', class: 'twisty', title: 'collapse or expand the group',
        text: S.collapsed.has(i) ? '▸' : '▾',
        onclick: ev => { ev.stopPropagation(); toggleGroup(i); } })
    : el('span', { class: 'twisty-pad' });
  const row = el('div', {
    class: cls.join(' '), 'data-key': key, 'data-no': c.no, 'data-index': i,
    'data-thread': c.thread, 'data-depth': depth, 'data-group': c.group || null,
    'data-draw': c.draw ? '1' : null, 'data-collapsed': S.collapsed.has(i) ? '1' : null,
  },
  el('span', { class: 'no', text: c.no }),
  el('span', { class: 'thread', text: '@' + c.thread, title: 'thread ' + c.thread }),
  indentOf(depth),
  twisty,
  el('span', { class: 'mark', text: c.draw ? '◆' : '', title: c.draw ? 'draw call' : null }),
  el('span', { class: 'text', text: c.text }));
  row.addEventListener('click', () => selectCall(c.no, i));
  return row;
}

async function toggleGroup(i) {
  if (S.collapsed.has(i)) {
    S.collapsed.delete(i);
    rebuildHidden();
    return;
  }
  // find the matching end: count begins and ends from i (pages fetched as needed)
  const calls = S.calls;
  let level = 0, j = i;
  try {
    for (; j < S.callTotal; j++) {
      const c = await calls.item(j);
      if (calls !== S.calls) return;   // another frame meanwhile
      if (c.group === 'begin') level++;
      else if (c.group === 'end' && --level === 0) break;
    }
  } catch (e) { showError(e, 'collapsing the group'); return; }
  S.collapsed.set(i, Math.min(j, S.callTotal - 1));
  rebuildHidden();
}

async function selectFrame(f, thenCall) {
  if (!(f >= 0 && f < S.frameTotal)) {
    showError(new Error(`frame ${f} is past the end (${fmtInt(S.frameTotal)} frames)`));
    return;
  }
  const rec = await S.frames.item(f);
  if (!rec) { showError(new Error('frame ' + f + ' is past the end')); return; }
  frameList.scrollTo(f);
  if (!S.frame || S.frame.frame !== f) {
    S.frame = rec;
    S.collapsed.clear();
    S.hidden = [];
    S.callTotal = rec.calls;
    const calls = new Pages(200, async (first, count) => {
      const j = await api(`api/calls?frame=${f}&first=${first}&count=${count}`);
      if (typeof j.total === 'number' && j.total !== S.callTotal && calls === S.calls) {
        S.callTotal = j.total;
        callList.setCount(rowCount());
      }
      return j.calls;
    }, () => { if (calls === S.calls) callList.refresh(); });
    S.calls = calls;
    const pf = rec.program_frame !== undefined ? ` (program frame ${rec.program_frame})` : '';
    $('#calls-title').textContent = `frame ${f}${pf}: ${fmtInt(rec.calls)} calls, ${rec.first_call}–${rec.last_call}`;
    $('#calls').dataset.frame = f;
    callList.box.scrollTop = 0;
    callList.clear();
    callList.setCount(rowCount());
    frameList.refresh();
    if (thenCall === undefined) S.selected = null;
    setHash();
    if (window.frameChanged) window.frameChanged(rec);
    if (thenCall === undefined) {
      try { await calls.load(0); } catch (e) { /* shown */ }
    }
  }
  if (thenCall !== undefined) await jumpToCall(thenCall);
}

// the index of call number `no` in the selected frame: binary search over pages (call
// numbers rise through a frame, with gaps), then a look around the landing point
async function findCallIndex(no) {
  const calls = S.calls, total = S.callTotal;
  let lo = 0, hi = Math.min(total - 1, Math.max(0, no - S.frame.first_call));
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = await calls.item(mid);
    if (c.no < no) lo = mid + 1; else hi = mid;
  }
  for (let d = 0; d < 64; d++) {
    for (const k of [lo - d, lo + d]) {
      if (k >= 0 && k < total) {
        const c = await calls.item(k);
        if (c && c.no === no) return k;
      }
    }
  }
  return null;
}

async function jumpToCall(no) {
  try {
    const i = await findCallIndex(no);
    if (i === null) { showError(new Error(`call ${no} is not in frame ${S.frame.frame}`)); return; }
    // expand groups that hide it
    let changed = false;
    for (const [a, b] of [...S.collapsed]) {
      if (a < i && i <= b) { S.collapsed.delete(a); changed = true; }
    }
    if (changed) rebuildHidden();
    await selectCall(no, i);
  } catch (e) { showError(e, 'finding call ' + no); }
}

async function selectCall(no, i) {
  S.selected = no;
  S.selectedIndex = i;
  setHash();
  if (window.callChanged) window.callChanged(no);
  const v = visibleOfIndex(i);
  if (v !== null) callList.scrollTo(rowOfVisible(v));
  callList.refresh();
  const c = await S.calls.item(i);
  const detail = $('#call-detail');
  detail.hidden = false;
  detail.dataset.no = no;
  $('#call-text').textContent = `${no} @${c.thread} ${c.text}`;
  if (v !== null) callList.scrollTo(rowOfVisible(v));   // the detail box shortened the list
  const bt = $('#backtrace');
  bt.replaceChildren();
  if (c.backtrace && c.backtrace.length) {
    for (const line of c.backtrace) bt.append(el('li', { text: line }));
    $('#backtrace-box').hidden = false;
  } else {
    $('#backtrace-box').hidden = true;
  }
  loadState(no);
}

function initCalls() {
  callList = new VList($('#calls'), CALL_ROW, renderCallRow);
  $('#calls').addEventListener('keydown', e => {
    if (S.selectedIndex === null || !S.calls) return;
    let v = visibleOfIndex(S.selectedIndex);
    if (v === null) return;
    if (e.key === 'ArrowDown') v++;
    else if (e.key === 'ArrowUp') v--;
    else if (e.key === 'PageDown') v += 20;
    else if (e.key === 'PageUp') v -= 20;
    else if (e.key === 'Home') v = 0;
    else if (e.key === 'End') v = visibleCount() - 1;
    else return;
    e.preventDefault();
    v = Math.max(0, Math.min(visibleCount() - 1, v));
    const i = indexOfVisible(v);
    S.calls.item(i).then(c => selectCall(c.no, i), () => {});
  });
}

// ---------------------------------------------------------------------------------------
// search

let searchCtl = null;

async function runSearch(q, from, append) {
  if (searchCtl) searchCtl.abort();
  const ctl = new AbortController();
  searchCtl = ctl;
  const panel = $('#search-panel'), list = $('#search-results'), status = $('#search-status');
  const more = $('#search-more');
  panel.hidden = false;
  more.hidden = true;
  if (!append) list.replaceChildren();
  panel.dataset.state = 'running';
  status.textContent = `searching for “${q}”…`;
  const path = `api/search?q=${encodeURIComponent(q)}&from=${from || 0}&limit=500`;
  let found = list.children.length;
  try {
    let resp;
    try {
      resp = await fetch(path, { signal: ctl.signal, cache: 'no-store' });
    } catch (e) {
      if (e.name === 'AbortError') return;
      throw new ApiError(`${path}: the server does not answer (${e.message})`, 0);
    }
    if (!resp.ok) throw await failure(resp, path);
    const reader = resp.body.getReader();
    const dec = new TextDecoder();
    let buf = '', done = null;
    const handle = line => {
      if (!line.trim()) return;
      const m = JSON.parse(line);
      if (m.error) throw new ApiError(`${path}: ${m.error}`, 500);
      if (m.done) { done = m; return; }
      found++;
      const first = m.text.split('\n')[0];
      list.append(el('li', {
        class: 'result', 'data-no': m.no, 'data-frame': m.frame, title: m.text,
        onclick: () => { markResult(m.no); selectFrame(m.frame, m.no); },
      }, el('span', { class: 'no', text: m.no }), el('span', { class: 'rframe', text: 'f' + m.frame }),
      el('span', { class: 'text', text: first })));
    };
    for (;;) {
      const { value, done: end } = await reader.read();
      if (value) buf += dec.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        handle(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
      if (ctl !== searchCtl) return;
      status.textContent = `${fmtInt(found)} matches for “${q}” so far…`;
      if (end) break;
    }
    handle(buf + dec.decode());
    if (!done) throw new ApiError(`${path}: the answer ended without its "done" line`, 0);
    panel.dataset.state = 'done';
    status.textContent = `${fmtInt(found)} match${found === 1 ? '' : 'es'} for “${q}” ` +
      `(${fmtInt(done.scanned)} calls scanned${done.next !== null && done.next !== undefined ? ', more after call ' + done.next : ''})`;
    if (done.next !== null && done.next !== undefined) {
      more.hidden = false;
      more.onclick = () => runSearch(q, done.next, true);
    }
  } catch (e) {
    if (e.name === 'AbortError') return;
    panel.dataset.state = 'failed';
    status.textContent = 'search failed';
    showError(e, 'search');
  } finally {
    if (searchCtl === ctl) searchCtl = null;
  }
}

function markResult(no) {
  for (const e of document.querySelectorAll('#search-results .result.current')) e.classList.remove('current');
  const r = $(`#search-results .result[data-no="${no}"]`);
  if (r) { r.classList.add('current'); r.scrollIntoView({ block: 'nearest' }); }
}

// the previous (-1) or next (+1) search result from the current one
function stepResult(d) {
  const all = [...document.querySelectorAll('#search-results .result')];
  if (!all.length) return;
  const cur = all.findIndex(r => r.classList.contains('current'));
  const k = cur < 0 ? (d > 0 ? 0 : all.length - 1) : Math.max(0, Math.min(all.length - 1, cur + d));
  all[k].click();
}

function initSearch() {
  $('#search-form').addEventListener('submit', e => {
    e.preventDefault();
    const q = $('#search').value.trim();
    if (q) runSearch(q, 0, false);
  });
  $('#search-prev').addEventListener('click', () => stepResult(-1));
  $('#search-next').addEventListener('click', () => stepResult(1));
  $('#search-close').addEventListener('click', () => {
    if (searchCtl) searchCtl.abort();
    $('#search-panel').hidden = true;
  });
}

// ---------------------------------------------------------------------------------------
// go to a frame or a call; the selection in the URL (#frame=N&call=M), so that a link
// reopens it

function setHash() {
  if (!S.frame) return;
  const h = '#frame=' + S.frame.frame + (S.selected !== null && S.selected !== undefined ? '&call=' + S.selected : '');
  if (location.hash !== h) history.replaceState(null, '', h);
}

async function gotoCall(no) {
  const j = await api('api/frame_of?call=' + no);
  await selectFrame(j.frame, no);
}

// "#frame=N&call=M" (either part): selects it
async function openHash() {
  const m = new URLSearchParams(location.hash.replace(/^#/, ''));
  const num = k => (m.has(k) && /^\d+$/.test(m.get(k)) ? Number(m.get(k)) : null);
  const f = num('frame'), c = num('call');
  try {
    if (f !== null) await selectFrame(f, c === null ? undefined : c);
    else if (c !== null) await gotoCall(c);
  } catch (e) { showError(e, 'opening ' + location.hash); }
}

function initGoto() {
  $('#goto-form').addEventListener('submit', async e => {
    e.preventDefault();
    const text = $('#goto').value.trim();
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!isFinite(n)) { showError(new Error(`go to: "${text}" is not a number`)); return; }
    try {
      if ($('#goto-kind').value === 'call') await gotoCall(n);
      else await selectFrame(n);
    } catch (err) { showError(err, 'go to'); }
  });
  window.addEventListener('hashchange', openHash);
}

// ---------------------------------------------------------------------------------------
// start

// ", frame range 5-7 with a state snapshot of 1,234 calls" (a trace of gltrace --frames)
function snapshotSummary(s) {
  const sn = s.snapshot;
  if (!sn) return null;
  const a = sn.first_frame, b = a + Math.max(0, s.frames - 1);
  return el('span', {
    class: 'snapshot-summary', 'data-first-frame': a, 'data-end-call': sn.end_call,
    text: `, frame range ${a}-${b} with a state snapshot of ` +
      (sn.calls === null ? 'unknown length (its end marker is missing)'
        : `${fmtInt(sn.calls)} call${sn.calls === 1 ? '' : 's'}`),
    title: sn.end_call === null ? null : `the snapshot's end marker is call ${sn.end_call}`,
  });
}

async function main() {
  initCalls();
  initSearch();
  initState();
  initCompare();
  initGoto();
  if (window.initTimelinePanel) initTimelinePanel();
  if (window.initEvents) initEvents();
  $('#timeline-btn').addEventListener('click', () => {
    runTimeline();
    if (window.openTimelinePanel) openTimelinePanel();
  });
  const summary = api('api/summary').then(s => {
    S.summary = s;
    const name = String(s.file || '').split('/').pop();
    document.title = name + ' — gltrace view';
    const sm = $('#summary');
    sm.dataset.state = 'done';
    sm.replaceChildren(...[el('b', { text: name }),
      ` ${fmtInt(s.calls)} calls, ${fmtInt(s.frames)} frames, ${fmtInt(s.threads)} thread${s.threads === 1 ? '' : 's'}` +
      (s.api ? `, ${s.api}` : '') + (s.version !== undefined ? `, trace version ${s.version}` : ''),
      snapshotSummary(s)].filter(Boolean));
    sm.title = `${s.file} (${fmtInt(s.size)} bytes)${s.indexed ? '' : ', not indexed'}`;
    if (S.frame && callList) callList.setCount(rowCount());   // frame 0's separator
  }, e => { $('#summary').dataset.state = 'failed'; $('#summary').textContent = 'no summary'; showError(e); });
  try {
    await initFrames();
  } catch (e) {
    showError(e, 'frames');
  }
  await summary;
  if (location.hash.length > 1) await openHash();
  document.body.dataset.ready = '1';
}

main();
