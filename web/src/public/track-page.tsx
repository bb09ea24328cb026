import { TRACKER_LOOK } from "@etd/contract";
import { ACCESS } from "@etd/contract/endpoints";
import { useRef, useState, type FormEvent } from "react";
import { toast } from "../components/ui/toast.tsx";
import { downloadPath, type Navigate } from "./public-routes.ts";
import { callPublic } from "./public-api.ts";

/*
 * PUBLIC-1: the order ID (prefilled from the route) and the application's e-mail. A match (status
 * 1) resets the form and opens the download page, whose grant the server has just set as a
 * cookie; anything else shows the server's message as an error toast (001 §8). The messages of
 * the required fields are 001 §5's.
 *
 * Both fields take what the traveller pastes or the browser fills in (WCAG 3.3.8): nothing blocks
 * paste, and autocomplete is "on" for the Order ID (no token names an order number, and "off"
 * would refuse the browser's memory of it) and "email" for the e-mail.
 */

export const TRACK_MESSAGES = { orderId: "Please enter your orderId", email: "Please enter your email" } as const;

type Field = keyof typeof TRACK_MESSAGES;

export const TrackPage = ({ routeOrderId, navigate }: { readonly routeOrderId: string; readonly navigate: Navigate }) => {
  const [values, setValues] = useState<Record<Field, string>>({ orderId: routeOrderId, email: "" });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const inputs = { orderId: useRef<HTMLInputElement>(null), email: useRef<HTMLInputElement>(null) };

  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field] && value.trim() !== "") setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const missing = (Object.keys(TRACK_MESSAGES) as Field[]).filter((field) => values[field].trim() === "");
    setErrors(Object.fromEntries(missing.map((field) => [field, TRACK_MESSAGES[field]])));
    if (missing.length > 0) {
      inputs[missing[0]!].current?.focus();
      return;
    }
    setBusy(true);
    const orderId = values.orderId.trim();
    const answer = await callPublic(ACCESS.trackOrder, { orderId, email: values.email.trim() });
    setBusy(false);
    // The last attempt's error is answered by this one: it must not follow the traveller onto the
    // download page above "Your order has been found", nor stack up over the form.
    toast.clearErrors();
    if (answer.status !== 1) {
      toast.error(answer.message);
      return;
    }
    setValues({ orderId: "", email: "" });
    toast.success(answer.message);
    navigate(downloadPath(orderId));
  };

  const field = (name: Field, label: string, type: "text" | "email", autoComplete: string) => (
    <div className="public-field">
      <label htmlFor={`track-${name}`}>{label}</label>
      <input
        ref={inputs[name]}
        id={`track-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(event) => change(name, event.target.value)}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `track-${name}-error` : undefined}
        inputMode={name === "orderId" ? "numeric" : undefined}
        maxLength={name === "orderId" ? 40 : 254}
      />
      {errors[name] && (
        <p id={`track-${name}-error`} className="public-field-error">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <section className="public-card" aria-labelledby="track-title">
      <h1 id="track-title">Download your Philippines E-Travel</h1>
      <p>Enter your Order ID and the e-mail address you used on your application to track your order and download your document.</p>
      {/* noValidate: the page's own messages (001 §5) instead of the browser's. */}
      <form className="public-form" onSubmit={(event) => void submit(event)} noValidate>
        {field("orderId", "Order ID", "text", "on")}
        {field("email", "Email ID", "email", "email")}
        <button type="submit" className="public-button" disabled={busy}>
          {busy ? "Tracking…" : "TRACK ORDER"}
        </button>
      </form>
      <p className="public-support">
        Need help? <a href={`mailto:${TRACKER_LOOK.supportEmail}`}>Contact Support</a>
      </p>
    </section>
  );
};
