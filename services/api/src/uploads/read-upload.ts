import type { IncomingMessage } from "node:http";
import { Transform } from "node:stream";
import busboy from "busboy";
import type { DocumentStorage, StagedDocument, StorageKey } from "@etd/storage";
import { safeFileName } from "./safe-file-name.ts";
import { SNIFF_BYTES, sniffContentType, type DocumentContentType } from "./sniff-content-type.ts";
import type { UploadRefusal, UploadResult } from "./upload-result.ts";

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_FIELD_BYTES = 4 * 1024;

export interface ReadUploadOptions {
  /** The form's text fields; others are ignored (but count towards the field limit). */
  readonly textFields: readonly string[];
  /** The one file field, e.g. `uploadVisaDoc`. */
  readonly fileField: string;
  /**
   * Decides where the file goes once the whole form has arrived (the field naming the place may
   * come after the file), or refuses. Nothing is visible in storage before this returns a key.
   * `fileName` is already safe; `placeOrderDocument()` is the one for order documents.
   */
  readonly placeFile: (fields: Readonly<Record<string, string>>, fileName: string) => StorageKey | UploadRefusal;
  /**
   * Checks the text fields before the file is looked at, so a form missing both an e-mail and a
   * file gets the e-mail's message first, as the form shows them. Optional.
   */
  readonly checkFields?: (fields: Readonly<Record<string, string>>) => UploadRefusal | undefined;
  /** Largest accepted file. Default 10 MiB. */
  readonly maxFileBytes?: number;
  /** Largest accepted text field value. Default 4 KiB. */
  readonly maxFieldBytes?: number;
}

const refusal = (status: UploadRefusal["status"], message: string, field?: string): UploadRefusal =>
  field === undefined ? { ok: false, status, message } : { ok: false, status, message, field };

const NOT_MULTIPART = refusal(400, "The upload is not a valid multipart form.");
const UNSUPPORTED_TYPE = refusal(415, "Only PDF or image files can be uploaded.");
const tooLarge = (maxFileBytes: number): UploadRefusal => {
  const [amount, unit] = maxFileBytes >= 1024 * 1024 ? [maxFileBytes / (1024 * 1024), "MB"] : [maxFileBytes / 1024, "KB"];
  return refusal(413, `The file is larger than the ${Math.round(amount * 10) / 10} ${unit} limit.`);
};

/** Carries a refusal through the file stream so the staged write stops and cleans up. */
class UploadRefused extends Error {
  readonly refusal: UploadRefusal;
  constructor(refused: UploadRefusal) {
    super(refused.message);
    this.refusal = refused;
  }
}

/** Counts and sniffs the file on its way to storage; fails the stream the moment it is refused. */
const inspectFile = (maxFileBytes: number, onSniffed: (type: DocumentContentType) => void): Transform => {
  let head: Buffer | undefined = Buffer.alloc(0);
  let sizeBytes = 0;
  const sniff = (): UploadRefused | undefined => {
    const contentType = head === undefined ? undefined : sniffContentType(head);
    if (contentType === undefined) return new UploadRefused(UNSUPPORTED_TYPE);
    onSniffed(contentType);
    return undefined;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sizeBytes += chunk.length;
      if (sizeBytes > maxFileBytes) return done(new UploadRefused(tooLarge(maxFileBytes)));
      if (head === undefined) return done(null, chunk);
      // Nothing reaches the disk before the type is known.
      head = Buffer.concat([head, chunk]);
      if (head.length < SNIFF_BYTES) return done();
      const refused = sniff();
      const held = head;
      head = undefined;
      return refused ? done(refused) : done(null, held);
    },
    flush(done) {
      if (head === undefined || head.length === 0) return done();
      const refused = sniff();
      const held = head;
      head = undefined;
      return refused ? done(refused) : done(null, held);
    },
  });
};

/**
 * After a refusal the rest of the body is read and thrown away, so the client (still sending)
 * gets the answer; past a budget the connection is cut instead, so a client cannot keep the
 * server reading forever.
 */
const discardRest = (req: IncomingMessage, budgetBytes: number): void => {
  if (req.complete || req.destroyed) return;
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > budgetBytes) req.destroy();
  });
  req.resume();
};

/**
 * Reads a multipart upload (DESIGN §6): the expected text fields and exactly one file, which is
 * counted, sniffed (PDF, PNG, JPEG, GIF or WebP by its first bytes; the client's type and
 * extension are not trusted), streamed to the storage's staging area, and placed under the key
 * `placeFile` gives once the whole form has arrived.
 *
 * Every mistake a user can make resolves to a refusal, answered at once (an oversized file is
 * refused when the limit is hit, not after the whole body); nothing is left in storage after a
 * refusal. Storage failures reject, to be answered as a 500.
 *
 * When the result is a refusal and `req.complete` is false, answer with `Connection: close`.
 */
export const readUpload = (
  req: IncomingMessage,
  storage: DocumentStorage,
  options: ReadUploadOptions,
): Promise<UploadResult> => {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxFieldBytes = options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
  const maxFields = options.textFields.length + 4;
  const contentType = req.headers["content-type"] ?? "";

  let parser: busboy.Busboy;
  try {
    if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new Error("not multipart");
    parser = busboy({
      headers: req.headers,
      // Browsers send UTF-8 file names; busboy's default would read them as Latin-1.
      defParamCharset: "utf8",
      limits: {
        // busboy flags a file that reaches the limit, so one byte more lets exactly the maximum in.
        fileSize: maxFileBytes + 1,
        files: 1,
        fields: maxFields,
        parts: maxFields + 1,
        fieldSize: maxFieldBytes,
        fieldNameSize: 200,
        headerPairs: 20,
      },
    });
  } catch {
    discardRest(req, maxFileBytes);
    return Promise.resolve(NOT_MULTIPART);
  }

  return new Promise<UploadResult>((resolve, reject) => {
    const fields = new Map<string, string>();
    const ignoreError = () => undefined;
    let fileStream: NodeJS.ReadableStream | undefined;
    let inspector: Transform | undefined;
    let clientFileName: string | undefined;
    let sniffedType: DocumentContentType | undefined;
    let staging: Promise<StagedDocument> | undefined;
    let settled = false;

    const discardStaged = async (): Promise<void> => {
      const staged = await staging?.catch(() => undefined);
      await staged?.discard();
    };

    /** Stops reading, removes whatever was staged, then answers. */
    const stop = (outcome: { refused: UploadRefusal } | { failed: unknown }): void => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      if (inspector !== undefined) fileStream?.unpipe(inspector);
      inspector?.destroy(new UploadRefused("refused" in outcome ? outcome.refused : NOT_MULTIPART));
      fileStream?.resume();
      parser.destroy();
      discardRest(req, maxFileBytes);
      const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
      discardStaged().then(
        () => ("refused" in outcome ? resolve(outcome.refused) : reject(asError(outcome.failed))),
        (error: unknown) => reject(asError("failed" in outcome ? outcome.failed : error)),
      );
    };
    const refuse = (refused: UploadRefusal) => stop({ refused });

    const complete = async (): Promise<UploadResult> => {
      const staged = await staging;
      const fieldValues = Object.fromEntries(fields);
      const problem = options.checkFields?.(fieldValues);
      if (problem !== undefined) return problem;
      if (staged === undefined || staged.sizeBytes === 0 || sniffedType === undefined) {
        return refusal(400, "File is required", options.fileField);
      }
      const placed = options.placeFile(fieldValues, safeFileName(clientFileName, sniffedType));
      if (typeof placed !== "string") return placed;
      const stored = await staged.commit(placed);
      return {
        ok: true,
        fields: fieldValues,
        file: {
          fileName: stored.storedPath.slice(stored.storedPath.lastIndexOf("/") + 1),
          contentType: sniffedType,
          sizeBytes: stored.sizeBytes,
          storedPath: stored.storedPath,
        },
      };
    };

    parser.on("field", (name, value, info) => {
      if (settled || !options.textFields.includes(name)) return;
      if (info.valueTruncated) return refuse(refusal(400, `The ${name} field is too long.`, name));
      if (fields.has(name)) return refuse(refusal(400, `The ${name} field was sent more than once.`, name));
      fields.set(name, value);
    });

    parser.on("file", (name, stream, info) => {
      // busboy fails the file stream when the parser is stopped; the staged write reports it.
      stream.on("error", ignoreError);
      if (settled) return void stream.resume();
      if (name !== options.fileField) {
        stream.resume();
        return refuse(refusal(400, `The form has an unexpected file field "${name}".`, name));
      }
      fileStream = stream;
      clientFileName = info.filename;
      stream.on("limit", () => refuse(tooLarge(maxFileBytes)));
      inspector = inspectFile(maxFileBytes, (type) => {
        sniffedType = type;
      });
      // Its error is read by the staged write, which may not have started reading yet.
      inspector.on("error", ignoreError);
      stream.pipe(inspector);
      staging = storage.stage(inspector);
      staging.catch((error: unknown) => {
        if (error instanceof UploadRefused) refuse(error.refusal);
        else stop({ failed: error });
      });
    });

    parser.on("filesLimit", () => refuse(refusal(400, "Only one file can be uploaded.", options.fileField)));
    parser.on("fieldsLimit", () => refuse(refusal(400, "The form has too many fields.")));
    parser.on("partsLimit", () => refuse(refusal(400, "The form has too many fields.")));
    parser.on("error", () => refuse(NOT_MULTIPART));
    parser.on("close", () => {
      if (settled) return;
      complete().then(
        (result) => {
          if (settled) return;
          if (result.ok) {
            settled = true;
            resolve(result);
          } else {
            refuse(result);
          }
        },
        (error: unknown) => {
          if (error instanceof UploadRefused) refuse(error.refusal);
          else stop({ failed: error });
        },
      );
    });

    // A client that goes away mid-upload leaves busboy waiting for the rest; nobody hears the answer.
    req.on("close", () => {
      if (!req.complete) refuse(refusal(400, "The upload was interrupted."));
    });
    req.on("error", () => refuse(refusal(400, "The upload was interrupted.")));

    req.pipe(parser);
  });
};
