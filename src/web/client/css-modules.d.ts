/** Stylesheets an island imports for their side effect (esbuild bundles them into the island's .css). */
declare module '*.css';
