import * as Result from "effect/Result";
import type { OrderId } from "@etd/events";
import { providerOf, toVersion, UploadDocumentFields } from "@etd/contract/requests";
import type express from "express";
import { readingInput, type Handlers } from "../http/endpoint.ts";
import { holdsOnlyUsableText, UNUSABLE_TEXT } from "../http/clean-text.ts";
import { decodeInput, fail, type Reply } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { actorOf, replyTo, runOrderCommand } from "../commands/run-command.ts";
import { placeOrderDocument } from "../uploads/document-key.ts";
import { readUpload } from "../uploads/read-upload.ts";
import type { UploadedFile } from "../uploads/upload-result.ts";

type UploadForm = typeof UploadDocumentFields.Type;

/**
 * The upload form (ORDER-3, multipart): its text fields are decoded once, with the contract's
 * schema, as soon as they have arrived and before the file is looked at, so a form missing both an
 * e-mail and a file gets the e-mail's message first; the file is then read, checked and stored.
 * The endpoint layer runs this as the endpoint's input reader (after the guard, before the
 * handler). Multipart fields arrive after the layer's check of the JSON body and query, so their
 * text is checked here.
 */
const readDocumentUpload = async (
  req: express.Request,
  deps: ApiDeps,
): Promise<Result.Result<{ readonly form: UploadForm; readonly file: UploadedFile }, Reply<never>>> => {
  let form: UploadForm | undefined;
  const upload = await readUpload(req, deps.storage, {
    textFields: ["orderId", "email", "mailServiceProvider", "expectedVersion"],
    fileField: "uploadVisaDoc",
    placeFile: placeOrderDocument(),
    checkFields: (fields) => {
      if (!holdsOnlyUsableText(fields)) return { ok: false, status: 400, message: UNUSABLE_TEXT };
      const decoded = decodeInput(UploadDocumentFields, fields);
      if (Result.isFailure(decoded)) return { ok: false, status: 400, message: decoded.failure.body.message };
      form = decoded.success;
      return undefined;
    },
    maxFileBytes: deps.maxUploadBytes,
  });
  if (!upload.ok) {
    // The rest of a refused upload is not read: the connection closes after the answer.
    if (!req.complete) req.socket.setKeepAlive(false);
    return Result.fail(fail(upload.status, upload.message));
  }
  // readUpload accepts a form only after checkFields has passed it.
  if (form === undefined) throw new Error("an upload was accepted without its fields being decoded");
  return Result.succeed({ form, file: upload.file });
};

export const uploadHandlers = (deps: ApiDeps) =>
  ({
    uploadVisaDocument: readingInput(
      (req) => readDocumentUpload(req, deps),
      async (context) => {
        const { form, file } = context.input;
        const { user } = context;
        const ran = await runOrderCommand(deps, context, {
          type: "UploadDocument",
          orderId: form.orderId.trim() as OrderId,
          fileName: file.fileName,
          storedPath: file.storedPath,
          contentType: file.contentType,
          sizeBytes: file.sizeBytes,
          actor: actorOf(user),
          provider: providerOf(form.mailServiceProvider),
          to: form.email.trim(),
        }, undefined, toVersion(form.expectedVersion));
        // A refused upload (no such order, permanently deleted, changed since the page's version)
        // must not leave its file behind.
        if (!ran.ok) await deps.storage.remove(file.storedPath);
        return replyTo(ran, "Document has been uploaded successfully and the mail is on its way");
      },
    ),
  }) satisfies Partial<Handlers>;
