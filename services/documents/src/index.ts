export * from "./mail-templates.ts";
export * from "./invoice.ts";
export * from "./defence-pack.ts";
export * from "./defence-pack-evidence.ts";
