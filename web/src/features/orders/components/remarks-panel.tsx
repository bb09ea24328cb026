import type { OrderDetails } from "@etd/contract";
import { ORDERS } from "@etd/contract/endpoints";
import { useId, useState, type ReactNode } from "react";
import { Button } from "react-aria-components";
import type { OrderCommands } from "../hooks/use-decisive-command.ts";
import { FieldMessage, messageProps } from "./field-message.tsx";

type Flag = "whatsapp" | "telephone" | "statusRefund" | "voided" | "chargeBack" | "reportError";

/** ORDER-10's flags, as the form names them. */
const FLAGS: readonly { readonly key: Flag; readonly label: string }[] = [
  { key: "whatsapp", label: "Whatsapp" },
  { key: "telephone", label: "Telephone" },
  { key: "statusRefund", label: "Refund" },
  { key: "voided", label: "Voided" },
  { key: "chargeBack", label: "Chargeback" },
  { key: "reportError", label: "ReportError" },
];

const NO_FLAGS: Record<Flag, boolean> = { whatsapp: false, telephone: false, statusRefund: false, voided: false, chargeBack: false, reportError: false };

/**
 * ORDER-10: Add Comment Below, with its optional flags. Refund and Chargeback move the order, so
 * the page's version goes with every remark (the server holds it to it only when a flag is ticked).
 */
export const RemarksPanel = ({ order, commands, children }: { readonly order: OrderDetails; readonly commands: OrderCommands; readonly children?: ReactNode }) => {
  const id = useId();
  const [remark, setRemark] = useState("");
  const [flags, setFlags] = useState(NO_FLAGS);
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async () => {
    if (remark.trim() === "") {
      setError("Please enter your remark");
      return;
    }
    setError(undefined);
    const done = await commands.decisive("Add the comment", ORDERS.addRemark, (version) => ({
      body: { orderId: order.order_id, remark: remark.trim(), ...flags, expectedVersion: version },
    }));
    if (done) {
      setRemark("");
      setFlags(NO_FLAGS);
    }
  };
  return (
    <section className="record-section order-section" aria-labelledby="remarks-title" data-section="remarks">
      <h2 id="remarks-title">
        Add Comment Below
      </h2>
      <form className="form order-remark-form" noValidate onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-remark`}>Remark</label>
          <textarea
            id={`${id}-remark`}
            name="remark"
            className="input"
            rows={3}
            value={remark}
            onChange={(event) => setRemark(event.target.value)}
            {...messageProps(id, error)}
          />
          <FieldMessage id={id} error={error} />
        </div>
        <fieldset className="order-flags">
          <legend>Flags</legend>
          {FLAGS.map((flag) => (
            <label key={flag.key} className="order-flag">
              <input type="checkbox" name={flag.key} checked={flags[flag.key]} onChange={(event) => setFlags({ ...flags, [flag.key]: event.target.checked })} />{" "}
              {flag.label}
            </label>
          ))}
        </fieldset>
        <div className="toolbar">
          <Button className="button button-primary" isDisabled={commands.busy !== undefined} onPress={() => void submit()}>
            Submit
          </Button>
        </div>
      </form>
      {children}
    </section>
  );
};
