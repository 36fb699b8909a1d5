// gltrace view: the event list of a frame (RenderDoc's event browser): its draws,
// clears, dispatches and blits inside their debug groups, each with its GPU time from
// the timeline, as another way into the calls. It reads the frame's calls in pages of
// 10,000 (api/calls) and keeps only the events and the groups around them.
'use strict';

const EV = { frame: null, rows: [], seq: 0, gpu: null, list: null };
const EV_ROW = 22;
// GPU work the call flags do not mark as draws: clears (not glClearColor and the other
// clear values), dispatches, blits, mipmaps (glretrace's timeline times the same)
const EV_OTHER = /^(glClear|glClearBuffer\w*|glClearNamedFramebuffer\w*|glClearNamedBuffer\w*|glClearTex\w*|glDispatchCompute\w*|glBlit\w*Framebuffer\w*|glGenerate\w*Mipmap\w*)\(/;

function evRow(i, old) {
  const r = EV.rows[i];
  const key = i + ':' + (r ? r.no : '') + (r && r.no === S.selected ? 's' : '') +
    (r && EV.gpu && EV.gpu.has(r.no) ? 't' : '');
  if (old && old.dataset.key === key) return old;
  if (!r) return el('div', { class: 'event', 'data-key': key });
  const gpu = EV.gpu ? EV.gpu.get(r.no) : undefined;
  const name = r.text.slice(0, r.text.indexOf('(') < 0 ? undefined : r.text.indexOf('('));
  const row = el('div', {
    class: 'event ' + r.kind + (r.no === S.selected ? ' selected' : ''), 'data-key': key,
    'data-no': r.no, 'data-kind': r.kind, 'data-gpu-ns': gpu === undefined ? null : gpu,
    title: r.text,
  },
  el('span', { class: 'no', text: r.no }),
  indentOf(r.depth),
  el('span', { class: 'ev-name', text: r.kind === 'group' ? '▾ ' + r.label : name }),
  el('span', { class: 'ev-args', text: r.kind === 'group' ? '' : r.text.slice(name.length) }),
  el('span', { class: 'ev-gpu', text: gpu === undefined ? '' : fmtNs(gpu) }));
  row.addEventListener('click', () => gotoCall(r.no).catch(e => showError(e, 'events')));
  return row;
}

// the frame's calls, all pages, kept as events: groups (their begin call) and GPU work
async function evLoad() {
  if (!S.frame) return;
  const seq = ++EV.seq, f = S.frame.frame, total = S.frame.calls;
  const status = $('#events-status');
  EV.frame = f;
  EV.rows = [];
  EV.gpu = null;
  EV.list.setCount(0);
  $('#events').dataset.state = 'loading';
  const open = [];   // group rows open, to drop the groups without events
  const rows = [];
  for (let first = 0; first < total; first += 10000) {
    status.textContent = `reading the frame's calls… ${Math.round(first / total * 100)}%`;
    const j = await api(`api/calls?frame=${f}&first=${first}&count=10000`);
    if (seq !== EV.seq) return;
    for (const c of j.calls) {
      if (c.group === 'begin') {
        const label = (/"([^"]*)"/.exec(c.text) || [, c.text])[1];
        const g = { no: c.no, kind: 'group', depth: c.depth, text: c.text, label, used: false };
        open.push(g);
        rows.push(g);
      } else if (c.group === 'end') {
        const g = open.pop();
        if (g && !g.used) rows.splice(rows.lastIndexOf(g), 1);
      } else if (c.draw || EV_OTHER.test(c.text)) {
        for (const g of open) g.used = true;
        const kind = c.draw ? 'draw' : /^glClear/.test(c.text) ? 'clear' : /^glDispatch/.test(c.text) ? 'dispatch' : 'other';
        rows.push({ no: c.no, kind, depth: c.depth, text: c.text });
      }
    }
  }
  EV.rows = rows;
  EV.list.setCount(rows.length);
  $('#events').dataset.state = 'done';
  $('#events').dataset.count = rows.length;
  const n = rows.filter(r => r.kind !== 'group').length;
  status.textContent = `${fmtInt(n)} event${n === 1 ? '' : 's'}`;
  evTimes(seq, f);
}

// GPU times from the timeline, when it has been made (api/slices answers 404 before:
// no replay is started for them)
async function evTimes(seq, f) {
  try {
    const j = await api(`api/slices?first=${f}&count=1`);
    if (seq !== EV.seq) return;
    const m = new Map();
    for (const g of j.gpu) m.set(g[2], (m.get(g[2]) || 0) + g[1]);
    EV.gpu = m;
    EV.list.refresh();
    $('#events').dataset.times = 'done';
  } catch (e) {
    $('#events').dataset.times = 'none';   // no timeline yet: no times
  }
}

function showEvents(on) {
  $('#calls-pane').dataset.view = on ? 'events' : 'calls';
  $('#view-calls').classList.toggle('active', !on);
  $('#view-events').classList.toggle('active', on);
  $('#calls').hidden = on;
  $('#events-box').hidden = !on;
  if (on && EV.frame !== (S.frame && S.frame.frame)) evLoad().catch(e => showError(e, 'events'));
  if (on) EV.list.schedule();
}

function initEvents() {
  EV.list = new VList($('#events'), EV_ROW, evRow);
  $('#view-calls').addEventListener('click', () => showEvents(false));
  $('#view-events').addEventListener('click', () => showEvents(true));
}

window.eventsFrameChanged = () => {
  if ($('#calls-pane').dataset.view === 'events') evLoad().catch(e => showError(e, 'events'));
  else EV.frame = null;
};
window.eventsCallChanged = () => { if (EV.list) EV.list.refresh(); };
