import { easternTime, type OrderDetails } from "@etd/contract";
import { HistoryTable } from "./history-table.tsx";

/** The staff's link to a downloaded file (ORDER-14: the admin file host's uploads/docs/{orderId}/{file}). */
const documentHref = (orderId: string, file: string) => `/uploads/docs/${encodeURIComponent(orderId)}/${encodeURIComponent(file)}`;

/**
 * Download History's table (ORDER-8): who downloaded the document, when (US Eastern, labelled EST
 * as the spec does), from which address and place. The page puts it in its section, with the
 * e-mail input and Sent Mail button.
 */
export const DownloadHistoryTable = ({ order }: { readonly order: OrderDetails }) => (
  <HistoryTable
    label="Download History"
    headers={["#", "Order ID", "Date and Time (EST)", "Downloaded File", "IP Address", "Location"]}
    isEmpty={order.downloadHistory.length === 0}
  >
    {order.downloadHistory.map((download, index) => (
      <tr key={download.id}>
        <td>{index + 1}</td>
        <td>{download.order_id}</td>
        <td>{easternTime(download.create_ts)}</td>
        <td className="record-wrap">
          <a href={documentHref(download.order_id, download.file)} target="_blank" rel="noopener noreferrer">
            {download.file}
          </a>
        </td>
        <td>{download.ip ?? ""}</td>
        <td className="record-wrap">{download.location ?? ""}</td>
      </tr>
    ))}
  </HistoryTable>
);
