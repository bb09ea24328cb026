import { durationText, easternTime, isAllowed, type AllowedMinutes, type ServiceLevelPolicyVersion } from "@etd/contract";
import { SERVICE_LEVELS } from "@etd/contract/endpoints";
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { useCallback, useState } from "react";
import { Button } from "react-aria-components";
import { AdminPage, AdminPanel, ServerRefusal, TableScroll } from "../../../components/ui/admin-page.tsx";
import { ConsoleForm, TextInputField } from "../../../components/ui/form-fields.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi } from "../../../lib/api-client.ts";
import { endpointQuery } from "../../../lib/endpoint-query.ts";
import { sessionAtom } from "../../../lib/session.ts";
import { useValidatedForm, type FieldErrors } from "../../../lib/use-validated-form.ts";

/*
 * Service Levels (issue 27, ADR 0036): the time allowed from payment to the document, per kind of
 * order; the version in force and every version before it. An Admin sets it; a Manager reads it.
 * The rules are the server's (the decider's): the form checks nothing itself and shows the
 * server's message under the field it names, until that field is changed.
 */

const KINDS = [
  { kind: "standard", label: "Standard (minutes)", heading: "Standard" },
  { kind: "priority", label: "Priority (minutes)", heading: "Priority" },
  { kind: "future", label: "Future orders (minutes from the processing date)", heading: "Future orders" },
] as const;

type PolicyValues = { readonly [K in keyof AllowedMinutes]: string };

const policyQuery = () => endpointQuery(SERVICE_LEVELS.getServiceLevels, {});

const setByText = (version: ServiceLevelPolicyVersion): string =>
  version.setBy === null ? "No one (the default)" : `${version.setBy.name}${version.setBy.role ? ` (${version.setBy.role})` : ""}`;

/** "600 min (10 h)": minutes as the form takes them, and as staff read them. */
const minutesText = (minutes: number): string => `${minutes} min (${durationText(minutes * 60_000)})`;

/** What the server refused, kept with the values it refused, so a field's message goes once that field changes. */
interface Refused {
  readonly values: PolicyValues;
  readonly errors: FieldErrors<PolicyValues>;
}

const isKind = (field: string): field is keyof AllowedMinutes => KINDS.some((entry) => entry.kind === field);

/** The server's messages by field: the edge names the field it refused; the decider's message starts with the allowance's name. */
const errorsOf = (message: string, data: unknown): FieldErrors<PolicyValues> => {
  const errors: Record<string, string> = {};
  const listed = (data as { errors?: readonly { field: string; message: string }[] } | null)?.errors ?? [];
  for (const error of listed) if (isKind(error.field) && errors[error.field] === undefined) errors[error.field] = error.message;
  if (Object.keys(errors).length === 0) {
    const named = KINDS.find((entry) => message.startsWith(`${entry.heading}:`));
    if (named) errors[named.kind] = message;
  }
  return errors;
};

const PolicyForm = ({ inForce }: { readonly inForce: ServiceLevelPolicyVersion }) => {
  const queryClient = useQueryClient();
  const [refused, setRefused] = useState<Refused | undefined>(undefined);
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const validate = useCallback(
    (values: PolicyValues): FieldErrors<PolicyValues> => {
      const errors: FieldErrors<PolicyValues> = {};
      for (const { kind } of KINDS) if (refused && values[kind] === refused.values[kind] && refused.errors[kind]) errors[kind] = refused.errors[kind];
      return errors;
    },
    [refused],
  );
  const initial: PolicyValues = {
    standard: String(inForce.allowedMinutes.standard),
    priority: String(inForce.allowedMinutes.priority),
    future: String(inForce.allowedMinutes.future),
  };
  const form = useValidatedForm<PolicyValues>(initial, validate);
  const save = useMutation({
    // Text that is no number goes as none (NaN is sent as null): the server says what it takes.
    mutationFn: (values: PolicyValues) =>
      callApi(SERVICE_LEVELS.setServiceLevels, { body: { standard: Number(values.standard), priority: Number(values.priority), future: Number(values.future) } }),
    onSuccess: async (answer, values) => {
      toast.answer(answer);
      if (answer.status === 1) {
        setRefused(undefined);
        setRefusal(undefined);
        await queryClient.invalidateQueries({ queryKey: policyQuery().queryKey });
        return;
      }
      const errors = errorsOf(answer.message, answer.data);
      setRefused({ values, errors });
      // A refusal that names no field (who may set it, the server unreachable) shows above the form.
      setRefusal(Object.keys(errors).length === 0 ? answer.message : undefined);
    },
  });
  return (
    <ConsoleForm form={form} className="admin-form admin-form-grid" aria-label="Set the service levels" onValid={(values) => save.mutate(values)}>
      {refusal ? (
        <p role="alert" className="admin-refusal">
          {refusal}
        </p>
      ) : null}
      {KINDS.map(({ kind, label }) => {
        const minutes = Number(form.values[kind]);
        return (
          <TextInputField
            key={kind}
            label={label}
            binding={form.field(kind)}
            inputMode="numeric"
            autoComplete="off"
            description={Number.isInteger(minutes) && minutes > 0 ? `That is ${durationText(minutes * 60_000)}.` : "A whole number of minutes."}
          />
        );
      })}
      <p className="field-description">A change applies to orders paid from then on; orders paid before keep the version they were paid under.</p>
      <div className="admin-form-actions">
        <Button type="submit" className="button button-primary" isDisabled={save.isPending}>
          Save service levels
        </Button>
      </div>
    </ConsoleForm>
  );
};

const VersionsTable = ({ versions }: { readonly versions: readonly ServiceLevelPolicyVersion[] }) => (
  <TableScroll label="Versions of the service levels">
    <table className="data-table" aria-labelledby="service-levels-versions">
      <thead>
        <tr>
          <th scope="col">Version</th>
          {KINDS.map(({ kind, heading }) => (
            <th key={kind} scope="col">
              {heading}
            </th>
          ))}
          <th scope="col">Set by</th>
          <th scope="col">Set at</th>
        </tr>
      </thead>
      <tbody>
        {versions.map((version) => (
          <tr key={version.version}>
            <th scope="row">{version.version}</th>
            {KINDS.map(({ kind }) => (
              <td key={kind}>{minutesText(version.allowedMinutes[kind])}</td>
            ))}
            <td>{setByText(version)}</td>
            <td>{version.setAt === null ? "" : <time dateTime={version.setAt}>{easternTime(version.setAt)}</time>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);

/** Service Levels: Admin sets, Manager reads (the permission matrix's "service-levels.set" and "service-levels.read"). */
export const ServiceLevelsScreen = () => {
  const session = useAtomValue(sessionAtom);
  const answer = useSuspenseQuery(policyQuery()).data;
  if (answer.status !== 1 || !answer.data) {
    return (
      <AdminPage id="service-levels-title" title="Service Levels">
        <ServerRefusal answer={answer} />
      </AdminPage>
    );
  }
  const { inForce, versions } = answer.data;
  const maySet = session !== undefined && isAllowed(session.role, "service-levels.set");
  return (
    <AdminPage id="service-levels-title" title="Service Levels">
      <AdminPanel id="service-levels-in-force" heading={`In force: version ${inForce.version}`}>
        <p data-testid="service-levels-in-force">
          {inForce.setAt === null ? (
            "The default, in force until an Admin sets the service levels."
          ) : (
            <>
              Set by {setByText(inForce)} on <time dateTime={inForce.setAt}>{easternTime(inForce.setAt)}</time>.
            </>
          )}{" "}
          {KINDS.map(({ kind, heading }) => `${heading}: ${durationText(inForce.allowedMinutes[kind] * 60_000)}`).join("; ")}.
        </p>
        {maySet ? (
          // A new version (here or another Admin's) starts the form from it.
          <PolicyForm key={inForce.version} inForce={inForce} />
        ) : (
          <p className="field-description">Only an Admin can change the service levels.</p>
        )}
      </AdminPanel>
      <AdminPanel id="service-levels-versions" heading="Versions">
        <VersionsTable versions={versions} />
      </AdminPanel>
    </AdminPage>
  );
};
