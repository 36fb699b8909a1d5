// gltrace view: what changed in the state (qapitrace marks it): the parameters whose
// value differs from the state after the previous call, and after the previous draw.
// The state server's replay moves forward only (a call behind it replays from the
// start), so the page asks for those two calls before the selected one, and only when
// that costs no restart: the replay is behind them anyway, or the selected call is
// behind it (a restart in any case). Parameters already read are kept (STATE_KEEP calls),
// so stepping through a frame finds the previous call and often the previous draw there.
'use strict';

const STATE_KEEP = 32;
const CH = { params: new Map(), at: -1 };   // call -> parameters; the replay's position

function rememberState(no, dumped, params) {
  CH.params.delete(no);
  CH.params.set(no, params);
  while (CH.params.size > STATE_KEEP) CH.params.delete(CH.params.keys().next().value);
  CH.at = Math.max(dumped, no);
}

// {call, draw: parameters or null, callNo, drawNo, skipped: [what]} for the selected
// call `no` (S.selectedIndex in its frame)
async function statesBefore(no, cancelled) {
  const out = { call: null, draw: null, skipped: [] };
  if (S.selectedIndex === null || !S.calls) return out;
  const prev = await previousCalls(S.selectedIndex).catch(() => ({}));
  out.callNo = prev.call; out.drawNo = prev.draw;
  let restart = no < CH.at;   // the selected call is behind the replay: it restarts anyway
  for (const [k, n] of [['draw', prev.draw], ['call', prev.call]]) {
    if (n === null || n === undefined || cancelled()) continue;
    if (CH.params.has(n)) { out[k] = CH.params.get(n); continue; }
    if (!restart && n < CH.at) { out.skipped.push(k); continue; }
    setStateProgress(true, null, `replaying to the previous ${k} (${n})…`);
    const p = await paramsAfter(n, cancelled, () => {});
    if (p) { out[k] = p; rememberState(n, n, p); }
    restart = false;
  }
  return out;
}

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
function markChanges(sinceCall, sinceDraw, before) {
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
  const skipped = k => before && before.skipped && before.skipped.includes(k);
  legend.textContent = (sinceCall ? `● ${fmtInt(nCall)} changed by the previous call`
    : skipped('call') ? 'the previous call is behind the replay: not compared' : 'no previous call') +
    ' · ' + (sinceDraw ? `○ ${fmtInt(nDraw)} since the previous draw`
      : skipped('draw') ? 'the previous draw is behind the replay: not compared' : 'no draw before it in the frame');
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
