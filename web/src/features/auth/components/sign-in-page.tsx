import { SIGN_IN_EXPIRED, type SignInAnswer, type TwoFactorChallenge } from "@etd/contract";
import { ACCESS } from "@etd/contract/endpoints";
import { useNavigate } from "@tanstack/react-router";
import { useSetAtom } from "jotai";
import { useEffect, useId, useRef, useState, type FormEvent, type Ref } from "react";
import { callApi, type Envelope } from "../../../lib/api-client.ts";
import { Logo, PRODUCT_TITLE } from "../../../components/ui/logo.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { readStoredSession, sessionAtom, storeSession } from "../../../lib/session.ts";
import { setTwoFactorGate } from "../../../lib/two-factor-gate.ts";
import { codeError, normalizeCode, normalizeRecoveryCode, recoveryCodeError } from "../../../lib/two-factor-codes.ts";
import { signInErrors, type SignInValues } from "../sign-in-rules.ts";

/*
 * Sign-in at `/` (AUTH-1..3). Errors show under each field once the field has been changed or
 * left, and all of them on a submit attempt; the request goes out only when none remain. The
 * toast shows the server's own message either way.
 *
 * A member who uses two-factor sign-in (issue 16 part A) is answered with a challenge instead of
 * a session: the page then asks for the code from their authenticator app, or one of their
 * recovery codes, and signs in with the second answer exactly as AUTH-3 does with the first.
 */

/** The second step: the server's challenge and what it said to do. */
interface SecondStep {
  readonly challenge: string;
  readonly message: string;
}

/** Sign-in refused for now (status 0) with the second step's challenge: the member uses two-factor sign-in. */
const isSecondStep = (data: unknown): data is TwoFactorChallenge =>
  typeof data === "object" && data !== null && "secondStep" in data && data.secondStep === "totp" && "challenge" in data && typeof data.challenge === "string";

export const SignInPage = () => {
  const navigate = useNavigate();
  const setSession = useSetAtom(sessionAtom);
  const [values, setValues] = useState<SignInValues>({ email: "", password: "" });
  const [touched, setTouched] = useState({ email: false, password: false });
  const [busy, setBusy] = useState(false);
  const [secondStep, setSecondStep] = useState<SecondStep | undefined>(undefined);
  const errors = signInErrors(values);

  const change = (field: keyof SignInValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
  };
  const blur = (field: keyof SignInValues) => () => setTouched((t) => ({ ...t, [field]: true }));
  /** A field's name, value and handlers, and its message once it has been touched. */
  const bound = (field: keyof SignInValues) => ({
    name: field,
    value: values[field],
    onChange: change(field),
    onBlur: blur(field),
    error: touched[field] ? errors[field] : undefined,
  });

  /** AUTH-3's success, for either step: the session stored, the server's message, the console. */
  const signedIn = async (answer: Envelope<SignInAnswer | null>): Promise<boolean> => {
    const data = answer.data;
    if (answer.status !== 1 || !data || !("accessToken" in data) || !data.accessToken) return false;
    storeSession(data);
    setSession(readStoredSession());
    // A role that must use two-factor sign-in, without it yet: only its setup page until it is on.
    const setupRequired = data.twoFactorSetupRequired === true;
    setTwoFactorGate(setupRequired);
    toast.success(answer.message);
    await navigate({ to: setupRequired ? "/admin/two-factor" : "/admin" });
    return true;
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (busy || errors.email || errors.password) return;
    setBusy(true);
    try {
      const answer = await callApi(ACCESS.signIn, { body: { email: values.email.trim(), password: values.password } });
      if (await signedIn(answer)) return;
      if (answer.status !== 1 && isSecondStep(answer.data)) {
        setSecondStep({ challenge: answer.data.challenge, message: answer.message });
      } else {
        toast.error(answer.message);
      }
    } finally {
      setBusy(false);
    }
  };

  const backToSignIn = () => {
    setSecondStep(undefined);
    // The password went with the first step; the address stays for the next try.
    setValues((v) => ({ ...v, password: "" }));
    setTouched({ email: false, password: false });
  };

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <div className="sign-in-brand">
          <Logo size={56} title={PRODUCT_TITLE} />
          <h1>{PRODUCT_TITLE}</h1>
        </div>
        {secondStep ? (
          <SecondStepForm key={secondStep.challenge} step={secondStep} signedIn={signedIn} onBack={backToSignIn} />
        ) : (
          <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="Sign in">
            <SignInField
              label="Email ID"
              type="email"
              placeholder="Your Email Address"
              autoComplete="username"
              {...bound("email")}
            />
            <SignInField
              label="Password"
              type="password"
              placeholder="Password"
              autoComplete="current-password"
              {...bound("password")}
            />
            <button type="submit" className="button button-primary button-block" disabled={busy}>
              Sign In
            </button>
          </form>
        )}
      </div>
    </main>
  );
};

/**
 * The second step: a code from the authenticator app (or, switched, a recovery code), validated
 * like AUTH-2's fields, sent with the challenge. Refusals are the server's words in an error
 * toast; an expired challenge (5 minutes, or too many wrong codes) returns to the first step.
 */
const SecondStepForm = ({
  step,
  signedIn,
  onBack,
}: {
  step: SecondStep;
  signedIn: (answer: Envelope<SignInAnswer | null>) => Promise<boolean>;
  onBack: () => void;
}) => {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const error = recovery ? recoveryCodeError(value) : codeError(value);

  // The field takes focus when the step opens and when the kind of code changes.
  useEffect(() => input.current?.focus(), [recovery]);

  const switchKind = () => {
    setRecovery((r) => !r);
    setValue("");
    setTouched(false);
  };

  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (busy || error) {
      input.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const proof = recovery ? { recoveryCode: normalizeRecoveryCode(value) } : { code: normalizeCode(value) };
      const answer = await callApi(ACCESS.signInSecondStep, { body: { challenge: step.challenge, ...proof } });
      if (await signedIn(answer)) return;
      toast.error(answer.message);
      if (answer.message === SIGN_IN_EXPIRED) {
        onBack();
        return;
      }
      // A wrong or used code: clear it for the next one.
      setValue("");
      setTouched(false);
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form sign-in-second-step" onSubmit={(event) => void verify(event)} noValidate aria-labelledby="second-step-title">
      <h2 id="second-step-title" className="sign-in-step-title">
        Two-factor sign-in
      </h2>
      <p className="sign-in-step-hint">
        {recovery ? "Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once." : step.message}
      </p>
      {recovery ? (
        <SignInField
          key="recovery"
          inputRef={input}
          label="Recovery code"
          name="recoveryCode"
          type="text"
          placeholder="xxxxx-xxxxx"
          autoComplete="off"
          value={value}
          onChange={(next) => {
            setValue(next);
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          error={touched ? error : undefined}
        />
      ) : (
        <SignInField
          key="code"
          inputRef={input}
          label="Authentication code"
          name="code"
          type="text"
          inputMode="numeric"
          placeholder="6-digit code"
          autoComplete="one-time-code"
          maxLength={7}
          value={value}
          onChange={(next) => {
            setValue(next);
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          error={touched ? error : undefined}
        />
      )}
      <button type="submit" className="button button-primary button-block" disabled={busy}>
        Verify
      </button>
      <div className="sign-in-step-links">
        <button type="button" className="link-button" onClick={switchKind} disabled={busy}>
          {recovery ? "Use the code from your app instead" : "Use a recovery code instead"}
        </button>
        <button type="button" className="link-button" onClick={onBack} disabled={busy}>
          Back to sign in
        </button>
      </div>
    </form>
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
  inputRef,
  ...input
}: {
  label: string;
  name: string;
  type: string;
  placeholder: string;
  autoComplete: string;
  inputMode?: "numeric";
  maxLength?: number;
  inputRef?: Ref<HTMLInputElement>;
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
        ref={inputRef}
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
