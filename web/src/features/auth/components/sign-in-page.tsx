import { useNavigate } from "@tanstack/react-router";
import { useSetAtom } from "jotai";
import { useState, type FormEvent } from "react";
import { Button, FieldError, Form, Input, Label, TextField } from "react-aria-components";
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
        <Form className="form" onSubmit={(event) => void submit(event)} validationBehavior="aria" aria-label="Sign in">
          <TextField
            className="field"
            name="email"
            type="email"
            value={values.email}
            onChange={change("email")}
            onBlur={blur("email")}
            isInvalid={touched.email && errors.email !== undefined}
            autoComplete="username"
          >
            <Label>Email ID</Label>
            <Input placeholder="Your Email Address" />
            <FieldError className="field-error">{errors.email}</FieldError>
          </TextField>
          <TextField
            className="field"
            name="password"
            type="password"
            value={values.password}
            onChange={change("password")}
            onBlur={blur("password")}
            isInvalid={touched.password && errors.password !== undefined}
            autoComplete="current-password"
          >
            <Label>Password</Label>
            <Input placeholder="Password" />
            <FieldError className="field-error">{errors.password}</FieldError>
          </TextField>
          <Button type="submit" className="button button-primary button-block" isDisabled={busy}>
            Sign In
          </Button>
        </Form>
      </div>
    </main>
  );
};
