/**
 * The one stylesheet of the pages, served by assets.ts at a content-hashed path. System fonts, one
 * readable column that fits a 360 px phone, light and dark themes from the visitor's setting (every
 * text/background pair at least 4.5:1, most above 7:1), and a thick focus outline on anything that
 * takes the keyboard. Pages use these classes only; the CSP allows no inline style.
 */
export const STYLES = `
:root {
  color-scheme: light dark;
  --bg: #ffffff;
  --surface: #f5f6f8;
  --text: #1a1a1a;
  --muted: #4a4f57;
  --border: #8a9099;
  --link: #0b57d0;
  --focus: #0842a0;
  --primary-bg: #0b57d0;
  --primary-text: #ffffff;
  --secondary-bg: #e7eaef;
  --secondary-text: #1a1a1a;
  --danger-bg: #b3261e;
  --danger-text: #ffffff;
  --info-bg: #e8f0fe;
  --success-bg: #e6f4ea;
  --success-border: #137333;
  --error-bg: #fce8e6;
  --error-text: #a50e0e;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #121212;
    --surface: #1e1f22;
    --text: #ececec;
    --muted: #b8bcc4;
    --border: #8a9099;
    --link: #8ab4f8;
    --focus: #ffd166;
    --primary-bg: #8ab4f8;
    --primary-text: #0b1a33;
    --secondary-bg: #33363b;
    --secondary-text: #ececec;
    --danger-bg: #f2b8b5;
    --danger-text: #3c0a07;
    --info-bg: #1b2a41;
    --success-bg: #14301d;
    --success-border: #81c995;
    --error-bg: #3c1613;
    --error-text: #f6aea9;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 1rem;
  line-height: 1.5;
}
a { color: var(--link); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
  border-radius: 2px;
}
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
}
.skip-link {
  position: absolute;
  left: 0.5rem;
  top: -3rem;
  padding: 0.5rem 0.75rem;
  background: var(--bg);
  color: var(--link);
  z-index: 10;
}
.skip-link:focus { top: 0.5rem; }
.site-header {
  border-bottom: 1px solid var(--border);
  background: var(--surface);
}
.site-header-inner, main {
  max-width: 40rem;
  margin: 0 auto;
  padding: 0.75rem 1rem;
}
.site-header-inner { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; }
.brand { font-weight: 700; font-size: 1.125rem; color: var(--text); text-decoration: none; margin-right: auto; }
.signed-in { margin: 0; color: var(--muted); font-size: 0.9375rem; overflow-wrap: anywhere; }
.signed-in strong { color: var(--text); }
.site-nav { flex-basis: 100%; }
.site-nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; }
.site-nav a { display: inline-block; padding: 0.375rem 0.125rem; }
.site-nav a[aria-current="page"] { color: var(--text); font-weight: 700; text-decoration-thickness: 3px; }
main { padding-top: 1.5rem; padding-bottom: 3rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; line-height: 1.3; margin: 0 0 0.75rem; }
p { margin: 0 0 1rem; }
.card {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 0.5rem;
  padding: 1rem;
  margin: 0 0 1.25rem;
}
.card > :last-child { margin-bottom: 0; }
.field { margin: 0 0 1rem; }
.field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.hint { color: var(--muted); font-size: 0.9375rem; margin: 0.25rem 0 0; }
.field.checkbox { display: flex; align-items: center; gap: 0.5rem; }
.field.checkbox input { width: 1.25rem; height: 1.25rem; margin: 0; flex: none; }
.field.checkbox label { display: inline; font-weight: 400; margin: 0; }
.field-error { color: var(--error-text); font-weight: 600; margin: 0.25rem 0 0; }
input[type="text"], input[type="email"], input[type="password"], input[type="tel"], input[type="number"], input[type="url"], input:not([type]), select, textarea {
  width: 100%;
  min-height: 2.75rem;
  padding: 0.5rem 0.625rem;
  font: inherit;
  color: var(--text);
  background: var(--bg);
  border: 1px solid var(--border);
  border-radius: 0.375rem;
}
input[aria-invalid="true"] { border: 2px solid var(--error-text); }
input[readonly] { background: var(--surface); }
.button {
  display: inline-block;
  min-height: 2.75rem;
  padding: 0.5rem 1rem;
  font: inherit;
  font-weight: 600;
  line-height: 1.5;
  border: 1px solid transparent;
  border-radius: 0.375rem;
  cursor: pointer;
  text-decoration: none;
}
.button-primary { background: var(--primary-bg); color: var(--primary-text); }
.button-secondary { background: var(--secondary-bg); color: var(--secondary-text); border-color: var(--border); }
.button-danger { background: var(--danger-bg); color: var(--danger-text); }
.button:hover { filter: brightness(1.08); }
.button-link {
  background: none;
  border: 0;
  padding: 0.375rem 0.125rem;
  font: inherit;
  color: var(--link);
  text-decoration: underline;
  text-underline-offset: 0.15em;
  cursor: pointer;
}
.inline-form { display: inline; margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0 0 1rem; }
.notice {
  border-left: 4px solid var(--link);
  background: var(--info-bg);
  padding: 0.75rem 1rem;
  margin: 0 0 1.25rem;
  border-radius: 0.25rem;
}
.notice > :last-child { margin-bottom: 0; }
.notice-success { border-left-color: var(--success-border); background: var(--success-bg); }
.notice-error { border-left-color: var(--error-text); background: var(--error-bg); }
.copy-row { display: flex; gap: 0.5rem; align-items: stretch; }
.copy-row input { flex: 1 1 auto; min-width: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.copy-status { display: block; min-height: 1.5em; color: var(--muted); font-size: 0.9375rem; margin-top: 0.25rem; }
table { width: 100%; border-collapse: collapse; margin: 0 0 1rem; }
th, td { text-align: left; padding: 0.5rem 0.25rem; border-bottom: 1px solid var(--border); vertical-align: top; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.qr { display: block; width: 100%; max-width: 15rem; height: auto; margin: 0 0 1rem; }
.code-list { list-style: none; padding: 0; margin: 0 0 1rem; display: grid; grid-template-columns: repeat(auto-fill, minmax(8rem, 1fr)); gap: 0.25rem 1rem; }
.visually-hidden {
  position: absolute !important;
  width: 1px; height: 1px;
  margin: -1px; padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
@media (max-width: 30rem) {
  .copy-row { flex-direction: column; }
  .actions .button { width: 100%; text-align: center; }
}
@media (prefers-reduced-motion: reduce) {
  * { transition: none !important; animation: none !important; }
}
`;
