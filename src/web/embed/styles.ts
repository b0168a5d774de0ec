/**
 * The widget frames' own stylesheet (served at a content-hashed path; the frame CSP allows no inline
 * style). Two themes chosen by the host (`data-theme`), each with text and controls at WCAG AA
 * contrast or better against its background (body text above 12:1, muted text above 7:1, links and
 * badges above 4.5:1), and a visible focus ring for keyboard users.
 */
export const FRAME_CSS = `
:root{--bg:#ffffff;--fg:#1b1c1e;--muted:#4a4d52;--line:#d5d8dc;--accent:#0a4fb8;--badge-bg:#fff1d6;--badge-fg:#6b3a00;--focus:#0a4fb8;--star:#8a5a00;color-scheme:light}
:root[data-theme="dark"]{--bg:#16181b;--fg:#f2f3f5;--muted:#c3c7cd;--line:#3a3e44;--accent:#9cc3ff;--badge-bg:#4a3300;--badge-fg:#ffe2a8;--focus:#9cc3ff;--star:#ffd27a;color-scheme:dark}
*{box-sizing:border-box}
html,body{margin:0;padding:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
#widget{padding:14px 16px;display:flow-root}
h1,h2{font-size:1.05rem;margin:0 0 4px;line-height:1.3}
p{margin:4px 0}
.muted{color:var(--muted)}
.row{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;background:var(--badge-bg);color:var(--badge-fg);font-size:.8rem;font-weight:600}
.stars{color:var(--star);letter-spacing:1px}
ul.list{list-style:none;margin:8px 0 0;padding:0}
ul.list li{padding:8px 0;border-top:1px solid var(--line)}
ul.list li:first-child{border-top:0}
.figure{font-size:1.6rem;font-weight:700;margin:4px 0}
a{color:var(--accent)}
a.button{display:inline-block;margin-top:8px;padding:6px 12px;border:2px solid var(--accent);border-radius:6px;text-decoration:none;font-weight:600}
a:focus-visible,button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.foot{margin-top:10px;font-size:.8rem;color:var(--muted)}
.empty{padding:6px 0}
`;
