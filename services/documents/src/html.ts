/*
 * HTML for the PDFs. Every value that reaches a template goes through `escapeHtml`: order data is
 * typed by travellers and staff, and a pack must show what they typed, never run it.
 */

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? "" : String(value).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** A two-column table of label and value; values escaped, empty ones shown as a dash. */
export const fieldTable = (rows: readonly (readonly [string, string | number | null | undefined])[]): string =>
  `<table class="fields">${rows.map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${cell(value)}</td></tr>`).join("")}</table>`;

/** A table with a header row; `empty` is shown when there are no rows. */
export const listTable = (headers: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[], empty: string): string =>
  rows.length === 0
    ? `<p class="empty">${escapeHtml(empty)}</p>`
    : `<table class="list"><thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>` +
      `<tbody>${rows.map((row) => `<tr>${row.map((value) => `<td>${cell(value)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;

const cell = (value: string | number | null | undefined): string => (value === null || value === undefined || value === "" ? "—" : escapeHtml(value));

/** A traveller's name as the documents print it: given, middle, family name and suffix, as given. */
export const personName = (parts: { readonly first_name?: unknown; readonly middle_name?: unknown; readonly last_name?: unknown; readonly suffix?: unknown }): string =>
  [parts.first_name, parts.middle_name, parts.last_name, parts.suffix]
    .filter((part): part is string => typeof part === "string" && part.trim() !== "")
    .map((part) => part.trim())
    .join(" ");
