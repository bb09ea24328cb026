import { useCallback, useMemo, useState } from "react";

/*
 * Validation on change and on blur, submit only when valid (000 §5). A field shows its message
 * once the user has changed it or left it, and every field does after a submit attempt, so an
 * untouched form does not open covered in red.
 */

type StringFields<V> = { readonly [K in keyof V]: string };

/** A form's messages by field: a field without one is valid. */
export type FieldErrors<V> = Partial<Record<keyof V, string>>;

const hasErrors = <V>(errors: FieldErrors<V>): boolean => Object.values(errors).some((message) => message !== undefined);

export interface FieldBinding {
  readonly name: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onBlur: () => void;
  /** The message to show now, if any. */
  readonly error: string | undefined;
}

export interface ValidatedForm<V extends StringFields<V>> {
  readonly values: V;
  readonly errors: FieldErrors<V>;
  readonly field: (name: keyof V & string) => FieldBinding;
  /** Marks every field touched; calls `onValid` only when no rule is broken. */
  readonly submit: (onValid: (values: V) => void) => void;
  readonly reset: (values?: V) => void;
}

export const useValidatedForm = <V extends StringFields<V>>(initial: V, validate: (values: V) => FieldErrors<V>): ValidatedForm<V> => {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<ReadonlySet<keyof V>>(new Set());
  const errors = useMemo(() => validate(values), [validate, values]);

  const touch = useCallback((name: keyof V) => {
    setTouched((before) => (before.has(name) ? before : new Set(before).add(name)));
  }, []);

  const field = (name: keyof V & string): FieldBinding => ({
    name,
    value: values[name],
    onChange: (value: string) => {
      setValues((before) => ({ ...before, [name]: value }));
      touch(name);
    },
    onBlur: () => touch(name),
    error: touched.has(name) ? errors[name] : undefined,
  });

  const submit = (onValid: (values: V) => void) => {
    setTouched(new Set(Object.keys(values) as (keyof V)[]));
    if (!hasErrors(errors)) onValid(values);
  };

  const reset = (next: V = initial) => {
    setValues(next);
    setTouched(new Set());
  };

  return { values, errors, field, submit, reset };
};
