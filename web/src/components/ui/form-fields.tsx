import { useRef, type ReactNode } from "react";
import { Button, FieldError, Form, Input, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text, TextField } from "react-aria-components";
import type { FieldBinding, ValidatedForm } from "../../lib/use-validated-form.ts";

/*
 * The console forms' fields (the admin screens, two-factor enrolment): a label, the control, and
 * the message under it (000 §2 "errors appear under each field"), tied together by react-aria so
 * the message is the control's description and its invalid state is announced.
 */

/**
 * A console form: react-aria shows each field's message under it, and submitting calls `onValid`
 * only when no rule is broken (000 §5); the browser never submits it by itself.
 */
export const ConsoleForm = <V extends { readonly [K in keyof V]: string }>({
  form,
  onValid,
  className = "admin-form",
  children,
  ...labelling
}: {
  form: ValidatedForm<V>;
  onValid: (values: V) => void;
  className?: string;
  children: ReactNode;
} & ({ "aria-label": string } | { "aria-labelledby": string })) => (
  <Form
    className={className}
    validationBehavior="aria"
    {...labelling}
    onSubmit={(event) => {
      event.preventDefault();
      form.submit(onValid);
    }}
  >
    {children}
  </Form>
);

/** Under a field: why it is as it is, if said, then its message (the field's description and error slots). */
const FieldNotes = ({ description, error }: { description: string | undefined; error: string | undefined }) => (
  <>
    {description ? (
      <Text slot="description" className="field-description">
        {description}
      </Text>
    ) : null}
    <FieldError className="field-error">{error}</FieldError>
  </>
);

export const TextInputField = ({
  label,
  binding,
  type = "text",
  placeholder,
  autoComplete,
  inputMode,
  isRequired = false,
  isDisabled = false,
  description,
}: {
  label: string;
  binding: FieldBinding;
  type?: string;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: "numeric" | "email" | "text";
  isRequired?: boolean;
  isDisabled?: boolean;
  /** Why the field is as it is (e.g. why it cannot be changed). */
  description?: string;
}) => (
  <TextField
    className="field"
    name={binding.name}
    type={type}
    value={binding.value}
    onChange={binding.onChange}
    onBlur={binding.onBlur}
    isInvalid={binding.error !== undefined}
    isRequired={isRequired}
    isDisabled={isDisabled}
    validationBehavior="aria"
    autoComplete={autoComplete}
    inputMode={inputMode}
  >
    <Label className="label">{label}</Label>
    <Input className="input" placeholder={placeholder} />
    <FieldNotes description={description} error={binding.error} />
  </TextField>
);

export interface SelectOption {
  readonly id: string;
  readonly label: string;
}

export const SelectField = ({
  label,
  binding,
  options,
  placeholder,
  isRequired = false,
  isDisabled = false,
  description,
}: {
  label: string;
  binding: FieldBinding;
  options: readonly SelectOption[];
  placeholder: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  /** Why the field is as it is (e.g. why it cannot be changed). */
  description?: string;
}) => {
  // Choosing moves focus into the list: that blur is not the user leaving the field.
  const open = useRef(false);
  return (
    <Select
      className="field admin-select"
      name={binding.name}
      placeholder={placeholder}
      value={binding.value === "" ? null : binding.value}
      onChange={(key) => binding.onChange(key === null ? "" : String(key))}
      onOpenChange={(isOpen) => {
        open.current = isOpen;
        if (!isOpen) binding.onBlur();
      }}
      onBlur={() => {
        if (!open.current) binding.onBlur();
      }}
      isInvalid={binding.error !== undefined}
      isRequired={isRequired}
      isDisabled={isDisabled}
      validationBehavior="aria"
    >
      <Label className="label">{label}</Label>
      <Button className="select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <FieldNotes description={description} error={binding.error} />
      <Popover className="popover">
        <ListBox className="listbox" items={options}>
          {(option) => (
            <ListBoxItem className="listbox-item" id={option.id} textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
};
