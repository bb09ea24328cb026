import type { OrderDetails } from "@etd/contract";
import { ORDER_PAGE, ORDERS } from "@etd/contract/endpoints";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "react-aria-components";
import { toast } from "../../../components/ui/toast.tsx";
import { queryKeys } from "../../../lib/query-keys.ts";
import { openDefencePack } from "../utils/defence-pack.ts";
import type { OrderCommands } from "../hooks/use-decisive-command.ts";
import { FieldMessage, messageProps } from "./field-message.tsx";

/** ORDER-13: the statuses a chargeback can be defended in. */
export const DEFENCE_STATUSES: readonly OrderDetails["process_status"][] = ["Completed", "CustomerCalled", "ChargeBack"];

const TransactionForm = ({ order, commands }: { readonly order: OrderDetails; readonly commands: OrderCommands }) => {
  const id = useId();
  const [transactionId, setTransactionId] = useState(order.transaction_id ?? "");
  const [merchantName, setMerchantName] = useState(order.merchant_name ?? "");
  const [problems, setProblems] = useState<{ transactionId?: string | undefined; merchantName?: string | undefined }>({});
  const submit = () => {
    const next = {
      transactionId: transactionId.trim() === "" ? "Please enter your Transaction Id" : undefined,
      merchantName: merchantName.trim() === "" ? "Please enter your Merchant Name" : undefined,
    };
    setProblems(next);
    if (next.transactionId || next.merchantName) return;
    void commands.run("Save the transaction details", ORDERS.saveTransactionDetails, {
      body: { orderId: order.order_id, transactionId: transactionId.trim(), merchantName: merchantName.trim() },
    });
  };
  const field = (key: "transactionId" | "merchantName", label: string, value: string, set: (value: string) => void) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        name={key}
        className="input"
        value={value}
        onChange={(event) => set(event.target.value)}
        {...messageProps(`${id}-${key}`, problems[key])}
      />
      <FieldMessage id={`${id}-${key}`} error={problems[key]} />
    </div>
  );
  return (
    <form className="form order-transaction-form" aria-label="Transaction Details" noValidate onSubmit={(event) => event.preventDefault()}>
      {field("transactionId", "Transaction Id", transactionId, setTransactionId)}
      {field("merchantName", "Merchant Name", merchantName, setMerchantName)}
      <div className="toolbar">
        <Button className="button button-primary" isDisabled={commands.busy !== undefined} onPress={submit}>
          Save Transaction Details
        </Button>
      </div>
    </form>
  );
};

/**
 * ORDER-13: Defence Pack 1 and 2 (each opens its PDF in a new tab) and Enter Transaction Details,
 * only while the order is Completed, Customer Called or ChargeBack.
 */
export const DefencePacks = ({ order, commands }: { readonly order: OrderDetails; readonly commands: OrderCommands }) => {
  const queryClient = useQueryClient();
  const [formOpen, setFormOpen] = useState(false);
  const [opening, setOpening] = useState<1 | 2 | undefined>(undefined);
  if (!DEFENCE_STATUSES.includes(order.process_status)) return null;
  const open = async (packType: 1 | 2) => {
    // Opened now, in the click, so that the browser allows it; it is sent to the PDF once it arrives.
    const target = window.open("", "_blank");
    setOpening(packType);
    const refused = await openDefencePack(order.order_id, packType, target);
    setOpening(undefined);
    if (refused) toast.error(refused);
    // The pack is recorded with the order: read again what its declaration says it changes (the
    // PDF carries no position, so nothing waits for one).
    else for (const projection of ORDER_PAGE.getDefencePackPdf.changes) void queryClient.invalidateQueries({ queryKey: queryKeys[projection] });
  };
  return (
    <div className="order-defence" role="group" aria-label="Chargeback defence">
      <div className="toolbar">
        {([1, 2] as const).map((packType) => (
          <Button key={packType} className="button" isDisabled={opening !== undefined} onPress={() => void open(packType)}>
            Defence Pack {packType}
          </Button>
        ))}
        <Button className="button" aria-expanded={formOpen} onPress={() => setFormOpen(!formOpen)}>
          Enter Transaction Details
        </Button>
      </div>
      {formOpen && <TransactionForm order={order} commands={commands} />}
    </div>
  );
};
