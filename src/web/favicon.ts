/**
 * The site's icon: an SVG (every current browser takes one as a favicon), the brand blue with a white
 * "S", readable at 16 px. Served by the Worker (assets.ts) at a hashed path the layout links, and at
 * /favicon.ico for clients that ask there without reading the page.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b57d0"/><path d="M21.2 10.6c-1.1-1.4-2.9-2.2-5-2.2-3 0-5 1.6-5 3.9 0 5.4 10.6 3 10.6 8.1 0 2.4-2.2 4.1-5.4 4.1-2.3 0-4.4-.9-5.6-2.5" fill="none" stroke="#fff" stroke-width="3.2" stroke-linecap="round"/></svg>`;
