import type { OrderDetails } from "@etd/contract";
import { orderSections } from "./order-rows.ts";
import { RecordSectionView } from "./record-section.tsx";

/**
 * The order's record, read-only, from Order Details to For Customs - Currency Declaration, in the
 * spec's order and with the sections and rows its shape calls for (001 §2, ORDER-4..7).
 */
export const OrderRecordSections = ({ order }: { readonly order: OrderDetails }) => (
  <div className="record-sections">
    {orderSections(order).map((section) => (
      <RecordSectionView key={section.id} section={section} />
    ))}
  </div>
);
