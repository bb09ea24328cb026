import { useNavigate } from "@tanstack/react-router";
import { useSetAtom } from "jotai";
import { useId, useState, type FormEvent } from "react";
import { Logo, PRODUCT_TITLE } from "../../../components/ui/logo.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { readStoredSession, sessionAtom, storeSession } from "../../../lib/session.ts";
import { signIn } from "../api/sign-in.ts";
import { signInErrors, type SignInValues } from "../sign-in-rules.ts";

/*
 * Sign-in at `/` (AUTH-1..3). Errors show under each field once the field has been changed or
 * left, and all of them on a submit attempt; the request goes out only when none remain. The
 * toast shows the server's own message either way.
 */
export const SignInPage = () => {
  const navigate = useNavigate();
  const setSession = useSetAtom(sessionAtom);
  const [values, setValues] = useState<SignInValues>({ email: "", password: "" });
  const [touched, setTouched] = useState({ email: false, password: false });
  const [busy, setBusy] = useState(false);
  const errors = signInErrors(values);

  const change = (field: keyof SignInValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
  };
  const blur = (field: keyof SignInValues) => () => setTouched((t) => ({ ...t, [field]: true }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (busy || errors.email || errors.password) return;
    setBusy(true);
    try {
      const answer = await signIn(values);
      if (answer.status === 1 && answer.data?.accessToken) {
        storeSession(answer.data);
        setSession(readStoredSession());
        toast.success(answer.message);
        await navigate({ to: "/admin" });
      } else {
        toast.error(answer.message);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <div className="sign-in-brand">
          <Logo size={56} title={PRODUCT_TITLE} />
          <h1>{PRODUCT_TITLE}</h1>
        </div>
        <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="Sign in">
          <SignInField
            label="Email ID"
            name="email"
            type="email"
            placeholder="Your Email Address"
            autoComplete="username"
            value={values.email}
            onChange={change("email")}
            onBlur={blur("email")}
            error={touched.email ? errors.email : undefined}
          />
          <SignInField
            label="Password"
            name="password"
            type="password"
            placeholder="Password"
            autoComplete="current-password"
            value={values.password}
            onChange={change("password")}
            onBlur={blur("password")}
            error={touched.password ? errors.password : undefined}
          />
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            Sign In
          </button>
        </form>
      </div>
    </main>
  );
};

/**
 * A labelled input with its message under it. Plain HTML, tied together the way react-aria ties
 * the console's fields (the message describes the input, which is marked invalid), so the first
 * page a visitor opens does not download the component library (issue 10 item 8).
 */
const SignInField = ({
  label,
  error,
  onChange,
  ...input
}: {
  label: string;
  name: string;
  type: string;
  placeholder: string;
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: string | undefined;
}) => {
  const id = useId();
  const invalid = error !== undefined;
  return (
    <div className="field" data-invalid={invalid || undefined}>
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        data-invalid={invalid || undefined}
      />
      {invalid && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
};
