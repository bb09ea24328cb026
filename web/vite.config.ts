import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/*
 * The built app is served by the API process (`npm start`); `npm run dev -w @etd/web` proxies the
 * API of a running `npm start`.
 *
 * Code splitting (issue 10 item 8, P6): every route's screen is its own chunk (app/routes.tsx),
 * react-aria's parts go with the screens that use them (the bundler's own splitting), and the
 * libraries every page needs are two vendor chunks that stay cached across releases of the app:
 * React (with jotai) and TanStack's router and query cache.
 */
const VENDOR_REACT = /node_modules[\\/](react|react-dom|scheduler|jotai)[\\/]/;
const VENDOR_TANSTACK = /node_modules[\\/]@tanstack[\\/](react-router|router-core|history|store|react-store|query-core|react-query)[\\/]/;

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    // Every browser the app supports preloads modules itself (Chrome 66, Firefox 115, Safari 17):
    // the polyfill would be 0.4 KB on every page for none of them.
    modulePreload: { polyfill: false },
    sourcemap: true,
    rolldownOptions: {
      // The console only: the traveller's pages (track.html) are built on Preact by
      // vite.track.config.ts, after this build, into the same dist/ (ADR 0038).
      input: { index: "index.html" },
      output: {
        codeSplitting: {
          groups: [
            { name: "react", test: VENDOR_REACT },
            { name: "tanstack", test: VENDOR_TANSTACK },
          ],
        },
      },
    },
  },
  server: { host: "127.0.0.1", proxy: { "/api": "http://127.0.0.1:3000", "/uploads": "http://127.0.0.1:3000" } },
});
