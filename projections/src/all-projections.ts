import type { Projection } from "./engine/projection.ts";
import { dashboardProjection } from "./dashboard/index.ts";
import { gatewaysProjection } from "./gateways/index.ts";
import { orderDetailsProjection } from "./order-details/index.ts";
import { queueProjection } from "./queue/index.ts";
import { reportsProjection } from "./reports/index.ts";
import { staffProjection } from "./staff/index.ts";

/** Every read model, in the order a fresh database builds them. */
export const ALL_PROJECTIONS: readonly Projection[] = [queueProjection, orderDetailsProjection, reportsProjection, staffProjection, gatewaysProjection, dashboardProjection];
