import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The built app is served by the API process (`npm start`); `npm run dev -w @etd/web` proxies the
// API of a running `npm start`.
export default defineConfig({
  plugins: [react()],
  // The manifest lets `npm run bench:web` (P6) tell the initial JS from lazily loaded chunks.
  build: { outDir: "dist", sourcemap: true, manifest: true, chunkSizeWarningLimit: 600 },
  server: { host: "127.0.0.1", proxy: { "/api": "http://127.0.0.1:3000", "/uploads": "http://127.0.0.1:3000" } },
});
