import { defineConfig } from "vite";

/*
 * The traveller's pages (track.html, PUBLIC-1..3) built on Preact (ADR 0038): the code is written
 * against React and typechecked with React's types, and here React's module names resolve to
 * preact/compat, a React-compatible runtime of about 5 KB gzipped instead of React's 60. A
 * traveller on a phone downloads, parses and runs that much less before the page shows; the
 * console (vite.config.ts) keeps React, which react-aria and TanStack need.
 *
 * Built second, into the console's dist/ without emptying it (`npm run build`,
 * scripts/build-if-stale.ts). One entry and no split: the page is one script and one stylesheet.
 * `npm run dev` serves track.html with React; the product is this build.
 */
const PREACT = [
  { find: /^react$/, replacement: "preact/compat" },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/compat/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/compat/jsx-dev-runtime" },
];

export default defineConfig({
  resolve: { alias: PREACT },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    // As in vite.config.ts: every supported browser preloads modules itself.
    modulePreload: { polyfill: false },
    sourcemap: true,
    rolldownOptions: {
      input: { track: "track.html" },
      // jotai's "use client" marks code for React's server components, which a browser bundle has none of.
      onLog: (level, log, handler) => {
        if (log.code === "MODULE_LEVEL_DIRECTIVE") return;
        handler(level, log);
      },
    },
  },
});
