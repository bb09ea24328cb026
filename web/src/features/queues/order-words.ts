import type { QueueRow } from "./utils/queue-queries.ts";

/** A queue row as the live region says it (issue 16 C): "order 300001, Jane Doe, assigned to Bob". */
export const describeOrder = (row: QueueRow): string => `order ${row.id}, ${row.name}${row.assign_to ? `, assigned to ${row.assign_to}` : ""}`;
