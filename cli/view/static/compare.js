// gltrace view: image comparison: gltrace diff-images on two snapshot sets (api/diff),
// its verdicts listed with the two images and the difference mask side by side.
'use strict';

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
