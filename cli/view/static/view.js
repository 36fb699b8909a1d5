// gltrace view: the page (plain JS, no build step, no network beyond its own server).
// The HTTP interface it uses is cli/view/API.md. Every path is relative: the page is
// served at /TOKEN/, so "api/..." resolves under the token.
'use strict';

// ---------------------------------------------------------------------------------------
// helpers

const $ = (sel, root) => (root || document).querySelector(sel);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// The message of a failed answer: the server's {"error": ...}, or what we can say.
async function failure(resp, path) {
  let msg = '';
  const type = resp.headers.get('Content-Type') || '';
  try {
    if (type.includes('json')) {
      const j = await resp.json();
      msg = j && j.error ? String(j.error) : JSON.stringify(j);
    } else {
      msg = (await resp.text()).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
    }
  } catch (e) { /* body unreadable: status only */ }
  if (resp.status === 403) {
    msg = 'the server refused the request (403): this link is stale or wrong; ' +
          'open the URL gltrace view printed' + (msg ? ' (' + msg + ')' : '');
  }
  return new ApiError(`${path}: ${resp.status} ${msg || resp.statusText}`, resp.status);
}

async function api(path, opts) {
  let resp;
  try {
    resp = await fetch(path, Object.assign({ cache: 'no-store' }, opts || {}));
  } catch (e) {
    throw new ApiError(`${path}: the server does not answer (${e.message}); is gltrace view still running?`, 0);
  }
  if (!resp.ok) throw await failure(resp, path);
  const j = await resp.json();
  if (j && typeof j === 'object' && 'error' in j && Object.keys(j).length === 1) {
    throw new ApiError(`${path}: ${j.error}`, resp.status);
  }
  return j;
}

let errorSeq = 0;
function showError(err, where) {
  const msg = (where ? where + ': ' : '') + (err && err.message ? err.message : String(err));
  console.error(msg);
  const box = $('#errors');
  // the same message again only bumps its counter
  for (const e of box.children) {
    if (e.dataset.msg === msg) {
      e.dataset.count = String(Number(e.dataset.count || 1) + 1);
      $('.count', e).textContent = '×' + e.dataset.count;
      return;
    }
  }
  const item = el('div', { class: 'error', 'data-msg': msg, 'data-seq': ++errorSeq },
    el('span', { class: 'msg', text: msg }), el('span', { class: 'count' }),
    el('button', { type: 'button', class: 'dismiss', title: 'Dismiss', text: '×',
      onclick: () => item.remove() }));
  box.append(item);
  while (box.children.length > 5) box.firstChild.remove();
}

const sleep = ms => new Promise(r => setTimeout(r, ms));

// Polls api/job until the job is done; onProgress(fraction, call) while it runs.
// Returns the result URL. isCancelled() stops it quietly (returns null).
async function waitJob(id, onProgress, isCancelled) {
  let delay = 150;
  for (;;) {
    if (isCancelled && isCancelled()) return null;
    const j = await api('api/job?id=' + encodeURIComponent(id));
    if (isCancelled && isCancelled()) return null;
    if (j.state === 'done') {
      onProgress(1, j.call);
      return j.result || ('api/result?job=' + encodeURIComponent(id));
    }
    if (j.state === 'failed') throw new ApiError(j.error || 'the job failed', 500);
    onProgress(typeof j.progress === 'number' && isFinite(j.progress) ? j.progress : 0, j.call);
    await sleep(delay);
    delay = Math.min(delay * 1.3, 1000);
  }
}

function fmtInt(n) {
  return n === null || n === undefined ? '?' : Number(n).toLocaleString('en-US');
}

// nanoseconds as "420 ns", "3.5 µs", "850 µs", "1.2 ms", "153 ms", "2.41 s"
function fmtNs(ns) {
  const n = Number(ns);
  if (n < 0) return '−' + fmtNs(-n);   // the timeline's axis before its first call
  if (n < 1e3) return Math.round(n) + ' ns';
  if (n < 1e4) return (n / 1e3).toFixed(1) + ' µs';
  if (n < 1e6) return Math.round(n / 1e3) + ' µs';
  if (n < 1e8) return (n / 1e6).toFixed(1) + ' ms';
  if (n < 1e9) return Math.round(n / 1e6) + ' ms';
  return (n / 1e9).toFixed(2) + ' s';
}

// ---------------------------------------------------------------------------------------
// VList, the virtual list, is vlist.js

// Pages of a list fetched on demand: get(i) answers the item or undefined and starts
// fetching its page; onLoad runs when a page arrives.
class Pages {
  constructor(pageSize, fetchPage, onLoad) {
    this.size = pageSize;
    this.fetchPage = fetchPage;   // (first, count) -> Promise<items[]>
    this.onLoad = onLoad;
    this.pages = new Map();       // page -> items[] | Promise
    this.failed = new Map();      // page -> time of failure
  }
  get(i) {
    const p = Math.floor(i / this.size);
    const page = this.pages.get(p);
    if (Array.isArray(page)) return page[i - p * this.size];
    if (!page) this.load(p).catch(() => {});
    return undefined;
  }
  load(p) {
    const have = this.pages.get(p);
    if (Array.isArray(have)) return Promise.resolve(have);
    if (have) return have;
    const failedAt = this.failed.get(p);
    if (failedAt && Date.now() - failedAt < 3000) return Promise.reject(new Error('failed recently'));
    const pr = this.fetchPage(p * this.size, this.size).then(items => {
      this.pages.set(p, items);
      this.failed.delete(p);
      this.onLoad(p);
      return items;
    }, err => {
      this.pages.delete(p);
      this.failed.set(p, Date.now());
      showError(err);
      throw err;
    });
    this.pages.set(p, pr);
    return pr;
  }
  async item(i) {
    const p = Math.floor(i / this.size);
    const items = await this.load(p);
    return items[i - p * this.size];
  }
}

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
      f.complete === false ? el('span', { class: 'incomplete', text: ' (no swap)', title: 'the calls after the last swap' }) : null),
    el('div', { class: 'frame-counts' },
      el('span', { class: 'ncalls', text: fmtInt(f.calls) + (f.calls === 1 ? ' call' : ' calls') }),
      f.draws === null || f.draws === undefined ? null
        : el('span', { class: 'ndraws', text: fmtInt(f.draws) + (f.draws === 1 ? ' draw' : ' draws') })),
    frameTimes(f)));
  row.addEventListener('click', () => selectFrame(i));
  return row;
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
function rebuildHidden() {
  const r = [...S.collapsed].map(([a, b]) => [a + 1, b]).filter(([a, b]) => a <= b)
    .sort((x, y) => x[0] - y[0]);
  const m = [];
  for (const x of r) {
    if (m.length && x[0] <= m[m.length - 1][1] + 1) m[m.length - 1][1] = Math.max(m[m.length - 1][1], x[1]);
    else m.push(x.slice());
  }
  S.hidden = m;
  callList.setCount(visibleCount());
  callList.refresh();
}

// the indent of a call in debug groups (a style property: the page's CSP refuses style
// attributes)
function indentOf(depth) {
  const e = el('span', { class: 'indent' });
  e.style.width = (depth * 14) + 'px';
  return e;
}

function renderCallRow(v, old) {
  const i = indexOfVisible(v);
  const c = S.calls ? S.calls.get(i) : undefined;
  const key = (c ? 'c' : 'l') + S.frame.frame + ':' + i + (S.collapsed.has(i) ? 'x' : '') +
    (c && c.no === S.selected ? 's' : '');
  if (old && old.dataset.key === key) return old;
  if (!c) return el('div', { class: 'call loading', 'data-key': key, 'data-index': i, text: '…' });
  const cls = ['call'];
  if (c.draw) cls.push('draw');
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
        callList.setCount(visibleCount());
      }
      return j.calls;
    }, () => { if (calls === S.calls) callList.refresh(); });
    S.calls = calls;
    $('#calls-title').textContent = `frame ${f}: ${fmtInt(rec.calls)} calls, ${rec.first_call}–${rec.last_call}`;
    $('#calls').dataset.frame = f;
    callList.box.scrollTop = 0;
    callList.clear();
    callList.setCount(rec.calls);
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
  if (v !== null) callList.scrollTo(v);
  callList.refresh();
  const c = await S.calls.item(i);
  const detail = $('#call-detail');
  detail.hidden = false;
  detail.dataset.no = no;
  $('#call-text').textContent = `${no} @${c.thread} ${c.text}`;
  if (v !== null) callList.scrollTo(v);   // the detail box shortened the list
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
// state (right)

function setStateProgress(shown, frac, text) {
  const box = $('#state-progress-box');
  box.hidden = !shown;
  const p = $('#state-progress');
  if (typeof frac !== 'number' || !isFinite(frac)) p.removeAttribute('value');
  else p.value = Math.max(0, Math.min(1, frac));
  $('#state-progress-text').textContent = text || '';
}

async function loadState(no) {
  const seq = ++S.stateSeq;
  const cancelled = () => seq !== S.stateSeq;
  const pane = $('#state-pane');
  pane.dataset.call = no;
  pane.dataset.state = 'loading';
  $('#state-title').textContent = 'after call ' + no;
  $('#state-error').hidden = true;
  $('#state').hidden = true;
  setStateProgress(true, null, 'starting the replay…');
  try {
    // the previous draw's and the previous call's parameters, for what changed
    // (changes.js: asked for only where the replay need not start again for them)
    const before = await statesBefore(no, cancelled);
    if (cancelled()) return;
    const j = await api('api/state?call=' + no);
    if (cancelled()) return;
    let dumped = no;
    const url = await waitJob(j.job, (frac, call) => {
      if (frac >= 1 && typeof call === 'number') dumped = call;
      setStateProgress(true, frac, `replaying… ${Math.round(frac * 100)}%` +
        (call !== undefined && call !== null ? ` (call ${call})` : ''));
    }, cancelled);
    if (url === null || cancelled()) return;
    setStateProgress(true, 1, 'loading the state…');
    const state = await api(url);
    if (cancelled()) return;
    renderState(state);
    const cur = state.parameters || {};
    rememberState(no, dumped, cur);
    markChanges(before.call ? changedParams(cur, before.call) : null,
      before.draw ? changedParams(cur, before.draw) : null, before);
    applyParamFilter();
    setStateProgress(false);
    pane.dataset.state = 'done';
    $('#state').hidden = false;
  } catch (e) {
    if (cancelled()) return;
    setStateProgress(false);
    pane.dataset.state = 'failed';
    const box = $('#state-error');
    box.textContent = `The state after call ${no} could not be loaded: ${e.message}`;
    box.hidden = false;
    showError(e, 'state after call ' + no);
  }
}

function fmtValue(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    if (v.length && v.every(x => Array.isArray(x))) return v.map(fmtValue).join('\n');
    return '[' + v.map(fmtValue).join(', ') + ']';
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function isImage(v) {
  return v && typeof v === 'object' && v.__class__ === 'image';
}

// parameters: nested objects (GL_BACK, GL_TEXTURE_2D, vertex attribute arrays, ...)
// flattened to "OUTER / NAME" rows
function flattenParams(obj, prefix, out) {
  for (const [k, v] of Object.entries(obj)) {
    const name = prefix ? prefix + ' / ' + k : k;
    if (v && typeof v === 'object' && !Array.isArray(v) && !isImage(v)) flattenParams(v, name, out);
    else out.push([name, v]);
  }
  return out;
}

function renderKV(tbody, rows, kind) {
  tbody.replaceChildren();
  const frag = document.createDocumentFragment();
  for (const [name, v] of rows) {
    const val = isImage(v) ? `image ${v.__width__}×${v.__height__} ${v.__format__}` : fmtValue(v);
    frag.append(el('tr', { 'data-name': name, 'data-value': isImage(v) ? null : JSON.stringify(v), class: kind },
      kind === 'param' ? el('td', { class: 'chg' }) : null,
      el('td', { class: 'name', text: name }), el('td', { class: 'value', text: val })));
  }
  tbody.append(frag);
}

function applyParamFilter() {
  const q = $('#state-filter').value.trim().toLowerCase();
  const changedOnly = $('#state-changed-only').checked;
  let shown = 0;
  for (const tr of $('#state-params tbody').children) {
    const hit = (!q || tr.textContent.toLowerCase().includes(q)) && (!changedOnly || !!tr.dataset.changed);
    tr.hidden = !hit;
    if (hit) shown++;
  }
  $('#state-params').dataset.shown = shown;
}

function renderState(st) {
  const params = st.parameters || {};
  renderKV($('#state-params tbody'), flattenParams(params, '', []), 'param');
  applyParamFilter();
  // shaders
  const sh = $('#state-shaders');
  sh.replaceChildren();
  const shaders = st.shaders || {};
  for (const [stage, src] of Object.entries(shaders)) {
    const text = Array.isArray(src) ? src.join('\n') : String(src);
    const pre = el('pre', { class: 'glsl' });
    pre.innerHTML = highlightGLSL(text);
    sh.append(el('details', { class: 'shader', 'data-stage': stage, open: true },
      el('summary', { text: stage }), pre));
  }
  if (!sh.children.length) sh.append(el('p', { class: 'empty', text: 'no program bound' }));
  // uniforms
  renderKV($('#state-uniforms tbody'), Object.entries(st.uniforms || {}), 'uniform');
  // buffers (and shader storage blocks): JSON, capped
  const bf = $('#state-buffers');
  bf.replaceChildren();
  for (const group of ['buffers', 'shaderstoragebufferblocks']) {
    for (const [name, v] of Object.entries(st[group] || {})) {
      let text = JSON.stringify(v, null, 1);
      const cap = 200000;
      if (text.length > cap) text = text.slice(0, cap) + `\n… (${fmtInt(text.length - cap)} more characters)`;
      bf.append(el('details', { class: 'buffer', 'data-name': name },
        el('summary', { text: `${name}${Array.isArray(v) ? ` (${fmtInt(v.length)} elements)` : ''}` }),
        el('pre', { text })));
    }
  }
  if (!bf.children.length) bf.append(el('p', { class: 'empty', text: 'no buffers' }));
  // textures and framebuffer attachments
  for (const [id, key] of [['#state-textures', 'textures'], ['#state-framebuffer', 'framebuffer']]) {
    const box = $(id);
    box.replaceChildren();
    for (const [name, img] of Object.entries(st[key] || {})) {
      if (isImage(img)) box.append(imageView(name, img));
    }
    if (!box.children.length) box.append(el('p', { class: 'empty', text: 'no ' + key }));
  }
  // counts on the tabs
  const counts = {
    params: Object.keys(params).length, shaders: Object.keys(shaders).length,
    uniforms: Object.keys(st.uniforms || {}).length,
    buffers: Object.keys(st.buffers || {}).length + Object.keys(st.shaderstoragebufferblocks || {}).length,
    textures: Object.keys(st.textures || {}).length, framebuffer: Object.keys(st.framebuffer || {}).length,
  };
  for (const b of document.querySelectorAll('#state-tabs .tab')) {
    b.dataset.count = counts[b.dataset.tab];
  }
}

function selectTab(name) {
  for (const b of document.querySelectorAll('#state-tabs .tab')) b.classList.toggle('active', b.dataset.tab === name);
  for (const d of document.querySelectorAll('#state .tab-body')) d.hidden = d.dataset.tab !== name;
}

// GLSL highlighting by regex: comments, preprocessor lines, numbers, keywords, types
const GLSL_KEYWORDS = new Set(('attribute const uniform varying buffer shared coherent volatile restrict ' +
  'readonly writeonly layout centroid flat smooth noperspective patch sample break continue do for ' +
  'while switch case default if else subroutine in out inout invariant precise discard return ' +
  'lowp mediump highp precision struct true false').split(' '));
const GLSL_TYPES = new Set(('void bool int uint float double vec2 vec3 vec4 dvec2 dvec3 dvec4 bvec2 ' +
  'bvec3 bvec4 ivec2 ivec3 ivec4 uvec2 uvec3 uvec4 mat2 mat3 mat4 mat2x2 mat2x3 mat2x4 mat3x2 ' +
  'mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 dmat2 dmat3 dmat4 sampler1D sampler2D sampler3D samplerCube ' +
  'sampler2DShadow sampler1DShadow samplerCubeShadow sampler2DArray sampler2DArrayShadow ' +
  'samplerBuffer sampler2DMS sampler2DRect isampler2D usampler2D isampler3D usampler3D ' +
  'image2D image3D uimage2D iimage2D samplerExternalOES').split(' '));

function escapeHTML(s) {
  return s.replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

function highlightGLSL(src) {
  const re = /(\/\*[\s\S]*?(?:\*\/|$))|(\/\/[^\n]*)|(^[ \t]*#[^\n]*)|(\b(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[uUfFlL]*\b)|([A-Za-z_]\w*)/gm;
  let out = '', last = 0, m;
  while ((m = re.exec(src)) !== null) {
    out += escapeHTML(src.slice(last, m.index));
    const t = escapeHTML(m[0]);
    if (m[1] || m[2]) out += `<span class="tok-comment">${t}</span>`;
    else if (m[3]) out += `<span class="tok-pre">${t}</span>`;
    else if (m[4]) out += `<span class="tok-num">${t}</span>`;
    else if (GLSL_KEYWORDS.has(m[5])) out += `<span class="tok-kw">${t}</span>`;
    else if (GLSL_TYPES.has(m[5])) out += `<span class="tok-type">${t}</span>`;
    else if (m[5].startsWith('gl_')) out += `<span class="tok-builtin">${t}</span>`;
    else out += t;
    last = re.lastIndex;
  }
  return out + escapeHTML(src.slice(last));
}

// an image of the state (texture level, framebuffer attachment): a canvas with zoom
// (wheel, buttons; pixelated) and a pixel inspector (x, y, RGBA under the pointer)
function imageView(name, img) {
  const w = img.__width__, h = img.__height__;
  const canvas = el('canvas', { class: 'pixels', width: w, height: h, 'data-name': name });
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const info = el('span', { class: 'pixel-info', text: 'hover for pixel values' });
  const zoomText = el('span', { class: 'zoom-text' });
  const viewport = el('div', { class: 'image-viewport' }, canvas);
  const box = el('figure', {
    class: 'image-view', 'data-name': name, 'data-width': w, 'data-height': h,
    'data-format': img.__format__, 'data-loaded': '0',
  });
  let zoom = 1;
  const setZoom = z => {
    zoom = Math.max(1 / 16, Math.min(64, z));
    canvas.style.width = (w * zoom) + 'px';
    canvas.style.height = (h * zoom) + 'px';
    zoomText.textContent = (zoom >= 1 ? zoom : zoom.toFixed(3).replace(/0+$/, '')) + '×';
    box.dataset.zoom = zoom;
  };
  const fit = () => {
    if (!viewport.clientWidth) return;
    const avail = viewport.clientWidth - 4;
    let z = 1;
    while (w * z > avail && z > 1 / 16) z /= 2;
    while (w * z * 2 <= avail && h * z * 2 <= 512 && z < 8) z *= 2;
    setZoom(z);
  };
  const btn = (text, title, fn) => el('button', { type: 'button', text, title,
    onclick: () => { userZoomed = true; fn(); } });
  box.append(
    el('figcaption', {},
      el('span', { class: 'image-name', text: name }),
      el('span', { class: 'image-meta', text: ` ${w}×${h} ${img.__format__}` }),
      el('span', { class: 'zoom' }, btn('−', 'zoom out', () => setZoom(zoom / 2)), zoomText,
        btn('+', 'zoom in', () => setZoom(zoom * 2)), btn('1:1', 'actual size', () => setZoom(1)),
        btn('fit', 'fit the panel', fit)),
      info),
    viewport);
  setZoom(1);
  let floats = null;   // a PFM image: its values, for the inspector
  // fitted when drawn and again when first shown (an image in a hidden tab has no width)
  // until the user zooms
  let userZoomed = false, isLoaded = false;
  const loaded = () => { box.dataset.loaded = '1'; isLoaded = true; requestAnimationFrame(fit); };
  new ResizeObserver(() => { if (isLoaded && !userZoomed && viewport.clientWidth > 0) fit(); }).observe(viewport);
  const failed = why => { box.dataset.loaded = 'error'; info.textContent = why; };
  let bytes = null;
  try { bytes = atob(img.__data__.slice(0, 16)); } catch (e) { /* not base64 */ }
  if (bytes !== null && /^P[fF]\s/.test(bytes)) {
    // depth and float colour buffers: apitrace writes them as PFM
    try {
      floats = drawPFM(ctx, img.__data__, w, h);
      box.dataset.kind = 'pfm';
      box.dataset.range = floats.min + ' ' + floats.max;
      loaded();
    } catch (e) { failed('the PFM image could not be read: ' + e.message); }
  } else {
    const pic = new Image();
    pic.onload = () => { ctx.drawImage(pic, 0, 0); loaded(); };
    pic.onerror = () => failed('the image data could not be decoded');
    pic.src = 'data:image/png;base64,' + img.__data__;
  }
  viewport.addEventListener('wheel', e => {
    e.preventDefault();
    userZoomed = true;
    setZoom(e.deltaY < 0 ? zoom * 1.25 : zoom / 1.25);
  }, { passive: false });
  canvas.addEventListener('mousemove', e => {
    const r = canvas.getBoundingClientRect();
    const x = Math.floor((e.clientX - r.left) / zoom), y = Math.floor((e.clientY - r.top) / zoom);
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    const d = ctx.getImageData(x, y, 1, 1).data;
    let value = `RGBA ${d[0]}, ${d[1]}, ${d[2]}, ${d[3]}`;
    if (floats) {
      const k = ((h - 1 - y) * w + x) * floats.channels;
      value = 'value ' + Array.from(floats.data.subarray(k, k + floats.channels), v => +v.toPrecision(7)).join(', ') +
        ` (shown as ${d[0]})`;
    }
    info.textContent = `x ${x}, y ${y} (GL y ${h - 1 - y}): ${value}`;
    info.dataset.x = x; info.dataset.y = y;
    info.dataset.rgba = `${d[0]},${d[1]},${d[2]},${d[3]}`;
  });
  return box;
}

// PFM (Pf: one channel, PF: three; rows bottom to top; float32, little-endian when the
// scale is negative; apitrace writes a positive scale with little-endian data, so the
// byte order is the one whose first values are sane) drawn as grey levels (or colour)
// stretched over the finite values' range
function drawPFM(ctx, b64, w, h) {
  const bin = atob(b64);
  const u8 = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
  const head = /^(P[fF])\s+(\d+)\s+(\d+)\s+(\S+)\s/.exec(bin.slice(0, 64));
  if (!head) throw new Error('no PFM header');
  const channels = head[1] === 'PF' ? 3 : 1;
  const pw = +head[2], ph = +head[3], scale = parseFloat(head[4]);
  const off = head[0].length, n = pw * ph * channels;
  if (pw !== w || ph !== h) throw new Error(`PFM is ${pw}×${ph}, the JSON says ${w}×${h}`);
  if (u8.length < off + n * 4) throw new Error('PFM data cut short');
  const dv = new DataView(u8.buffer, off, n * 4);
  const sane = le => {
    let good = 0;
    for (let i = 0; i < Math.min(n, 64); i++) {
      const v = dv.getFloat32(i * 4, le);
      if (isFinite(v) && Math.abs(v) < 1e30 && (v === 0 || Math.abs(v) > 1e-30)) good++;
    }
    return good;
  };
  const le = scale < 0 || sane(true) >= sane(false);
  const data = new Float32Array(n);
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = dv.getFloat32(i * 4, le);
    data[i] = v;
    if (isFinite(v)) { if (v < min) min = v; if (v > max) max = v; }
  }
  if (!(min <= max)) { min = 0; max = 1; }
  const span = max > min ? max - min : 1;
  const out = ctx.createImageData(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const src = ((h - 1 - y) * w + x) * channels, dst = (y * w + x) * 4;
      for (let c = 0; c < 3; c++) {
        const v = data[src + (channels === 3 ? c : 0)];
        out.data[dst + c] = isFinite(v) ? Math.round((v - min) / span * 255) : 0;
      }
      out.data[dst + 3] = 255;
    }
  }
  ctx.putImageData(out, 0, 0);
  return { data, channels, min, max };
}

function initState() {
  $('#state-filter').addEventListener('input', applyParamFilter);
  $('#state-changed-only').addEventListener('change', applyParamFilter);
  for (const b of document.querySelectorAll('#state-tabs .tab')) {
    b.addEventListener('click', () => selectTab(b.dataset.tab));
  }
}

// ---------------------------------------------------------------------------------------
// timeline

async function runTimeline() {
  const btn = $('#timeline-btn'), prog = $('#timeline-progress'), out = $('#timeline-out');
  btn.disabled = true;
  prog.hidden = false;
  prog.removeAttribute('value');
  out.replaceChildren(el('span', { text: 'replaying with timing…' }));
  $('#timeline').dataset.state = 'running';
  try {
    const j = await api('api/timeline');
    const url = await waitJob(j.job, frac => {
      prog.value = Math.max(0, Math.min(1, frac));
      out.firstChild.textContent = `replaying with timing… ${Math.round(frac * 100)}%`;
    });
    // short: the header must not wrap (the panel offers Perfetto)
    out.replaceChildren(
      el('a', { id: 'timeline-link', href: url, download: 'timeline.json', text: 'JSON',
        title: 'Download the timeline (Chrome JSON, for ui.perfetto.dev or chrome://tracing)' }));
    $('#timeline').dataset.state = 'done';
  } catch (e) {
    out.replaceChildren(el('span', { class: 'error-inline', text: 'timeline failed' }));
    $('#timeline').dataset.state = 'failed';
    showError(e, 'timeline');
  } finally {
    btn.disabled = false;
    prog.hidden = true;
  }
}

// ---------------------------------------------------------------------------------------
// image comparison: gltrace diff-images on two snapshot sets (api/diff), its verdicts
// listed with the two images and the difference mask side by side

let compareSeq = 0;

function compareFigure(cls, caption, src, alt) {
  return el('figure', null,
    src ? el('a', { href: src, target: '_blank', rel: 'noopener noreferrer' },
      el('img', { class: cls, src, alt, loading: 'lazy' }))
      : el('div', { class: 'none ' + cls + '-none', text: '—' }),
    el('figcaption', { text: caption }));
}

function renderCompare(r) {
  const box = $('#compare-results');
  const all = $('#compare-all').checked;
  const rows = [];
  for (const im of r.images) {
    if (im.verdict === 'match' && !all) continue;
    rows.push(el('div', { class: 'cmp-row ' + im.verdict, 'data-name': im.name, 'data-verdict': im.verdict },
      el('div', null,
        el('div', { class: 'cmp-name', text: im.name }),
        el('span', { class: 'cmp-verdict', text: im.verdict }),
        im.detail ? el('div', { class: 'cmp-detail', text: im.detail }) : null),
      compareFigure('cmp-ref', 'reference', im.ref, 'reference ' + im.name),
      compareFigure('cmp-src', 'compared', im.src, 'compared ' + im.name),
      im.verdict === 'match' ? el('figure', null, el('div', { class: 'none', text: 'no difference' }))
        : compareFigure('cmp-diff', 'difference (differing pixels in red)', im.diff, 'difference ' + im.name)));
  }
  if (!rows.length) {
    rows.push(el('p', { class: 'empty', text: r.images.length ? 'every image matches' : 'no images' }));
  }
  box.replaceChildren(...rows);
}

async function runCompare() {
  const ref = $('#compare-ref').value.trim(), src = $('#compare-src').value.trim();
  const panel = $('#compare-panel'), prog = $('#compare-progress'), status = $('#compare-status');
  const go = $('#compare-go'), report = $('#compare-report');
  if (!ref || !src) {
    status.textContent = 'give both folders (or path prefixes)';
    return;
  }
  const seq = ++compareSeq;
  panel.dataset.state = 'running';
  go.disabled = true;
  prog.hidden = false;
  prog.removeAttribute('value');
  report.hidden = true;
  $('#compare-all-box').hidden = true;
  $('#compare-results').replaceChildren();
  status.textContent = 'comparing…';
  try {
    const j = await api(`api/diff?ref=${encodeURIComponent(ref)}&src=${encodeURIComponent(src)}`);
    const url = await waitJob(j.job, frac => {
      prog.value = Math.max(0, Math.min(1, frac));
      status.textContent = frac < 0.5 ? `copying the images… ${Math.round(frac * 200)}%` : 'comparing…';
    }, () => seq !== compareSeq);
    if (!url) return;
    const r = await api(url);
    if (seq !== compareSeq) return;
    S.compare = r;
    const c = r.counts;
    status.textContent = `${fmtInt(r.images.length)} images: ${fmtInt(c.match)} match, ${fmtInt(c.mismatch)} differ` +
      (c.missing ? `, ${fmtInt(c.missing)} missing` : '') + (c.unreadable ? `, ${fmtInt(c.unreadable)} unreadable` : '');
    report.href = r.report;
    report.hidden = false;
    $('#compare-all-box').hidden = !c.match;
    renderCompare(r);
    panel.dataset.state = 'done';
  } catch (e) {
    if (seq !== compareSeq) return;
    panel.dataset.state = 'failed';
    status.textContent = 'the comparison failed';
    showError(e, 'compare');
  } finally {
    if (seq === compareSeq) {
      go.disabled = false;
      prog.hidden = true;
    }
  }
}

function initCompare() {
  $('#compare-btn').addEventListener('click', () => {
    const panel = $('#compare-panel');
    panel.hidden = !panel.hidden;
    const ref = $('#compare-ref');
    // the thumbnails (this replay's frames) are one side by default
    if (!panel.hidden && !ref.value && S.summary && S.summary.thumbs_dir) ref.value = S.summary.thumbs_dir;
    if (!panel.hidden) (ref.value ? $('#compare-src') : ref).focus();
  });
  $('#compare-form').addEventListener('submit', e => { e.preventDefault(); runCompare(); });
  $('#compare-all').addEventListener('change', () => { if (S.compare) renderCompare(S.compare); });
  $('#compare-close').addEventListener('click', () => { $('#compare-panel').hidden = true; });
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
    sm.replaceChildren(el('b', { text: name }),
      ` ${fmtInt(s.calls)} calls, ${fmtInt(s.frames)} frames, ${fmtInt(s.threads)} thread${s.threads === 1 ? '' : 's'}` +
      (s.api ? `, ${s.api}` : '') + (s.version !== undefined ? `, trace version ${s.version}` : ''));
    sm.title = `${s.file} (${fmtInt(s.size)} bytes)${s.indexed ? '' : ', not indexed'}`;
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
