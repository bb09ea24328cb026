import { useNavigate } from "@tanstack/react-router";
import { useId, useState } from "react";
import { Button } from "react-aria-components";

/** Where an auditor types an order id to replay it. */
export const OrderIdBox = ({ initial = "" }: { initial?: string }) => {
  const id = useId();
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  return (
    <form
      className="audit-form audit-order-box"
      onSubmit={(event) => {
        event.preventDefault();
        const orderId = value.trim();
        if (!/^\d{1,20}$/.test(orderId)) {
          setProblem("Please enter an order id (digits only).");
          return;
        }
        setProblem(undefined);
        void navigate({ to: "/admin/audit/orders/$orderId", params: { orderId } });
      }}
    >
      <div className="field">
        <label className="label" htmlFor={`${id}-order`}>
          Order id
        </label>
        <input
          id={`${id}-order`}
          name="orderId"
          className="input"
          inputMode="numeric"
          autoComplete="off"
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
        {problem ? (
          <p id={`${id}-problem`} className="field-error">
            {problem}
          </p>
        ) : null}
      </div>
      <Button type="submit" className="button button-primary">
        Replay
      </Button>
    </form>
  );
};
