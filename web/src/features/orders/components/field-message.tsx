/*
 * The order page's own form fields (000 §2: errors appear under each field): a control names its
 * message with these, so the message is its description and its invalid state is announced.
 */

/** The control's side: invalid while there is a message, described by it. */
export const messageProps = (id: string, error: string | undefined) =>
  error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};

/** The message under the control, said at once when it appears. */
export const FieldMessage = ({ id, error }: { readonly id: string; readonly error: string | undefined }) =>
  error ? (
    <p className="field-error" id={`${id}-error`} role="alert">
      {error}
    </p>
  ) : null;
