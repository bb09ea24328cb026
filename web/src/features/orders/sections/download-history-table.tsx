import { easternTime, type OrderDetails } from "@etd/contract";

/** The staff's link to a downloaded file (ORDER-14: the admin file host's uploads/docs/{orderId}/{file}). */
const documentHref = (orderId: string, file: string) => `/uploads/docs/${encodeURIComponent(orderId)}/${encodeURIComponent(file)}`;

/**
 * Download History's table (ORDER-8): who downloaded the document, when (US Eastern, labelled EST
 * as the spec does), from which address and place. The page puts it in its section, with the
 * e-mail input and Sent Mail button.
 */
export const DownloadHistoryTable = ({ order }: { readonly order: OrderDetails }) => (
  <div className="table-scroll record-table">
    <table className="data-table" aria-label="Download History">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Order ID</th>
          <th scope="col">Date and Time (EST)</th>
          <th scope="col">Downloaded File</th>
          <th scope="col">IP Address</th>
          <th scope="col">Location</th>
        </tr>
      </thead>
      <tbody>
        {order.downloadHistory.length === 0 ? (
          <tr>
            <td colSpan={6} className="table-empty">
              No record found
            </td>
          </tr>
        ) : (
          order.downloadHistory.map((download, index) => (
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
          ))
        )}
      </tbody>
    </table>
  </div>
);
