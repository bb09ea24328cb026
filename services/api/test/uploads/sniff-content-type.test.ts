import { describe, expect, it } from "vitest";
import { sniffContentType } from "../../src/uploads/sniff-content-type.ts";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part))));

describe("ORDER-3 the upload's type comes from its first bytes", () => {
  it.each([
    ["a PDF", bytes("%PDF-1.4\n"), "application/pdf"],
    ["a PNG", bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), "image/png"],
    ["a JPEG", bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], "JFIF"), "image/jpeg"],
    ["a GIF87a", bytes("GIF87a\x01\0\x01\0"), "image/gif"],
    ["a GIF89a", bytes("GIF89a\x01\0\x01\0"), "image/gif"],
    ["a WebP", bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 "), "image/webp"],
  ])("recognises %s", (_case, head, type) => {
    expect(sniffContentType(head)).toBe(type);
  });

  it.each([
    ["an ELF executable", bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])],
    ["a Windows executable", bytes("MZ\x90\0")],
    ["a zip (or Office file)", bytes("PK\x03\x04")],
    ["a WAV, which is RIFF but not WebP", bytes("RIFF", [0x24, 0, 0, 0], "WAVEfmt ")],
    ["an SVG, which can carry script", bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ["HTML", bytes("<!DOCTYPE html>")],
    ["a PDF header that is not at the start", bytes(" %PDF-1.4")],
    ["a truncated PNG signature", bytes([0x89, 0x50, 0x4e, 0x47])],
    ["nothing", bytes()],
  ])("refuses %s", (_case, head) => {
    expect(sniffContentType(head)).toBeUndefined();
  });
});
