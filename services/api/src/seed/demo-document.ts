import { crc32, deflateSync } from "node:zlib";

/*
 * The finished document a demo order was sent: a one-page PDF saying what it is, or an image of a
 * QR-like code (staff upload either), so the demo's document links open something. Written by
 * hand rather than rendered: seeding stores a few hundred of them and must stay quick.
 */

/** PDF string literals escape their delimiters; the lines below are plain ASCII. */
const literal = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

export const demoDocumentPdf = (orderId: string, issuedAt: Date): Buffer => {
  const lines = ["eTravel declaration - DEMO, not a travel document", `Order ${orderId}`, `Issued ${issuedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`];
  const text = ["BT", "/F1 14 Tf", "72 760 Td", "20 TL", ...lines.map((line, i) => `${i === 0 ? "" : "T* "}${literal(line)} Tj`), "ET"].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(text, "latin1")} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  // Each cross-reference entry is exactly 20 bytes: ten digits, space, five digits, space, flag, CR LF.
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n\r\n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
};

/** A PNG chunk: length, type, data, and the CRC of type and data (PNG spec §5.3). */
const chunk = (type: string, data: Buffer): Buffer => {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
};

const MODULES = 25;
const SCALE = 4;
const QUIET = 4;

/**
 * A grey-scale PNG that looks like the QR code on a real declaration: three finder squares and a
 * pattern drawn from the order id. It encodes nothing (a demo document must not pass for a real
 * one); the same order always gets the same picture.
 */
export const demoDocumentPng = (orderId: string): Buffer => {
  let state = [...orderId].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0, 0x811c9dc5);
  const bit = () => {
    // xorshift32: enough to scatter the modules, and the same on every machine.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return (state & 1) === 1;
  };
  const finder = (x: number, y: number): boolean | undefined => {
    for (const [fx, fy] of [[0, 0], [MODULES - 7, 0], [0, MODULES - 7]] as const) {
      const dx = x - fx;
      const dy = y - fy;
      if (dx >= -1 && dx <= 7 && dy >= -1 && dy <= 7) {
        if (dx < 0 || dy < 0 || dx > 6 || dy > 6) return false;
        const ring = Math.min(dx, dy, 6 - dx, 6 - dy);
        return ring !== 1;
      }
    }
    return undefined;
  };
  const dark = Array.from({ length: MODULES }, (_, y) => Array.from({ length: MODULES }, (_, x) => finder(x, y) ?? bit()));

  const side = (MODULES + 2 * QUIET) * SCALE;
  // One filter byte (0: none) before each row of 8-bit grey pixels.
  const raw = Buffer.alloc(side * (side + 1), 0xff);
  for (let py = 0; py < side; py++) {
    raw[py * (side + 1)] = 0;
    const my = Math.floor(py / SCALE) - QUIET;
    for (let px = 0; px < side; px++) {
      const mx = Math.floor(px / SCALE) - QUIET;
      if (dark[my]?.[mx] === true) raw[py * (side + 1) + 1 + px] = 0;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // colour type 0: grey
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
};
