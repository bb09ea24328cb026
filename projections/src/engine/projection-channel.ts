/**
 * The NOTIFY channel on which a live build announces `{projection, position}` as each batch
 * commits (and `promoted: true` when a build goes live): read-your-writes waits and the live
 * stream listen to it.
 */
export const PROJECTION_CHANNEL = "projection_changed";
