import { HEIGHT_MESSAGE } from './names';

/**
 * The frame page's one script (served at a content-hashed path; the frame's CSP allows no inline
 * script). It tells the host page its height on load and whenever its content changes size, posting
 * only `{ type, id, height }` and only to the host origin named in the frame's address; with no
 * origin given (a host page opened from a file), to any parent, since the message holds nothing but
 * the height.
 */
(() => {
  const root = document.documentElement;
  const id = root.getAttribute('data-widget-id') || '';
  const target = root.getAttribute('data-host-origin') || '*';
  if (!id || window.parent === window) return;
  let last = -1;
  function send(): void {
    const content = document.getElementById('widget');
    const height = Math.ceil((content || document.body).getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: HEIGHT_MESSAGE, id, height }, target);
  }
  if (typeof ResizeObserver === 'function') {
    const el = document.getElementById('widget') || document.body;
    new ResizeObserver(send).observe(el);
  }
  window.addEventListener('load', send);
  send();
})();
