import { Result, Schema } from "effect";
import type { OrderId } from "@etd/events";
import type { Endpoint } from "../http/endpoint.ts";
import { holdsOnlyUsableText, UNUSABLE_TEXT } from "../http/clean-text.ts";
import { requiredEmail } from "../http/fields.ts";
import { decodeInput, fail } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { replyTo, runOrderCommand } from "../commands/run-command.ts";
import { placeOrderDocument } from "../uploads/document-key.ts";
import { readUpload } from "../uploads/read-upload.ts";
import type { UploadRefusal } from "../uploads/upload-result.ts";

/** The upload form's text fields (ORDER-3); the file is `uploadVisaDoc`. */
export const UploadDocumentFields = Schema.Struct({
  orderId: Schema.String,
  email: requiredEmail("Please enter your email", "Please enter a valid email."),
  mailServiceProvider: Schema.optionalKey(Schema.String),
});

const checkFields = (fields: Readonly<Record<string, string>>): UploadRefusal | undefined => {
  // Multipart fields arrive after the endpoint layer's check of the JSON body and query.
  if (!holdsOnlyUsableText(fields)) return { ok: false, status: 400, message: UNUSABLE_TEXT };
  const decoded = decodeInput(UploadDocumentFields, fields);
  if (Result.isSuccess(decoded)) {
    const provider = fields.mailServiceProvider?.trim().toLowerCase();
    if (provider && provider !== "aws" && provider !== "sendgrid") {
      return { ok: false, status: 400, message: "Please choose AWS or Sendgrid as the mail provider.", field: "mailServiceProvider" };
    }
    return undefined;
  }
  return { ok: false, status: 400, message: decoded.failure.body.message };
};

export const uploadEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "post",
    path: "/admin/upload-visa-document",
    guard: "order.upload-document",
    summary: "Upload the finished document (PDF or image, multipart) and have it mailed (ORDER-3)",
    handle: async ({ req, user, requestId, ip }) => {
      const upload = await readUpload(req, deps.storage, {
        textFields: ["orderId", "email", "mailServiceProvider"],
        fileField: "uploadVisaDoc",
        placeFile: placeOrderDocument(),
        checkFields,
        maxFileBytes: deps.maxUploadBytes,
      });
      if (!upload.ok) {
        if (!req.complete) req.socket.setKeepAlive(false);
        return fail(upload.status, upload.message);
      }
      const { fields, file } = upload;
      const ran = await runOrderCommand(deps, { user, requestId, ip }, {
        type: "RecordDocumentUpload",
        orderId: fields.orderId!.trim() as OrderId,
        fileName: file.fileName,
        storedPath: file.storedPath,
        contentType: file.contentType,
        sizeBytes: file.sizeBytes,
        uploadedBy: { id: user!.id, name: user!.name },
        provider: fields.mailServiceProvider?.trim().toLowerCase() === "sendgrid" ? "Sendgrid" : "AWS",
        to: fields.email!.trim(),
      });
      // A refused upload (no such order, permanently deleted) must not leave its file behind.
      if (!ran.ok) await deps.storage.remove(file.storedPath);
      return replyTo(ran, "Document has been uploaded successfully and the mail is on its way");
    },
  },
];
