// gltrace view: a virtual list of rows of one height, for lists of any length.
//
// Only the rows in view are in the DOM. The scroll box holds a spacer for the scroll
// range, but a browser caps an element's height (Chrome at 33.5 M px, Firefox near 17.9
// M px): 524k frames of 64 px, or a frame of 1.5 M calls of 22 px, would pass it and
// the rows after it could not be reached. So the spacer is at most VLIST_MAX_PX high
// and the list keeps its own position `pos` in the full list's pixels; the scroll bar
// maps to it in proportion (dragging it to the end shows the last row), and the wheel
// and keys move `pos` itself, so that a wheel step moves as many rows as in a short list.
'use strict';

const VLIST_MAX_PX = 8000000;

class VList {
  constructor(box, rowHeight, renderRow) {
    this.box = box;
    this.spacer = box.querySelector('.vspacer');
    this.rowHeight = rowHeight;
    this.renderRow = renderRow;   // (index, rowElement or null) -> element
    this.count = 0;
    this.pos = 0;                 // the full list's pixel at the top of the view
    this.ownTop = null;           // the scrollTop this list set last (its scroll event)
    this.rows = new Map();        // index -> element
    this.pending = false;
    box.addEventListener('scroll', () => {
      // a scroll of our own keeps pos exact; any other (scroll bar, keys, a script)
      // maps the scroll position to the list
      if (this.ownTop === null || Math.abs(box.scrollTop - this.ownTop) > 1) {
        this.pos = this.clampPos(box.scrollTop * this.scale());
      }
      this.ownTop = null;
      this.schedule();
    });
    box.addEventListener('wheel', e => {
      if (this.scale() <= 1 || e.ctrlKey) return;
      e.preventDefault();
      const unit = e.deltaMode === 1 ? this.rowHeight : e.deltaMode === 2 ? this.height() : 1;
      this.setPos(this.pos + e.deltaY * unit);
    }, { passive: false });
    new ResizeObserver(() => this.schedule()).observe(box);
  }
  height() { return this.box.clientHeight || 600; }
  fullHeight() { return this.count * this.rowHeight; }
  // full-list pixels per pixel of the scroll range (1 for a list under the cap)
  scale() {
    const h = this.height();
    const real = Math.min(this.fullHeight(), VLIST_MAX_PX) - h, full = this.fullHeight() - h;
    return real > 0 && full > real ? full / real : 1;
  }
  clampPos(p) { return Math.max(0, Math.min(p, this.fullHeight() - this.height())); }
  setPos(p) {
    this.pos = this.clampPos(p);
    const top = Math.round(this.pos / this.scale());
    if (this.box.scrollTop !== top) {
      this.ownTop = top;
      this.box.scrollTop = top;
    }
    this.schedule();
  }
  setCount(n) {
    this.count = n;
    this.spacer.style.height = Math.min(n * this.rowHeight, VLIST_MAX_PX) + 'px';
    this.pos = this.clampPos(this.pos);
    this.schedule();
  }
  clear() {
    for (const e of this.rows.values()) e.remove();
    this.rows.clear();
  }
  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.render(); });
  }
  // the rows in view, and a few around them while the list is under the cap (beyond
  // it, rows past the view would make the box taller than its spacer)
  range() {
    const h = this.height(), scaled = this.scale() > 1;
    const first = Math.max(0, Math.floor(this.pos / this.rowHeight) - (scaled ? 0 : 5));
    const last = Math.min(this.count - 1, Math.ceil((this.pos + h) / this.rowHeight) - 1 + (scaled ? 0 : 5));
    return [first, last];
  }
  render() {
    if (this.scale() <= 1) {
      this.pos = this.clampPos(this.box.scrollTop);
    } else {
      // the box was resized (the scale changed) or the list shortened: the position
      // stays, the scroll bar follows it
      this.pos = this.clampPos(this.pos);
      const top = Math.round(this.pos / this.scale());
      if (Math.abs(this.box.scrollTop - top) > 1) {
        this.ownTop = top;
        this.box.scrollTop = top;
      }
    }
    const [first, last] = this.range();
    for (const [i, e] of this.rows) {
      if (i < first || i > last) { e.remove(); this.rows.delete(i); }
    }
    // rows sit at their place in the view: the box's scrollTop plus their offset
    const base = this.box.scrollTop - this.pos;
    for (let i = first; i <= last; i++) {
      const old = this.rows.get(i) || null;
      const e = this.renderRow(i, old);
      e.style.top = (base + i * this.rowHeight) + 'px';
      e.style.height = this.rowHeight + 'px';
      if (e !== old) {
        if (old) old.replaceWith(e); else this.box.append(e);
        this.rows.set(i, e);
      }
    }
    this.box.dataset.first = first;
    this.box.dataset.last = last;
  }
  // rows whose data changed are made again (renderRow compares its keys)
  refresh() { this.render(); }
  // brings row i into view (a third down from the top when it has to move)
  scrollTo(i) {
    const y = i * this.rowHeight, h = this.height();
    if (y < this.pos || y + this.rowHeight > this.pos + h) this.setPos(y - h / 3);
    this.render();
  }
  // moves the view by n rows (keys)
  scrollBy(n) { this.setPos(this.pos + n * this.rowHeight); }
}
