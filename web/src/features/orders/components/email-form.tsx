import { isEmailAddress, type OrderDetails } from "@etd/contract";
import { useId, useState } from "react";
import { Button } from "react-aria-components";
import type { MailProviderChoice } from "../utils/order-answers.ts";
import { FieldMessage, messageProps } from "./field-message.tsx";

/** 'Please enter your email' (ORDER-2, ORDER-3, ORDER-8), or undefined when the address will do: the server's rule (requiredEmail). */
export const emailProblem = (email: string): string | undefined =>
  email.trim() === "" ? "Please enter your email" : isEmailAddress(email.trim()) ? undefined : "Please enter a valid email.";

export interface EmailFormProps {
  readonly initialEmail: string;
  /** One button per provider, or a single one. */
  readonly buttons: readonly { readonly label: string; readonly provider: MailProviderChoice }[];
  readonly busy: boolean;
  readonly onSend: (email: string, provider: MailProviderChoice) => Promise<unknown>;
  readonly className?: string;
  /** Why nothing can be sent yet (no document to mail): the buttons are off, and this says why beside them. */
  readonly unavailable?: string | undefined;
}

/** Why an order's send buttons are off: it has no document to mail yet, and the decider would refuse the mail. */
export const mailUnavailable = (order: Pick<OrderDetails, "uploadDoc">): string | undefined =>
  order.uploadDoc.length === 0 ? "No document to mail yet: upload one first." : undefined;

/** An email input with its send buttons: under Email History (Resend Mail) and Download History (Sent Mail). */
export const EmailForm = ({ initialEmail, buttons, busy, onSend, className, unavailable }: EmailFormProps) => {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | undefined>(undefined);
  const id = useId();
  const send = (provider: MailProviderChoice) => {
    const problem = emailProblem(email);
    setError(problem);
    if (!problem) void onSend(email.trim(), provider);
  };
  return (
    <form className={`order-inline-form ${className ?? ""}`} noValidate onSubmit={(event) => event.preventDefault()}>
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          className="input"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          {...messageProps(id, error)}
        />
        <FieldMessage id={id} error={error} />
      </div>
      <div className="toolbar">
        {buttons.map((button) => (
          <Button
            key={button.provider}
            className="button button-primary"
            isDisabled={busy || unavailable !== undefined}
            aria-describedby={unavailable === undefined ? undefined : `${id}-unavailable`}
            onPress={() => send(button.provider)}
          >
            {button.label}
          </Button>
        ))}
        {unavailable !== undefined && (
          <span id={`${id}-unavailable`} className="muted">
            {unavailable}
          </span>
        )}
      </div>
    </form>
  );
};
