// gltrace view: the state panel (right): a call's state as glretrace -D gives it, in
// tabs: parameters (filtered; changed ones marked by changes.js), shaders (GLSL
// highlighted), uniforms, buffers, textures and framebuffer images (image.js).
'use strict';

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

function initState() {
  $('#state-filter').addEventListener('input', applyParamFilter);
  $('#state-changed-only').addEventListener('change', applyParamFilter);
  for (const b of document.querySelectorAll('#state-tabs .tab')) {
    b.addEventListener('click', () => selectTab(b.dataset.tab));
  }
}
