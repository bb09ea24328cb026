import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { storageKey } from "@etd/storage";
import { MAX_FILE_NAME_BYTES, safeFileName } from "../../src/uploads/safe-file-name.ts";
import { extensionsFor, type DocumentContentType } from "../../src/uploads/sniff-content-type.ts";

const TYPES: readonly DocumentContentType[] = ["application/pdf", "image/png", "image/jpeg", "image/gif", "image/webp"];

describe("ORDER-3 the stored file name is safe and says what the file is", () => {
  it.each<[string | undefined, DocumentContentType, string]>([
    ["etravel.pdf", "application/pdf", "etravel.pdf"],
    ["Scan.PDF", "application/pdf", "Scan.pdf"],
    ["photo.jpeg", "image/jpeg", "photo.jpeg"],
    ["photo.png", "image/jpeg", "photo.jpg"],
    ["visa.exe", "application/pdf", "visa.pdf"],
    ["visa", "application/pdf", "visa.pdf"],
    ["../../etc/passwd.pdf", "application/pdf", "passwd.pdf"],
    ["..\\..\\windows\\win.ini", "application/pdf", "win.pdf"],
    ["/abs/x.pdf", "application/pdf", "x.pdf"],
    ["%2e%2e%2fx.pdf", "application/pdf", "2e_2e_2fx.pdf"],
    ["a\u0000b\r\n.pdf", "application/pdf", "ab.pdf"],
    ["invoice\u202Efdp.exe", "application/pdf", "invoicefdp.pdf"],
    ["...pdf", "application/pdf", "pdf.pdf"],
    [".htaccess", "image/png", "htaccess.png"],
    ["", "image/gif", "document.gif"],
    [undefined, "image/webp", "document.webp"],
    ["..", "application/pdf", "document.pdf"],
    ["CON.pdf", "application/pdf", "CON_.pdf"],
    ["my  visa   (final).pdf", "application/pdf", "my visa (final).pdf"],
    ["a:b*c?d<e>f|g\"h.pdf", "application/pdf", "a_b_c_d_e_f_g_h.pdf"],
    ["Visa Café.pdf", "application/pdf", "Visa Café.pdf"],
    ["ビザ.pdf", "application/pdf", "ビザ.pdf"],
  ])("%j holding %s is stored as %j", (clientName, type, expected) => {
    expect(safeFileName(clientName, type)).toBe(expected);
  });

  it("shortens a long name to a size every filesystem takes, keeping the extension", () => {
    const name = safeFileName(`${"é".repeat(300)}.pdf`, "application/pdf");

    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(name).toMatch(/^é+\.pdf$/);
  });

  it("gives, for any name at all, one plain storage segment ending in the type's extension", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), fc.constantFrom(...TYPES), (clientName, type) => {
        const name = safeFileName(clientName, type);
        expect(storageKey("docs", "100234", name)).toBe(`docs/100234/${name}`);
        expect(extensionsFor(type).some((extension) => name.endsWith(extension))).toBe(true);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
        expect(name).not.toMatch(/[/\\\0]|^\./);
        // Room for the `-999` a taken name gets.
        expect(storageKey("docs", "100234", name.replace(/(\.[a-z]+)$/, "-999$1"))).toBeDefined();
      }),
      { numRuns: 2000 },
    );
  });
});
