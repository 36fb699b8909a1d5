// gltrace view: the helpers every script of the page uses: DOM building, api() and its
// errors, the error bar, jobs polled to their end, number and time formats, and Pages
// (a list fetched in pages on demand). Loaded first (index.html).
'use strict';

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
