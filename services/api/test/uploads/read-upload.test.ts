import { readFile } from "node:fs/promises";
import { request } from "node:http";
import path from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ELF_BYTES,
  MULTIPART_TYPE,
  PDF_BYTES,
  PNG_BYTES,
  multipartBody,
  startUploadServer,
  uploadForm,
  type UploadTestServer,
} from "./upload-test-server.ts";
import { filesUnder } from "@etd/infra/files-under";

const MiB = 1024 * 1024;

/** The test route's answer, in the specs' envelope. */
interface Answer {
  readonly status: number;
  readonly message: string;
  readonly data: {
    readonly fields?: Record<string, string>;
    readonly file?: { fileName: string; contentType: string; sizeBytes: number; storedPath: string };
    readonly field?: string;
  } | null;
}

const post = async (url: string, body: FormData | Buffer | string, contentType?: string) => {
  const response = await fetch(url, {
    method: "POST",
    body: typeof body === "string" || body instanceof FormData ? body : new Uint8Array(body),
    headers: contentType === undefined ? {} : { "content-type": contentType },
  });
  return { status: response.status, body: (await response.json()) as Answer };
};

/** The staged-but-never-placed files; after any request there must be none. */
const leftInStaging = async (server: UploadTestServer) =>
  (await filesUnder(server.root)).filter((file) => file.startsWith(".staging/"));

describe("ORDER-3 upload document: reading the multipart form", () => {
  let server: UploadTestServer;
  beforeAll(async () => {
    server = await startUploadServer();
  });
  afterAll(async () => server.close());

  it("stores a PDF under docs/{orderId}/{fileName} and reads it back byte for byte", async () => {
    const { status, body } = await post(server.url, uploadForm({ file: { data: PDF_BYTES, name: "etravel.pdf" } }));

    expect(status).toBe(200);
    expect(body.data).toEqual({
      fields: { orderId: "100234", email: "traveller@example.com", mailServiceProvider: "AWS" },
      file: { fileName: "etravel.pdf", contentType: "application/pdf", sizeBytes: PDF_BYTES.length, storedPath: "docs/100234/etravel.pdf" },
    });
    const stored = await server.storage.open("docs/100234/etravel.pdf");
    expect(stored).toBeDefined();
    expect(await text(stored!)).toBe(PDF_BYTES.toString());
    expect(await readFile(path.join(server.root, "docs", "100234", "etravel.pdf"))).toEqual(PDF_BYTES);
  });

  it("stores a PNG by what its bytes say, whatever type and extension the client claimed", async () => {
    const { status, body } = await post(
      server.url,
      uploadForm({ orderId: "555666", file: { data: PNG_BYTES, name: "passport scan", type: "application/octet-stream" } }),
    );

    expect(status).toBe(200);
    expect(body.data?.file).toEqual({
      fileName: "passport scan.png",
      contentType: "image/png",
      sizeBytes: PNG_BYTES.length,
      storedPath: "docs/555666/passport scan.png",
    });
    expect(await server.storage.exists("docs/555666/passport scan.png")).toBe(true);
  });

  it("places the file by the order id even when that field arrives after the file", async () => {
    const body = multipartBody([
      { name: "uploadVisaDoc", filename: "late.pdf", type: "application/pdf", data: PDF_BYTES },
      { name: "email", value: "traveller@example.com" },
      { name: "orderId", value: "777888" },
      { name: "mailServiceProvider", value: "SMTP" },
    ]);
    const response = await post(server.url, body, MULTIPART_TYPE);

    expect(response.status).toBe(200);
    expect(response.body.data?.file?.storedPath).toBe("docs/777888/late.pdf");
    expect(response.body.data?.fields?.orderId).toBe("777888");
  });

  it("keeps both documents when the same name is uploaded twice for an order", async () => {
    const form = () => uploadForm({ orderId: "424242", file: { data: PDF_BYTES, name: "visa.pdf" } });
    const first = await post(server.url, form());
    const second = await post(server.url, form());

    expect(first.body.data?.file?.storedPath).toBe("docs/424242/visa.pdf");
    expect(second.body.data?.file).toMatchObject({ fileName: "visa-1.pdf", storedPath: "docs/424242/visa-1.pdf" });
    expect(await server.storage.exists("docs/424242/visa.pdf")).toBe(true);
  });

  it("answers 'File is required' when no file is sent", async () => {
    const { status, body } = await post(server.url, uploadForm({}));

    expect(status).toBe(400);
    expect(body).toEqual({ status: 0, message: "File is required", data: { field: "uploadVisaDoc" } });
  });

  it("answers 'File is required' for the empty file part a browser sends when nothing was chosen", async () => {
    const body = multipartBody([
      { name: "orderId", value: "100234" },
      { name: "uploadVisaDoc", filename: "", data: Buffer.alloc(0) },
    ]);
    const response = await post(server.url, body, MULTIPART_TYPE);

    expect(response.status).toBe(400);
    expect(response.body.message).toBe("File is required");
    expect(await leftInStaging(server)).toEqual([]);
  });

  it.each([
    ["missing", undefined, "Please enter your order id."],
    ["not digits", "12ab34", "Order Id must be 6 to 20 digits."],
    ["a path", "../../../../etc", "Order Id must be 6 to 20 digits."],
    ["too short", "12345", "Order Id must be 6 to 20 digits."],
  ])("refuses an order id that is %s and stores nothing", async (_case, orderId, message) => {
    const before = await filesUnder(server.parent);
    const parts = [
      ...(orderId === undefined ? [] : [{ name: "orderId", value: orderId }]),
      { name: "uploadVisaDoc", filename: "visa.pdf", type: "application/pdf", data: PDF_BYTES },
    ];
    const { status, body } = await post(server.url, multipartBody(parts), MULTIPART_TYPE);

    expect(status).toBe(400);
    expect(body).toEqual({ status: 0, message, data: { field: "orderId" } });
    expect(await filesUnder(server.parent)).toEqual(before);
  });

  it("refuses a body that is not a multipart form", async () => {
    const json = await post(server.url, JSON.stringify({ orderId: "100234" }), "application/json");
    const cut = await post(
      server.url,
      multipartBody([{ name: "uploadVisaDoc", filename: "visa.pdf", data: PDF_BYTES }], { end: false }),
      MULTIPART_TYPE,
    );

    for (const response of [json, cut]) {
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("The upload is not a valid multipart form.");
    }
    expect(await leftInStaging(server)).toEqual([]);
  });

  it("refuses a second file", async () => {
    const body = multipartBody([
      { name: "orderId", value: "100234" },
      { name: "uploadVisaDoc", filename: "one.pdf", data: PDF_BYTES },
      { name: "uploadVisaDoc", filename: "two.pdf", data: PDF_BYTES },
    ]);
    const response = await post(server.url, body, MULTIPART_TYPE);

    expect(response.status).toBe(400);
    expect(response.body.message).toBe("Only one file can be uploaded.");
    expect(await server.storage.exists("docs/100234/two.pdf")).toBe(false);
    expect(await leftInStaging(server)).toEqual([]);
  });

  it("refuses a file sent under another field name, and an over-long text field", async () => {
    const otherField = await post(
      server.url,
      multipartBody([{ name: "orderId", value: "100234" }, { name: "photo", filename: "a.pdf", data: PDF_BYTES }]),
      MULTIPART_TYPE,
    );
    const longEmail = await post(server.url, uploadForm({ email: `${"a".repeat(5000)}@example.com`, file: { data: PDF_BYTES, name: "a.pdf" } }));

    expect(otherField).toMatchObject({ status: 400, body: { message: 'The form has an unexpected file field "photo".' } });
    expect(longEmail).toMatchObject({ status: 400, body: { message: "The email field is too long." } });
  });

  it("checks the text fields before asking for the file when told how", async () => {
    const strict = await startUploadServer({
      checkFields: (fields) =>
        fields.email ? undefined : { ok: false, status: 400, field: "email", message: "Please enter your email" },
    });
    try {
      const { status, body } = await post(strict.url, uploadForm({ email: "" }));
      expect(status).toBe(400);
      expect(body.message).toBe("Please enter your email");
    } finally {
      await strict.close();
    }
  });

  it("accepts a file of exactly the configured limit and refuses one byte more", async () => {
    const small = await startUploadServer({ maxFileBytes: 1024 });
    try {
      const exact = Buffer.concat([PDF_BYTES, Buffer.alloc(1024 - PDF_BYTES.length, 0x20)]);
      const fits = await post(small.url, uploadForm({ file: { data: exact, name: "exact.pdf" } }));
      const over = await post(small.url, uploadForm({ file: { data: Buffer.concat([exact, Buffer.from(" ")]), name: "over.pdf" } }));

      expect(fits.status).toBe(200);
      expect(fits.body.data?.file?.sizeBytes).toBe(1024);
      expect(over).toMatchObject({ status: 413, body: { message: "The file is larger than the 1 KB limit." } });
    } finally {
      await small.close();
    }
  });
});

describe("R7 ORDER-3: uploads cannot exceed the cap, smuggle a program in, or write outside the storage folder", () => {
  let server: UploadTestServer;
  beforeAll(async () => {
    server = await startUploadServer();
  });
  afterAll(async () => server.close());

  it("refuses a file over 10 MB with 413 and leaves nothing on disk", async () => {
    const big = Buffer.concat([PDF_BYTES, Buffer.alloc(10 * MiB + 1 - PDF_BYTES.length, 0x20)]);
    const { status, body } = await post(server.url, uploadForm({ file: { data: big, name: "big.pdf" } }));

    expect(status).toBe(413);
    expect(body).toEqual({ status: 0, message: "The file is larger than the 10 MB limit.", data: null });
    expect(await filesUnder(server.parent)).toEqual([]);
  });

  it("refuses an oversized upload as soon as the limit is hit, without waiting for the rest of the body", async () => {
    const head = multipartBody([{ name: "orderId", value: "100234" }], { end: false });
    const fileHead = Buffer.from(
      `--${MULTIPART_TYPE.split("boundary=")[1]}\r\nContent-Disposition: form-data; name="uploadVisaDoc"; filename="endless.pdf"\r\n` +
        "Content-Type: application/pdf\r\n\r\n%PDF-1.7\n",
    );
    const url = new URL(server.url);

    // The client sends 11 MiB of file and then stalls without ever finishing the body.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": MULTIPART_TYPE } },
        (res) => {
          text(res).then((body) => {
            resolve({ status: res.statusCode ?? 0, body });
            req.destroy();
          }, reject);
        },
      );
      req.on("error", () => undefined);
      req.write(head);
      req.write(fileHead);
      for (let i = 0; i < 11; i++) req.write(Buffer.alloc(MiB, 0x20));
    });

    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ message: "The file is larger than the 10 MB limit." });
    expect(await filesUnder(server.parent)).toEqual([]);
  });

  it.each([
    ["an ELF executable", ELF_BYTES],
    ["a Windows executable", Buffer.concat([Buffer.from("MZ\x90\0\x03\0\0\0", "latin1"), Buffer.alloc(56)])],
    ["an HTML page", Buffer.from("<!doctype html><script>alert(1)</script>")],
    ["a PDF with junk before its header", Buffer.concat([Buffer.from("\x7fELF"), PDF_BYTES])],
  ])("refuses %s named visa.pdf with 415", async (_case, data) => {
    const { status, body } = await post(server.url, uploadForm({ file: { data, name: "visa.pdf", type: "application/pdf" } }));

    expect(status).toBe(415);
    expect(body.message).toBe("Only PDF or image files can be uploaded.");
    expect(await filesUnder(server.parent)).toEqual([]);
  });

  it.each([
    ["../../etc/passwd.pdf", "passwd.pdf", false],
    ["..\\..\\x.pdf", "x.pdf", false],
    ["/abs/y.pdf", "y.pdf", false],
    ["C:\\Windows\\z.pdf", "z.pdf", false],
    ["%2e%2e%2f%2e%2e%2fencoded.pdf", "2e_2e_2f_2e_2e_2fencoded.pdf", false],
    ["../../../../../../escape.pdf", "escape.pdf", true],
    ["..", "document.pdf", false],
    [".htaccess", "htaccess.pdf", false],
    ["visa\u202Efdp.exe", "visafdp.pdf", false],
  ])("stores a file sent as %j inside the root as %j (RFC 5987 name: %s)", async (filename, expected, extended) => {
    const body = multipartBody([
      { name: "orderId", value: "300300" },
      { name: "uploadVisaDoc", filename, extended, type: "application/pdf", data: PDF_BYTES },
    ]);
    const response = await post(server.url, body, MULTIPART_TYPE);

    expect(response.status).toBe(200);
    expect(response.body.data?.file).toMatchObject({ fileName: expected, storedPath: `docs/300300/${expected}` });
    expect(await readFile(path.join(server.root, "docs", "300300", expected))).toEqual(PDF_BYTES);
  });

  it("refuses a raw NUL in a file name as a malformed form, and drops an encoded one", async () => {
    const file = { name: "uploadVisaDoc", type: "application/pdf", data: PDF_BYTES };
    const raw = await post(
      server.url,
      multipartBody([{ name: "orderId", value: "300301" }, { ...file, filename: "visa\u0000.pdf" }]),
      MULTIPART_TYPE,
    );
    const encoded = await post(
      server.url,
      multipartBody([{ name: "orderId", value: "300301" }, { ...file, filename: "visa\u0000.pdf", extended: true }]),
      MULTIPART_TYPE,
    );

    expect(raw).toMatchObject({ status: 400, body: { message: "The upload is not a valid multipart form." } });
    expect(encoded).toMatchObject({ status: 200, body: { data: { file: { storedPath: "docs/300301/visa.pdf" } } } });
  });

  it("has written nothing outside the storage folder, and nothing but placed documents inside it", async () => {
    const everything = await filesUnder(server.parent);
    const rootInParent = path.relative(server.parent, server.root).split(path.sep).join("/");

    expect(everything.length).toBeGreaterThan(0);
    for (const file of everything) expect(file.startsWith(`${rootInParent}/docs/`)).toBe(true);
    expect(await leftInStaging(server)).toEqual([]);
  });
});
