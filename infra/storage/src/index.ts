export * from "./storage.ts";
export * from "./local-disk-storage.ts";
