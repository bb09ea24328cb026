/* The order page's read-only sections (001 §2, ORDER-4..9), composed by the page. */
export { OrderRecordSections } from "./order-record-sections.tsx";
export { DownloadHistoryTable } from "./download-history-table.tsx";
export { CommentHistory } from "./comment-history.tsx";
