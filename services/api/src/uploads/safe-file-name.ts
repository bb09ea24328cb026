import { DOCUMENT_EXTENSIONS, extensionsFor, type DocumentContentType } from "./sniff-content-type.ts";

/** Room for a `-999` suffix and the folder's limit of 255 bytes per name on every filesystem. */
export const MAX_FILE_NAME_BYTES = 120;
const FALLBACK_STEM = "document";
const WINDOWS_DEVICE_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/i;
/** Blanks and dots at the end; a match starts only where such a run does, so it is found in one pass. */
const TRAILING_BLANKS_AND_DOTS = /(?<![\s.])[\s.]+$/;

const truncateToBytes = (text: string, maxBytes: number): string => {
  let result = "";
  // By code point, so a character is never cut in half.
  for (const char of text) {
    if (Buffer.byteLength(result + char, "utf8") > maxBytes) break;
    result += char;
  }
  return result;
};

/**
 * The name a document is stored and linked under, from the name the client sent (which may be
 * anything: a path, `../../etc/passwd`, control characters, an `.exe`). Keeps letters, digits,
 * spaces and `._-()`, drops any folder part, leading dots, control and bidi characters, and ends
 * with an extension that fits the sniffed type: `scan.PDF` → `scan.pdf`, `visa.exe` → `visa.pdf`,
 * nothing usable → `document.pdf`. The result is always a valid single storage-key segment.
 */
export const safeFileName = (clientName: string | undefined, contentType: DocumentContentType): string => {
  const fitting = extensionsFor(contentType);
  let name = (clientName ?? "").normalize("NFC");
  name = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);
  name = name.replace(/[\p{Cc}\p{Cf}]/gu, "");
  // Anything else might mean something to a shell, a URL or another filesystem.
  name = name.replace(/[^\p{L}\p{M}\p{N}._()\- ]/gu, "_");
  // A leading dot hides a file (and `.htaccess` is not an extension).
  name = name.replace(/^[\s._-]+/, "");

  const dot = name.lastIndexOf(".");
  const given = dot >= 0 ? name.slice(dot).toLowerCase() : "";
  const extension = fitting.includes(given) ? given : fitting[0];
  // An extension that is not the sniffed type's is dropped: `visa.exe` holding a PDF is `visa.pdf`.
  let stem = dot >= 0 && (/^\.[a-z0-9]{1,10}$/.test(given) || DOCUMENT_EXTENSIONS.has(given)) ? name.slice(0, dot) : name;

  stem = stem
    .replace(/\s+/g, " ")
    .replace(/_{2,}/g, "_")
    .replace(/\.{2,}/g, ".")
    .replace(/^[\s._-]+/, "")
    .replace(TRAILING_BLANKS_AND_DOTS, "");
  stem = truncateToBytes(stem, MAX_FILE_NAME_BYTES - Buffer.byteLength(extension, "utf8")).replace(TRAILING_BLANKS_AND_DOTS, "");
  if (stem === "") stem = FALLBACK_STEM;
  if (WINDOWS_DEVICE_NAMES.test(stem)) stem = `${stem}_`;
  return `${stem}${extension}`;
};
