import { TWO_FACTOR_REQUIRED, type TwoFactorSetup, type TwoFactorStatus } from "@etd/contract";
import { ACCESS } from "@etd/contract/endpoints";
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useAtomValue, useSetAtom } from "jotai";
import { useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { toast } from "../../../components/ui/toast.tsx";
import { AdminPage, AdminPanel, ServerRefusal } from "../../../components/ui/admin-page.tsx";
import { ConsoleForm, TextInputField } from "../../../components/ui/form-fields.tsx";
import { useValidatedForm } from "../../../lib/use-validated-form.ts";
import { codeError, normalizeCode } from "../../../lib/two-factor-codes.ts";
import { callApi } from "../../../lib/api-client.ts";
import { twoFactorStatusQuery } from "../hooks/two-factor-status.ts";
import { setTwoFactorGate, twoFactorGateAtom } from "../../../lib/two-factor-gate.ts";
import { readStoredSession, renewStoredSession, sessionAtom } from "../../../lib/session.ts";
import "../../../styles/two-factor.css";

/*
 * "Two-factor sign-in" at /admin/two-factor (issue 16 part A): the member's own status, and
 * enrolment: Set up → the QR code and the same secret as text → a code from the app confirms it →
 * the recovery codes, shown this once, to download or copy → "I have saved these codes". A member
 * whose role requires it and who has not set it up sees only this page until they finish.
 */

/** The file "Download codes" saves. */
const RECOVERY_FILE = "etd-back-office-recovery-codes.txt";

const validateCode = (values: { code: string }) => {
  const error = codeError(values.code);
  return error ? { code: error } : {};
};

type Step = { readonly kind: "status" } | { readonly kind: "scan"; readonly setup: TwoFactorSetup } | { readonly kind: "codes"; readonly codes: readonly string[] };

export const TwoFactorPage = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const gated = useAtomValue(twoFactorGateAtom);
  const answer = useSuspenseQuery(twoFactorStatusQuery()).data;
  const status = answer.status === 1 ? answer.data : null;
  const [step, setStep] = useState<Step>({ kind: "status" });

  // The server has the last word: on already (another tab finished, or a reload while the codes
  // showed) opens the gate; required and off closes it.
  useEffect(() => {
    if (!status || step.kind === "codes") return;
    if (status.enabled && gated) setTwoFactorGate(false);
    else if (status.required && !status.enabled && !gated) setTwoFactorGate(true);
  }, [status, gated, step.kind]);

  const setup = useMutation({
    // A new pending secret; each call replaces the previous one.
    mutationFn: () => callApi(ACCESS.startTwoFactorSetup, { body: {} }),
    onSuccess: (result) => {
      if (result.status === 1 && result.data) setStep({ kind: "scan", setup: result.data });
      else toast.answer(result);
    },
  });

  const finish = async () => {
    setStep({ kind: "status" });
    const wasGated = gated;
    setTwoFactorGate(false);
    await queryClient.invalidateQueries({ queryKey: twoFactorStatusQuery().queryKey });
    // The console opens where a required member would have gone after signing in.
    if (wasGated) await navigate({ to: "/admin" });
  };

  if (!status) {
    return (
      <AdminPage id="two-factor-title" title="Two-factor sign-in">
        <ServerRefusal answer={answer} />
      </AdminPage>
    );
  }

  return (
    <AdminPage id="two-factor-title" title="Two-factor sign-in">
      {gated && step.kind !== "codes" ? (
        <p className="two-factor-required" role="status">
          {TWO_FACTOR_REQUIRED}
        </p>
      ) : null}
      {step.kind === "codes" ? (
        <RecoveryCodes codes={step.codes} onDone={() => void finish()} />
      ) : step.kind === "scan" ? (
        <ScanStep
          setup={step.setup}
          onEnabled={(codes) => {
            setStep({ kind: "codes", codes });
            void queryClient.invalidateQueries({ queryKey: twoFactorStatusQuery().queryKey });
          }}
          onCancel={() => setStep({ kind: "status" })}
        />
      ) : (
        <StatusPanel status={status} busy={setup.isPending} onSetUp={() => setup.mutate()} />
      )}
    </AdminPage>
  );
};

const StatusPanel = ({ status, busy, onSetUp }: { status: TwoFactorStatus; busy: boolean; onSetUp: () => void }) => (
  <AdminPanel id="two-factor-status-title" heading="Status">
    <dl className="details two-factor-status">
      <dt>Two-factor sign-in</dt>
      <dd data-two-factor-status={status.enabled ? "on" : status.required ? "required" : "off"}>
        {status.enabled ? "On" : status.required ? "Off (required for your role)" : "Off"}
      </dd>
      {status.enabled ? (
        <>
          <dt>Recovery codes left</dt>
          <dd>{status.recoveryCodesLeft}</dd>
        </>
      ) : null}
    </dl>
    {status.enabled ? (
      <p className="two-factor-note">
        You sign in with your password and a code from your authenticator app. If you lose the app and your recovery codes, an Admin can reset
        two-factor sign-in for you.
      </p>
    ) : (
      <>
        <p className="two-factor-note">
          Two-factor sign-in asks for a code from an authenticator app on your phone after your password, so a stolen password alone cannot open
          your account.
        </p>
        <div className="admin-form-actions">
          <Button className="button button-primary" onPress={onSetUp} isDisabled={busy}>
            Set up
          </Button>
        </div>
      </>
    )}
  </AdminPanel>
);

/** Focuses a section's heading when it appears, so a keyboard or screen-reader user starts there. */
const useFocusOnMount = () => {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return heading;
};

const ScanStep = ({ setup, onEnabled, onCancel }: { setup: TwoFactorSetup; onEnabled: (codes: readonly string[]) => void; onCancel: () => void }) => {
  const heading = useFocusOnMount();
  const form = useValidatedForm({ code: "" }, validateCode);
  const setSession = useSetAtom(sessionAtom);
  const enable = useMutation({
    mutationFn: (code: string) => callApi(ACCESS.enableTwoFactor, { body: { code: normalizeCode(code) } }),
    onSuccess: (result) => {
      if (result.status === 1 && result.data) {
        // The session that enrolled goes on under the new token; the others have ended.
        renewStoredSession(result.data.accessToken);
        setSession(readStoredSession());
        toast.success(result.message);
        onEnabled(result.data.recoveryCodes);
      } else {
        toast.answer(result);
        form.reset();
      }
    },
  });
  return (
    <section className="card admin-panel two-factor-setup" aria-labelledby="two-factor-scan-title">
      <h2 id="two-factor-scan-title" className="card-title" ref={heading} tabIndex={-1}>
        Set up two-factor sign-in
      </h2>
      <ol className="two-factor-steps">
        <li>
          <p>Scan this QR code with an authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password).</p>
          <img className="two-factor-qr" src={setup.qrCode} alt="QR code for adding ETD Back Office to your authenticator app" width={200} height={200} />
        </li>
        <li>
          <p>Or, if you cannot scan it, enter this key in the app by hand:</p>
          <code className="two-factor-secret">{setup.secret}</code>
        </li>
        <li>
          <p>Enter the 6-digit code the app shows now.</p>
          <ConsoleForm form={form} className="admin-form admin-form-inline" aria-label="Confirm two-factor sign-in" onValid={(values) => enable.mutate(values.code)}>
            <TextInputField label="Authentication code" binding={form.field("code")} autoComplete="one-time-code" inputMode="numeric" isRequired />
            <div className="admin-form-actions">
              <Button type="submit" className="button button-primary" isDisabled={enable.isPending}>
                Verify and turn on
              </Button>
              <Button className="button" onPress={onCancel} isDisabled={enable.isPending}>
                Cancel
              </Button>
            </div>
          </ConsoleForm>
        </li>
      </ol>
    </section>
  );
};

const downloadCodes = (codes: readonly string[]) => {
  const text = [
    "ETD Back Office: two-factor sign-in recovery codes",
    "Each code signs you in once when you cannot use your authenticator app.",
    "",
    ...codes,
    "",
  ].join("\r\n");
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = RECOVERY_FILE;
  link.click();
  // The click has started the download; the page need not hold the file any longer.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
};

const RecoveryCodes = ({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) => {
  const heading = useFocusOnMount();
  return (
    <section className="card admin-panel two-factor-codes" aria-labelledby="two-factor-codes-title">
      <h2 id="two-factor-codes-title" className="card-title" ref={heading} tabIndex={-1}>
        Recovery codes
      </h2>
      <p>
        Two-factor sign-in is on. Keep these codes somewhere safe: each one signs you in once if you cannot use your authenticator app.{" "}
        <strong>They will not be shown again.</strong>
      </p>
      <ol className="two-factor-code-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="admin-form-actions">
        <Button className="button" onPress={() => downloadCodes(codes)}>
          Download codes
        </Button>
        <Button className="button button-primary" onPress={onDone}>
          I have saved these codes
        </Button>
      </div>
    </section>
  );
};
