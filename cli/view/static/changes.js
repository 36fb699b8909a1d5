// gltrace view: what changed in the state (qapitrace marks it): the parameters whose
// value differs from the state after the previous call, and after the previous draw.
// The page asks the state server for those two calls first and for the selected one
// last, so that its replay only ever moves forward (a step back restarts it).
'use strict';

// The previous call and the previous draw of the frame before index i (the call list's
// pages, fetched as needed; a draw is looked for at most 5,000 calls back).
async function previousCalls(i) {
  const calls = S.calls;
  const out = { call: null, draw: null };
  if (!calls || i <= 0) return out;
  const p = await calls.item(i - 1);
  if (p) out.call = p.no;
  for (let k = i - 1; k >= 0 && k >= i - 5000; k--) {
    const c = await calls.item(k);
    if (calls !== S.calls) return out;
    if (c && c.draw) { out.draw = c.no; break; }
  }
  return out;
}

// The names (flattenParams' "OUTER / NAME") whose value differs between two parameter
// tables, those only in one of them included.
function changedParams(cur, prev) {
  const a = new Map(flattenParams(cur || {}, '', []).map(([k, v]) => [k, JSON.stringify(v)]));
  const b = new Map(flattenParams(prev || {}, '', []).map(([k, v]) => [k, JSON.stringify(v)]));
  const out = new Set();
  for (const [k, v] of a) if (b.get(k) !== v) out.add(k);
  for (const k of b.keys()) if (!a.has(k)) out.add(k);
  return out;
}

// Marks the parameters table's rows: data-changed "call" (since the previous call; also
// since the previous draw, or not), "draw" (since the previous draw only), absent.
function markChanges(sinceCall, sinceDraw) {
  let nCall = 0, nDraw = 0;
  for (const tr of $('#state-params tbody').children) {
    const n = tr.dataset.name;
    const c = sinceCall && sinceCall.has(n), d = sinceDraw && sinceDraw.has(n);
    tr.classList.toggle('changed-call', !!c);
    tr.classList.toggle('changed-draw', !!d);
    if (c || d) tr.dataset.changed = c ? (d ? 'call draw' : 'call') : 'draw';
    else delete tr.dataset.changed;
    const mark = tr.querySelector('td.chg');
    if (mark) {
      mark.textContent = c ? '●' : d ? '○' : '';
      mark.title = c ? 'changed by the previous call' + (d ? ' (and since the previous draw)' : '')
        : d ? 'changed since the previous draw' : '';
    }
    if (c) nCall++;
    if (d) nDraw++;
  }
  const legend = $('#state-changes');
  legend.textContent = (sinceCall ? `● ${fmtInt(nCall)} changed by the previous call` : 'no previous call') +
    ' · ' + (sinceDraw ? `○ ${fmtInt(nDraw)} since the previous draw` : 'no draw before it in the frame');
  legend.dataset.call = sinceCall ? nCall : '';
  legend.dataset.draw = sinceDraw ? nDraw : '';
}

// The state's parameters after call `no` (a state job), or null when it fails.
async function paramsAfter(no, cancelled, onProgress) {
  try {
    const j = await api('api/state?call=' + no);
    const url = await waitJob(j.job, onProgress, cancelled);
    if (!url || cancelled()) return null;
    const st = await api(url);
    return st.parameters || {};
  } catch (e) {
    return null;
  }
}
