/** The document types staff may upload (001 §5: "PDF or image types"), by what the bytes say. */
export type DocumentContentType = "application/pdf" | "image/png" | "image/jpeg" | "image/gif" | "image/webp";

interface Signature {
  readonly contentType: DocumentContentType;
  /** The extension a stored name is given; the others are kept when the upload already has one. */
  readonly extensions: readonly [string, ...string[]];
  readonly matches: (head: Uint8Array) => boolean;
}

const startsWith = (head: Uint8Array, offset: number, expected: readonly number[] | string): boolean => {
  const bytes = typeof expected === "string" ? [...expected].map((c) => c.charCodeAt(0)) : expected;
  return head.length >= offset + bytes.length && bytes.every((byte, i) => head[offset + i] === byte);
};

// Magic numbers from each format's specification. A PDF reader tolerates junk before `%PDF-`,
// but a document produced for a customer has none, and being strict keeps polyglots out.
const SIGNATURES: readonly Signature[] = [
  { contentType: "application/pdf", extensions: [".pdf"], matches: (h) => startsWith(h, 0, "%PDF-") },
  {
    contentType: "image/png",
    extensions: [".png"],
    matches: (h) => startsWith(h, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { contentType: "image/jpeg", extensions: [".jpg", ".jpeg"], matches: (h) => startsWith(h, 0, [0xff, 0xd8, 0xff]) },
  { contentType: "image/gif", extensions: [".gif"], matches: (h) => startsWith(h, 0, "GIF87a") || startsWith(h, 0, "GIF89a") },
  {
    contentType: "image/webp",
    extensions: [".webp"],
    matches: (h) => startsWith(h, 0, "RIFF") && startsWith(h, 8, "WEBP"),
  },
];

/** How many leading bytes `sniffContentType` needs to tell every allowed type apart. */
export const SNIFF_BYTES = 12;

/** The allowed type the content is, judged from its first bytes only; undefined for anything else. */
export const sniffContentType = (head: Uint8Array): DocumentContentType | undefined =>
  SIGNATURES.find((signature) => signature.matches(head))?.contentType;

/** File extensions (with the dot, lower case) that fit a type; the first is the one to give. */
export const extensionsFor = (contentType: DocumentContentType): readonly [string, ...string[]] => {
  const signature = SIGNATURES.find((s) => s.contentType === contentType);
  if (signature === undefined) throw new Error(`no signature for ${contentType}`);
  return signature.extensions;
};

/** Every extension some allowed type uses, so a mismatched one is replaced rather than kept. */
export const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set(SIGNATURES.flatMap((s) => s.extensions));
