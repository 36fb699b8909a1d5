// gltrace view: the timeline panel. The CPU and GPU tracks of a few frames (api/slices:
// the timeline job's slices of a frame range) drawn on a canvas: debug groups nested
// above the calls, GPU work on its own track, frame markers. Wheel zooms around the
// pointer, drag pans, double-click fits. A click on a slice selects its call in the call
// list; selecting a call outlines its slices (and brings them into view). "Open in
// Perfetto" hands the whole Chrome JSON to ui.perfetto.dev by its postMessage protocol.
'use strict';

const TL = {
  data: null,          // the answer of api/slices, its slices in typed arrays
  first: null, count: 1,
  v0: 0, v1: 1,        // the view, ns relative to data.t0
  seq: 0,
  selected: null,      // the selected call's number
  selectedSlices: [],  // its slices: [[track, index]]
  drawMs: 0,
};
const TL_LABEL_W = 64, TL_AXIS_H = 18, TL_ROW_H = 18;
const PERFETTO = 'https://ui.perfetto.dev';

// slices as columns: ts and dur (ns from t0), call, name index, depth (groups)
function tlTrack(rows, t0, kind) {
  // the server's order is the JSON's, by time for a track; sorted only when not
  let sorted = true;
  for (let i = 1; i < rows.length && sorted; i++) sorted = rows[i - 1][0] <= rows[i][0];
  if (!sorted) rows.sort((a, b) => a[0] - b[0]);
  const n = rows.length;
  const t = { n, ts: new Float64Array(n), dur: new Float64Array(n), call: new Float64Array(n),
    name: new Uint32Array(n), maxDur: 0 };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    t.ts[i] = r[0] - t0; t.dur[i] = r[1]; t.call[i] = r[2]; t.name[i] = r[3];
    if (r[1] > t.maxDur) t.maxDur = r[1];
  }
  t.kind = kind;
  return t;
}

function tlPrepare(j) {
  const t0 = j.t0;
  const d = { raw: j, names: j.names, t0, span: Math.max(1, j.t1 - j.t0), first: j.first, count: j.count };
  d.cpu = tlTrack(j.cpu, t0, 'cpu');
  // a track per traced thread (their calls overlap in time); d.cpu keeps them all, for
  // the lookups by time and call
  const tids = [...new Set(j.cpu.map(c => c[4]))];
  d.threads = tids.length > 1 ? tids.map(tid => ({ tid, track: tlTrack(j.cpu.filter(c => c[4] === tid), t0, 'cpu') })) : null;
  d.gpu = tlTrack(j.gpu, t0, 'gpu');
  // one track per group depth
  let maxDepth = -1;
  for (const g of j.groups) maxDepth = Math.max(maxDepth, g[2]);
  d.groups = [];
  for (let k = 0; k <= maxDepth; k++) d.groups.push(tlTrack(j.groups.filter(g => g[2] === k), t0, 'group'));
  // the view's extent: the CPU span and the GPU work of its calls (later, on the GPU)
  d.lo = 0; d.hi = d.span;
  for (const tr of [d.gpu]) {
    if (tr.n) { d.lo = Math.min(d.lo, tr.ts[0]); d.hi = Math.max(d.hi, tr.ts[tr.n - 1] + tr.maxDur); }
  }
  d.marks = j.frames.map(m => ({ ts: m[0] - t0, frame: m[2] })).sort((a, b) => a.ts - b.ts);
  // the rows top to bottom: groups, CPU calls, GPU work
  d.rows = [];
  d.groups.forEach((g, k) => d.rows.push({ label: k ? '' : 'groups', track: g }));
  if (d.threads) d.threads.forEach((th, k) => d.rows.push({ label: 'CPU ' + (k + 1), track: th.track }));
  else d.rows.push({ label: 'CPU', track: d.cpu });
  d.rows.push({ label: 'GPU', track: d.gpu });
  return d;
}

// call no's slices, [[track, index]]: a scan of the typed arrays (under a millisecond for
// 200k slices; a Map of every call took longer to build than the drawing)
function tlSlicesOf(no) {
  const d = TL.data, out = [];
  if (!d || no === null || no === undefined) return out;
  for (const tr of [...(d.threads ? d.threads.map(t => t.track) : [d.cpu]), d.gpu]) {
    const c = tr.call;
    for (let i = 0; i < tr.n; i++) if (c[i] === no) out.push([tr, i]);
  }
  return out;
}

function tlCanvas() { return $('#tl-canvas'); }

// the first slice that may reach time t: binary search on start, less the longest slice
function tlFirstAt(tr, t) {
  let lo = 0, hi = tr.n;
  const from = t - tr.maxDur;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tr.ts[mid] < from) lo = mid + 1; else hi = mid;
  }
  return lo;
}

const TL_COLORS = { cpu: ['#4f7fc9', '#3b68ad'], gpu: ['#2f9e6f', '#23805a'], group: ['#c99a3b', '#b1842a'] };

function tlDraw() {
  const cv = tlCanvas(), d = TL.data;
  if (!cv || !d) return;
  const t0 = performance.now();
  const dpr = window.devicePixelRatio || 1;
  const W = cv.clientWidth, H = TL_AXIS_H + d.rows.length * TL_ROW_H + 4;
  cv.style.height = H + 'px';
  if (cv.width !== Math.round(W * dpr) || cv.height !== Math.round(H * dpr)) {
    cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr);
  }
  const ctx = cv.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, W, H);
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const plotW = Math.max(10, W - TL_LABEL_W);
  const k = plotW / (TL.v1 - TL.v0);
  const X = t => TL_LABEL_W + (t - TL.v0) * k;
  // time axis: ticks at 1, 2 or 5 × 10^n ns, about every 100 px
  const step = (() => {
    const raw = 100 / k, p = Math.pow(10, Math.floor(Math.log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
  })();
  ctx.fillStyle = '#6b7075';
  ctx.strokeStyle = '#e4e6e8';
  ctx.beginPath();
  for (let t = Math.ceil(TL.v0 / step) * step; t <= TL.v1; t += step) {
    const x = Math.round(X(t)) + 0.5;
    ctx.moveTo(x, TL_AXIS_H - 4); ctx.lineTo(x, H);
    ctx.fillText(fmtNs(t), x + 2, TL_AXIS_H / 2);
  }
  ctx.stroke();
  // rows
  d.rows.forEach((row, r) => {
    const y = TL_AXIS_H + r * TL_ROW_H;
    const tr = row.track;
    const [fill, edge] = TL_COLORS[tr.kind];
    ctx.fillStyle = fill;
    let lastPx = -1;   // slices under a pixel are drawn once, as one pixel column
    for (let i = tlFirstAt(tr, TL.v0); i < tr.n; i++) {
      const s = tr.ts[i];
      if (s > TL.v1) break;
      const x0 = X(s), x1 = X(s + tr.dur[i]);
      if (x1 < TL_LABEL_W) continue;
      if (x1 - x0 < 1) {
        const px = Math.floor(x0);
        if (px === lastPx) continue;
        lastPx = px;
        ctx.fillRect(px, y + 2, 1, TL_ROW_H - 4);
        continue;
      }
      const a = Math.max(x0, TL_LABEL_W), w = x1 - a;
      ctx.fillRect(a, y + 2, w, TL_ROW_H - 4);
      lastPx = Math.floor(x1);
      if (w > 40) {
        ctx.save();
        ctx.fillStyle = '#fff';
        ctx.beginPath(); ctx.rect(a, y, w - 2, TL_ROW_H); ctx.clip();
        ctx.fillText(d.names[tr.name[i]] || '', a + 3, y + TL_ROW_H / 2);
        ctx.restore();
      }
      if (w > 3) { ctx.strokeStyle = edge; ctx.strokeRect(a + 0.5, y + 2.5, w - 1, TL_ROW_H - 5); }
    }
  });
  // frame markers
  ctx.strokeStyle = '#a01818';
  ctx.fillStyle = '#a01818';
  let labelEnd = -Infinity;   // labels that would overlap the previous one are left out
  for (const m of d.marks) {
    const x = Math.round(X(m.ts)) + 0.5;
    if (x < TL_LABEL_W || x > W) continue;
    ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, H); ctx.stroke();
    if (x + 3 < labelEnd) continue;
    const text = 'frame ' + m.frame;
    ctx.fillText(text, x + 3, TL_AXIS_H + d.rows.length * TL_ROW_H - 6);
    labelEnd = x + 3 + ctx.measureText(text).width + 6;
  }
  // the selected call's slices, outlined
  const sel = TL.selectedSlices;
  if (sel && sel.length) {
    ctx.strokeStyle = '#e0207a';
    ctx.lineWidth = 2;
    for (const [tr, i] of sel) {
      const r = d.rows.findIndex(x => x.track === tr);
      const x0 = X(tr.ts[i]), x1 = Math.max(X(tr.ts[i] + tr.dur[i]), x0 + 3);
      ctx.strokeRect(x0 - 1, TL_AXIS_H + r * TL_ROW_H + 1, x1 - x0 + 2, TL_ROW_H - 2);
    }
    ctx.lineWidth = 1;
  }
  // labels over the plot's left edge
  ctx.fillStyle = '#f6f7f8';
  ctx.fillRect(0, 0, TL_LABEL_W, H);
  ctx.fillStyle = '#1d1f21';
  d.rows.forEach((row, r) => ctx.fillText(row.label, 6, TL_AXIS_H + r * TL_ROW_H + TL_ROW_H / 2));
  TL.drawMs = performance.now() - t0;
  cv.dataset.drawMs = TL.drawMs.toFixed(1);
  cv.dataset.v0 = TL.v0; cv.dataset.v1 = TL.v1;
}

function tlFit() {
  if (!TL.data) return;
  const d = TL.data, pad = (d.hi - d.lo) * 0.01;
  TL.v0 = d.lo - pad; TL.v1 = d.hi + pad;
  tlDraw();
}

function tlZoom(factor, atX) {
  const cv = tlCanvas(), plotW = cv.clientWidth - TL_LABEL_W;
  const f = Math.max(0, Math.min(1, (atX - TL_LABEL_W) / plotW));
  const at = TL.v0 + f * (TL.v1 - TL.v0);
  const span = Math.max(100, Math.min((TL.data.hi - TL.data.lo) * 4, (TL.v1 - TL.v0) * factor));
  TL.v0 = at - f * span; TL.v1 = TL.v0 + span;
  tlDraw();
}

// the slice under the point, or null: [track, index]
function tlHit(x, y) {
  const d = TL.data;
  const r = Math.floor((y - TL_AXIS_H) / TL_ROW_H);
  if (!d || r < 0 || r >= d.rows.length || x < TL_LABEL_W) return null;
  const tr = d.rows[r].track;
  const k = (tlCanvas().clientWidth - TL_LABEL_W) / (TL.v1 - TL.v0);
  const t = TL.v0 + (x - TL_LABEL_W) / k, slack = 2 / k;   // 2 px either side
  let best = null, bestDist = Infinity;
  for (let i = tlFirstAt(tr, t - slack); i < tr.n && tr.ts[i] <= t + slack; i++) {
    const a = tr.ts[i], b = a + tr.dur[i];
    const dist = t < a ? a - t : t > b ? t - b : 0;
    if (dist <= slack && dist < bestDist) { best = i; bestDist = dist; }
  }
  return best === null ? null : [tr, best];
}

function tlSliceText(tr, i) {
  const d = TL.data;
  const what = tr.kind === 'group' ? 'group' : tr.kind === 'gpu' ? 'GPU' : 'CPU';
  return `${d.names[tr.name[i]] || '?'} — ${what} ${fmtNs(tr.dur[i])}` +
    (tr.kind === 'group' ? '' : `, call ${tr.call[i]}`);
}

// the group slices go to their first call: the CPU slice starting with them
function tlCallOf(tr, i) {
  if (tr.kind !== 'group') return tr.call[i];
  const cpu = TL.data.cpu;
  const j = tlFirstAt(cpu, tr.ts[i]);
  for (let k = j; k < cpu.n; k++) if (cpu.ts[k] >= tr.ts[i]) return cpu.call[k];
  return null;
}

function initTimelineCanvas() {
  const cv = tlCanvas(), tip = $('#tl-tip');
  cv.addEventListener('wheel', e => {
    if (!TL.data) return;
    e.preventDefault();
    const r = cv.getBoundingClientRect();
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      const dt = (e.deltaX || e.deltaY) / (r.width - TL_LABEL_W) * (TL.v1 - TL.v0);
      TL.v0 += dt; TL.v1 += dt; tlDraw();
    } else {
      tlZoom(Math.pow(1.0015, e.deltaY), e.clientX - r.left);
    }
  }, { passive: false });
  let drag = null;
  cv.addEventListener('mousedown', e => { drag = { x: e.clientX, v0: TL.v0, v1: TL.v1, moved: false }; });
  window.addEventListener('mouseup', () => { setTimeout(() => { drag = null; }, 0); });
  cv.addEventListener('mousemove', e => {
    const r = cv.getBoundingClientRect();
    if (drag && e.buttons & 1) {
      const dx = e.clientX - drag.x;
      if (Math.abs(dx) > 2) drag.moved = true;
      const dt = dx / (r.width - TL_LABEL_W) * (drag.v1 - drag.v0);
      TL.v0 = drag.v0 - dt; TL.v1 = drag.v1 - dt;
      tlDraw();
      return;
    }
    const hit = tlHit(e.clientX - r.left, e.clientY - r.top);
    if (hit) {
      tip.textContent = tlSliceText(hit[0], hit[1]);
      tip.hidden = false;
      tip.style.left = Math.min(e.clientX - r.left + 12, r.width - 260) + 'px';
      tip.style.top = (e.clientY - r.top + 14) + 'px';
    } else {
      tip.hidden = true;
    }
  });
  cv.addEventListener('mouseleave', () => { tip.hidden = true; });
  cv.addEventListener('click', e => {
    if (drag && drag.moved) return;
    const r = cv.getBoundingClientRect();
    const hit = tlHit(e.clientX - r.left, e.clientY - r.top);
    if (!hit) return;
    const no = tlCallOf(hit[0], hit[1]);
    if (no !== null) gotoCall(no).catch(err => showError(err, 'timeline'));
  });
  cv.addEventListener('dblclick', tlFit);
  new ResizeObserver(() => tlDraw()).observe(cv);
}

// Loads the slices of frames [first, first + count): starts the timeline job when there
// is none yet (api/slices answers 404 until it is done).
async function tlLoad(first, count) {
  const seq = ++TL.seq;
  const panel = $('#timeline-panel'), status = $('#tl-status');
  panel.dataset.state = 'loading';
  status.textContent = `frames ${first}–${first + count - 1}: loading…`;
  try {
    let j;
    for (;;) {
      try {
        j = await api(`api/slices?first=${first}&count=${count}`);
        break;
      } catch (e) {
        if (e.status !== 404) throw e;
        status.textContent = 'replaying with timing…';
        const job = await api('api/timeline');
        await waitJob(job.job, frac => {
          status.textContent = `replaying with timing… ${Math.round(frac * 100)}%`;
        }, () => seq !== TL.seq);
        if (seq !== TL.seq) return;
        // the frames' times are read once the job is done: then the slices are there
        await sleep(200);
      }
    }
    if (seq !== TL.seq) return;
    const t = performance.now();
    TL.data = tlPrepare(j);
    TL.selectedSlices = [];
    TL.first = first; TL.count = count;
    const prepMs = performance.now() - t;
    tlFit();
    const n = j.cpu.length + j.gpu.length + j.groups.length;
    status.textContent = `frames ${first}–${first + j.count - 1}: ${fmtInt(j.cpu.length)} calls, ` +
      `${fmtInt(j.gpu.length)} GPU slices, ${fmtInt(j.groups.length)} groups` +
      (j.truncated ? ' (cut short)' : '') + ` — ${fmtNs(j.t1 - j.t0)} CPU span`;
    panel.dataset.state = 'done';
    panel.dataset.slices = n;
    panel.dataset.prepMs = prepMs.toFixed(1);
    if (TL.selected !== null) tlShowCall(TL.selected, false);
  } catch (e) {
    if (seq !== TL.seq) return;
    panel.dataset.state = 'failed';
    status.textContent = 'the timeline could not be loaded';
    showError(e, 'timeline');
  }
}

// outlines call `no`'s slices; brings them into view (the zoom kept) when asked
function tlShowCall(no, scroll) {
  TL.selected = no;
  const d = TL.data;
  if (!d) return;
  const sel = TL.selectedSlices = tlSlicesOf(no);
  if (sel.length && scroll !== false) {
    const [tr, i] = sel[0];
    const a = tr.ts[i], b = a + tr.dur[i], span = TL.v1 - TL.v0;
    if (b < TL.v0 || a > TL.v1) { TL.v0 = a - span / 2; TL.v1 = TL.v0 + span; }
  }
  $('#timeline-panel').dataset.selectedCall = sel.length ? no : '';
  tlDraw();
}

function tlRangeFromFrame() {
  const f = S.frame ? S.frame.frame : 0;
  const n = Math.max(1, Math.min(100, Number($('#tl-count').value) || 1));
  return [f, Math.min(n, Math.max(1, S.frameTotal - f))];
}

function openTimelinePanel() {
  $('#timeline-panel').hidden = false;
  const [f, n] = tlRangeFromFrame();
  if (!TL.data || TL.first !== f || TL.count !== n) tlLoad(f, n);
  else tlDraw();
}

// ---- Open in Perfetto: open the window, PING until it answers PONG, then post the
// buffer (https://perfetto.dev/docs/visualization/deep-linking-to-perfetto-ui)
async function openInPerfetto() {
  const status = $('#tl-status');
  const w = window.open(PERFETTO + '/#!/');
  if (!w) { showError(new Error('the browser blocked the Perfetto window (allow pop-ups for this page)')); return; }
  let buffer;
  try {
    const job = await api('api/timeline');
    const url = await waitJob(job.job, frac => {
      status.textContent = `replaying with timing… ${Math.round(frac * 100)}%`;
    });
    const resp = await fetch(url, { cache: 'no-store' });
    if (!resp.ok) throw await failure(resp, url);
    buffer = await resp.arrayBuffer();
  } catch (e) { showError(e, 'Open in Perfetto'); return; }
  const title = (S.summary && String(S.summary.file || '').split('/').pop()) || 'gltrace timeline';
  status.textContent = 'waiting for ui.perfetto.dev…';
  let done = false;
  const onMessage = e => {
    if (e.source !== w || e.origin !== PERFETTO || e.data !== 'PONG' || done) return;
    done = true;
    clearInterval(timer);
    window.removeEventListener('message', onMessage);
    w.postMessage({ perfetto: { buffer, title, fileName: 'timeline.json' } }, PERFETTO);
    status.textContent = `sent ${fmtInt(buffer.byteLength)} bytes to ui.perfetto.dev`;
    $('#timeline-panel').dataset.perfetto = 'sent';
  };
  window.addEventListener('message', onMessage);
  let tries = 0;
  const timer = setInterval(() => {
    if (done) return;
    if (++tries > 120 || w.closed) {   // a minute
      clearInterval(timer);
      window.removeEventListener('message', onMessage);
      if (!done) showError(new Error('ui.perfetto.dev did not answer (offline?): download the timeline and open it there'));
      return;
    }
    w.postMessage('PING', PERFETTO);
  }, 500);
}

function initTimelinePanel() {
  initTimelineCanvas();
  $('#tl-close').addEventListener('click', () => { $('#timeline-panel').hidden = true; });
  $('#tl-fit').addEventListener('click', tlFit);
  $('#tl-in').addEventListener('click', () => tlZoom(0.5, TL_LABEL_W + (tlCanvas().clientWidth - TL_LABEL_W) / 2));
  $('#tl-out').addEventListener('click', () => tlZoom(2, TL_LABEL_W + (tlCanvas().clientWidth - TL_LABEL_W) / 2));
  $('#tl-count').addEventListener('change', () => { if (!$('#timeline-panel').hidden) openTimelinePanel(); });
  $('#tl-perfetto').addEventListener('click', openInPerfetto);
}

// view.js calls these as the selection moves
window.frameChanged = () => {
  if (!$('#timeline-panel').hidden) openTimelinePanel();
  if (window.eventsFrameChanged) window.eventsFrameChanged();
};
window.callChanged = no => {
  tlShowCall(no);
  if (window.eventsCallChanged) window.eventsCallChanged(no);
};

// ---------------------------------------------------------------------------------------
// the timeline job: a replay with timing (api/timeline), its Chrome JSON offered for
// download when done

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
