/**
 * Islands: the few places where a page needs script (the calendar, bulk posting, the assistant,
 * charts, live checks on a form). The page renders the element with `data-island="<name>"` and its
 * props as JSON in `data-props` (an attribute, escaped by the server's JSX: nothing inline runs);
 * the island's bundle (src/web/features/<feature>/<name>.island.ts(x)) finds its elements and takes them over. Without
 * script the element's server-rendered content (a form, a table) still works.
 */
export function eachIsland<P>(name: string, mount: (el: HTMLElement, props: P) => void): void {
  const start = () => {
    for (const el of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
      if (el.dataset.islandReady) continue;
      let props: P;
      try {
        props = JSON.parse(el.dataset.props ?? '{}') as P;
      } catch {
        continue;
      }
      mount(el, props);
      // Browser tests wait for this before they use the island.
      el.dataset.islandReady = 'true';
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}
