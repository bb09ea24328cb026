/*
 * The finished document a demo order was sent: a one-page PDF saying what it is, so the demo's
 * document links open something. Written by hand (one font, one line of text per entry) rather
 * than rendered: seeding stores a few hundred of them and must stay quick.
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
