export * from "./pdf-renderer.ts";
export * from "./chromium-renderer.ts";
