import type { Projection } from "./engine/projection.ts";

/** Every read model, in the order a fresh database builds them. */
export const ALL_PROJECTIONS: readonly Projection[] = [];
