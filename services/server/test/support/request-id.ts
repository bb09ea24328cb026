import { createHash } from "node:crypto";

/**
 * A request id the API keeps (it keeps only UUIDs), derived from a readable label so that a test
 * can send it and find it again in the events' correlationId.
 */
export const requestUuid = (label: string): string => {
  const hex = createHash("sha256").update(label).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
