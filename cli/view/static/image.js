// gltrace view: images of the state (texture levels, framebuffer attachments): a canvas
// with zoom and a pixel inspector; PFM floats drawn as grey levels or colour.
'use strict';

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

