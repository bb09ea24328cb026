import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { createLocalDiskStorage } from "@etd/storage";
import type { DocumentStorage } from "@etd/storage";
import { placeOrderDocument } from "../../src/uploads/document-key.ts";
import { readUpload, type ReadUploadOptions } from "../../src/uploads/read-upload.ts";

export const UPLOAD_PATH = "/api/admin/upload-visa-document";

export interface UploadTestServer {
  readonly url: string;
  readonly storage: DocumentStorage;
  /** The temporary folder the storage root is (deep) inside; nothing may be written outside the root. */
  readonly parent: string;
  readonly root: string;
  close(): Promise<void>;
}

/**
 * A real HTTP server with only the upload route, answering in the specs' envelope, so tests send
 * real multipart bodies the way the admin app does.
 */
export const startUploadServer = async (options: Partial<ReadUploadOptions> = {}): Promise<UploadTestServer> => {
  const parent = await mkdtemp(path.join(tmpdir(), "etd-uploads-"));
  // Deep, so a `../../..` that escaped the root would still land inside `parent`, where a test looks.
  const root = path.join(parent, "a", "b", "c", "uploads");
  const storage = await createLocalDiskStorage({ root });

  const app = express();
  app.post(UPLOAD_PATH, async (req, res) => {
    const result = await readUpload(req, storage, {
      textFields: ["orderId", "email", "mailServiceProvider"],
      fileField: "uploadVisaDoc",
      placeFile: placeOrderDocument("orderId"),
      ...options,
    });
    if (!req.complete) res.set("Connection", "close");
    if (!result.ok) {
      res.status(result.status).json({ status: 0, message: result.message, data: result.field ? { field: result.field } : null });
      return;
    }
    res.json({ status: 1, message: "Document uploaded", data: { fields: result.fields, file: result.file } });
  });

  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${UPLOAD_PATH}`,
    storage,
    parent,
    root,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(parent, { recursive: true, force: true });
    },
  };
};


export const PDF_BYTES = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
export const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from("\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0", "latin1"),
]);
/** The start of a Linux executable. */
export const ELF_BYTES = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(56)]);

export interface FilePart {
  readonly name: string;
  readonly filename: string;
  readonly type?: string;
  readonly data: Buffer;
  /** Send the name as RFC 5987 `filename*=UTF-8''…` instead of `filename="…"`. */
  readonly extended?: boolean;
}
export type Part = { readonly name: string; readonly value: string } | FilePart;

export const BOUNDARY = "----etd-test-boundary-7MA4YWxkTrZu0gW";

/**
 * A multipart body written by hand, for what FormData will not do: parts in any order, raw file
 * names, extended file names, a missing end.
 */
export const multipartBody = (parts: readonly Part[], { end = true } = {}): Buffer =>
  Buffer.concat([
    ...parts.flatMap((part) => {
      if ("value" in part) {
        return [Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`)];
      }
      const filename = part.extended
        ? `filename*=UTF-8''${encodeURIComponent(part.filename)}`
        : `filename="${part.filename}"`;
      return [
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; ${filename}\r\n` +
            `Content-Type: ${part.type ?? "application/octet-stream"}\r\n\r\n`,
        ),
        part.data,
        Buffer.from("\r\n"),
      ];
    }),
    Buffer.from(end ? `--${BOUNDARY}--\r\n` : ""),
  ]);

export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** The form as the admin app sends it (001 §7), with FormData and a Blob. */
export const uploadForm = ({
  orderId = "100234",
  email = "traveller@example.com",
  mailServiceProvider = "AWS",
  file,
}: {
  orderId?: string;
  email?: string;
  mailServiceProvider?: string;
  file?: { data: Buffer; name: string; type?: string };
}): FormData => {
  const form = new FormData();
  form.append("orderId", orderId);
  form.append("email", email);
  if (file) form.append("uploadVisaDoc", new Blob([file.data], { type: file.type ?? "application/pdf" }), file.name);
  form.append("mailServiceProvider", mailServiceProvider);
  return form;
};
