import type express from "express";
import type { OrderId } from "@etd/events";
import type { ApiDeps } from "../api-deps.ts";
import { describeDevice } from "../http/visitor-device.ts";
import { runOrderCommand, type Ran } from "./run-command.ts";

/*
 * A traveller's download, as the download history records it (PUBLIC-2): the order's current
 * document, the visitor's address, device and country. Both ways a visitor reaches the file record
 * it: `download-passport-doc-pdf`, which the tracker page calls first, and the document link
 * itself, which anyone holding the grant can open straight away. The history is evidence in a
 * chargeback, so a download must not be possible without it; the order decider keeps the two from
 * counting one click twice (a repeat within a minute records nothing).
 */
export const recordDownload = (
  deps: ApiDeps,
  req: express.Request,
  caller: { readonly requestId: string; readonly ip: string },
  orderId: OrderId,
  fileName: string,
): Promise<Ran> =>
  runOrderCommand(deps, { user: undefined, ...caller }, {
    type: "RecordDownload",
    orderId,
    fileName,
    now: deps.now(),
    ip: caller.ip,
    timezone: "EST",
    ...describeDevice(req.get("user-agent")),
    location: deps.locateIp(caller.ip),
  });
