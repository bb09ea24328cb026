import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type express from "express";
import { isOrderId } from "@etd/events";
import type { ApiDeps } from "../api-deps.ts";
import { isAllowed } from "@etd/contract";
import { cookieFromThisSite, SESSION_COOKIE } from "../http/cookies.ts";
import { recordDownload } from "../commands/record-download.ts";
import { authenticate, FORBIDDEN, requestIdOf } from "../http/endpoint.ts";
import { hasGrantFor, publicWaitMs } from "../http/public-access.ts";
import { tooManyRequests } from "../http/rate-limit.ts";
import { fail } from "../http/reply.ts";
import { documentKey } from "../uploads/document-key.ts";
import { SNIFF_BYTES, sniffContentType } from "../uploads/sniff-content-type.ts";
import { clientAddress } from "../http/client-address.ts";

/*
 * The document links the API hands out (ORDER-14, 001 §7: `uploads/docs/{orderId}/{file}`, issue 9
 * item 12), GET to download and HEAD to ask whether the file exists (200 or 404, no body).
 *
 * Who may read: a browser follows a link without headers, so staff are recognised by the
 * Authorization header or the session cookie (sent from this site: cookieFromThisSite, issue 25;
 * from another site it counts as no cookie), and may read any file of any order's folder; a
 * traveller only with track-order's grant for that very order (ADR 0007), and only the order's
 * current document, not its older uploads or its defence packs. Every refusal of a visitor looks
 * the same (401), whether the grant is missing, expired, forged or for another order. A visitor's
 * GET is recorded in the download history like the tracker's download call (record-download.ts).
 *
 * What is sent: always an attachment (RFC 6266 name), the type the stored bytes are (sniffed, not
 * guessed from the name) and `nosniff`, so an uploaded file is never rendered as a page of this
 * origin; never cached by a shared cache or kept on disk by the browser.
 */

export const DOCUMENT_ROUTE = "/uploads/docs/:orderId/:file";

export const DOCUMENT_REFUSED = "Please sign in, or track your order with its Order ID and Email ID first.";
const NOT_FOUND = "The document was not found.";


const answer = (res: express.Response, status: number, message: string) => {
  res.set("cache-control", "no-store").status(status).json(fail(status, message).body);
};

/** The stored path of the order's current document, as the read model knows it (none once erased). */
const currentDocumentPath = async (deps: ApiDeps, orderId: string): Promise<string | undefined> => {
  const rows = await deps.readDb.query(`select stored_path from order_details where order_id = $1 and not erased`, [orderId]);
  return (rows[0]?.stored_path as string | null | undefined) ?? undefined;
};

/** The first bytes, to tell the type, and the whole content again as one stream. */
const sniffed = async (content: Readable): Promise<{ contentType: string; body: Readable }> => {
  const chunks = content[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  while (size < SNIFF_BYTES) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = next.value as Buffer;
    head.push(chunk);
    size += chunk.length;
  }
  const contentType = sniffContentType(Buffer.concat(head)) ?? "application/octet-stream";
  const body = Readable.from(
    (async function* () {
      yield* head;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value as Buffer;
      }
    })(),
  );
  // Closing the reassembled stream closes the file too.
  body.once("close", () => content.destroy());
  return { contentType, body };
};

export const mountDocumentFiles = (app: express.Express, deps: ApiDeps): void => {
  // Express answers HEAD with the GET route, without a body.
  app.get(DOCUMENT_ROUTE, (req, res, next) => {
    void (async () => {
      const { orderId, file } = req.params;
      const header = req.get("authorization") ?? cookieFromThisSite(req, SESSION_COOKIE);
      const user = await authenticate(deps, header);
      if (user && !isAllowed(user.type, "orders.read")) return answer(res, 403, FORBIDDEN);
      if (!user) {
        const waitMs = publicWaitMs(deps, "document", clientAddress(req));
        if (waitMs > 0) {
          res.set("retry-after", String(Math.ceil(waitMs / 1000)));
          return answer(res, 429, tooManyRequests(waitMs));
        }
        if (!hasGrantFor(deps, req, orderId)) return answer(res, 401, DOCUMENT_REFUSED);
      }

      // The name arrives URL-decoded: an encoded "/" must not reach a folder below the order's.
      const order = isOrderId(orderId) ? orderId : undefined;
      const key = order !== undefined && !file.includes("/") ? documentKey(order, file) : undefined;
      if (order === undefined || key === undefined) return answer(res, 404, NOT_FOUND);
      if (!user && (await currentDocumentPath(deps, order)) !== key) return answer(res, 404, NOT_FOUND);
      if (!user && req.method === "GET") {
        // Recorded before a byte is sent, as the tracker's download call records before it links
        // here; the link opened straight after that call records nothing more (the repeat rule).
        const ran = await recordDownload(deps, req, { requestId: requestIdOf(req), ip: clientAddress(req) }, order, file);
        if (!ran.ok) return answer(res, 404, NOT_FOUND);
      }
      const content = await deps.storage.open(key);
      if (content === undefined) return answer(res, 404, NOT_FOUND);

      const { contentType, body } = await sniffed(content);
      res.attachment(file);
      res.set({ "content-type": contentType, "x-content-type-options": "nosniff", "cache-control": "private, no-store" });
      if (req.method === "HEAD") {
        body.destroy();
        res.status(200).end();
        return;
      }
      res.status(200);
      try {
        await pipeline(body, res);
      } catch (error) {
        // A visitor who goes away mid-download is no error of ours; a failing disk is (logged).
        if ((error as { code?: unknown }).code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
      }
    })().catch(next);
  });
};
