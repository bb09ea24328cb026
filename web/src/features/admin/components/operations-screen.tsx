import { easternTime, type OperationsStatus, type ReactorStatus, type ReadModelStatus } from "@etd/contract";
import { OPERATIONS } from "@etd/contract/endpoints";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button, Label, ProgressBar } from "react-aria-components";
import { AdminPage, AdminPanel, RouterLink, ServerRefusal, TableScroll } from "../../../components/ui/admin-page.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi } from "../../../lib/api-client.ts";
import { endpointQuery } from "../../../lib/endpoint-query.ts";

/*
 * The operator's screen (issue 28, ADR 0039), Admin only (the server refuses anyone else). Each
 * read model with its live version and lag, and a Rebuild whose progress shows until the new build
 * is live; each reactor with its lease holder and last error, and a Retry; the log's head, the read
 * horizon and the chain. The figures are the ones /metrics reports. It reads again whenever the live
 * stream refreshes a read model's query, and on a short interval (shorter while a build runs), since
 * leases and builds catching up send no live message.
 */

const operationsQuery = () => endpointQuery(OPERATIONS.getOperations, {});

const BUILDING_REFRESH_MS = 1_000;
const REFRESH_MS = 2_000;

const count = (n: number | null): string => (n === null ? "unknown" : n.toLocaleString("en-US"));
const seconds = (s: number): string => `${s < 10 ? s.toFixed(1) : Math.round(s).toLocaleString("en-US")} s`;

/** A rebuild asked for from this tab: its bar stays (at 100%) once the new build is live, until the next one. */
interface Asked {
  readonly name: string;
  /** The live build when it was asked for: a live build after it is the rebuild's. */
  readonly fromBuild: number;
}

const RebuildProgress = ({ model, asked }: { readonly model: ReadModelStatus; readonly asked: Asked | undefined }) => {
  const building = model.building;
  const switched = asked !== undefined && model.live !== null && model.live.build > asked.fromBuild && building === null;
  if (!building && !switched) return null;
  const percent = building ? building.percent : 100;
  const text = building
    ? `${percent}%: ${count(building.eventsApplied)} of ${count(building.eventsBehind === null ? null : building.eventsApplied + building.eventsBehind)} events${building.secondsLeft === null ? "" : `, about ${seconds(building.secondsLeft)} left`}`
    : `100%: build ${model.live?.build ?? ""} is live`;
  return (
    <ProgressBar className="operations-progress" value={percent} valueLabel={text}>
      {({ valueText }) => (
        <>
          <Label>Rebuild of {model.name}</Label>
          <span className="operations-progress-text">{valueText}</span>
          <div className="operations-progress-track">
            <div className="operations-progress-fill" style={{ width: `${percent}%` }} />
          </div>
        </>
      )}
    </ProgressBar>
  );
};

const ReadModels = ({ status, asked, onRebuild, busy }: { readonly status: OperationsStatus; readonly asked: Asked | undefined; readonly onRebuild: (model: ReadModelStatus) => void; readonly busy: boolean }) => (
  <TableScroll label="Read models">
    <table className="data-table" aria-labelledby="operations-read-models">
      <thead>
        <tr>
          <th scope="col">Read model</th>
          <th scope="col">Live version</th>
          <th scope="col">State</th>
          <th scope="col">Events behind</th>
          <th scope="col">Seconds behind</th>
          <th scope="col">Rebuild</th>
        </tr>
      </thead>
      <tbody>
        {status.readModels.map((model) => (
          <tr key={model.name} data-read-model={model.name}>
            <th scope="row">{model.name}</th>
            <td data-field="live-version">{model.live ? `version ${model.live.version}, build ${model.live.build}` : "none"}</td>
            <td data-field="state">{model.building ? `building (build ${model.building.build})` : model.live ? "live" : "none"}</td>
            <td>{count(model.live?.eventsBehind ?? null)}</td>
            <td>{model.live ? seconds(model.live.secondsBehind) : ""}</td>
            <td>
              <Button className="button" isDisabled={busy || model.building !== null} onPress={() => onRebuild(model)} aria-label={`Rebuild ${model.name}`}>
                Rebuild
              </Button>
              <RebuildProgress model={model} asked={asked?.name === model.name ? asked : undefined} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);

const Reactors = ({ reactors, onRetry, busy }: { readonly reactors: readonly ReactorStatus[]; readonly onRetry: (name: string) => void; readonly busy: boolean }) => (
  <TableScroll label="Reactors">
    <table className="data-table" aria-labelledby="operations-reactors">
      <thead>
        <tr>
          <th scope="col">Reactor</th>
          <th scope="col">Checkpoint</th>
          <th scope="col">Events behind</th>
          <th scope="col">Seconds behind</th>
          <th scope="col">Lease held by</th>
          <th scope="col">Last error</th>
          <th scope="col">Retry</th>
        </tr>
      </thead>
      <tbody>
        {reactors.map((reactor) => (
          <tr key={reactor.name} data-reactor={reactor.name}>
            <th scope="row">{reactor.name}</th>
            <td>{reactor.checkpoint}</td>
            <td>{count(reactor.eventsBehind)}</td>
            <td>{seconds(reactor.secondsBehind)}</td>
            <td data-field="lease">
              {reactor.lease ? (
                <>
                  <span data-field="lease-owner">{reactor.lease.owner}</span>
                  {reactor.lease.since ? (
                    <>
                      {" since "}
                      <time dateTime={reactor.lease.since}>{easternTime(reactor.lease.since)}</time>
                    </>
                  ) : null}
                </>
              ) : (
                "nobody (between holders, or stopped)"
              )}
            </td>
            <td>
              {reactor.lastError ? (
                <>
                  <time dateTime={reactor.lastError.at}>{easternTime(reactor.lastError.at)}</time>: {reactor.lastError.message}
                  {reactor.retryAt ? (
                    <>
                      {" (retries at "}
                      <time dateTime={reactor.retryAt}>{easternTime(reactor.retryAt)}</time>)
                    </>
                  ) : null}
                </>
              ) : (
                "none"
              )}
            </td>
            <td>
              {/* Only a reactor waiting out a back-off has anything to retry (the server refuses the rest). */}
              <Button className="button" isDisabled={busy || !reactor.retryAt} onPress={() => onRetry(reactor.name)} aria-label={`Retry ${reactor.name}`}>
                Retry
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);

const TheLog = ({ status }: { readonly status: OperationsStatus }) => (
  <dl className="operations-figures">
    <dt>Head of the log</dt>
    <dd data-field="head">{status.head}</dd>
    <dt>Read horizon's age</dt>
    <dd>{seconds(status.horizonAgeSeconds)}</dd>
    <dt>Sealed into the chain</dt>
    <dd>
      {count(status.chain.sealed)} events, to {status.chain.sealedTo}; {count(status.chain.unsealed)} waiting for the sealer
    </dd>
    <dt>Verified</dt>
    <dd>
      <RouterLink to="/admin/audit">Verify the whole log in Audit</RouterLink>
    </dd>
  </dl>
);

export const OperationsScreen = () => {
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState<Asked | undefined>(undefined);
  const query = useQuery({
    ...operationsQuery(),
    refetchInterval: (q) => (q.state.data?.data?.readModels.some((m) => m.building !== null) ? BUILDING_REFRESH_MS : REFRESH_MS),
  });
  // The live stream refreshes the read models' queries as they move: read the figures again with them.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type === "updated" && event.action.type === "invalidate" && event.query.queryKey[0] !== operationsQuery().queryKey[0]) {
          void queryClient.invalidateQueries({ queryKey: operationsQuery().queryKey });
        }
      }),
    [queryClient],
  );
  const act = useMutation({
    mutationFn: (action: { readonly kind: "rebuild" | "retry"; readonly name: string }) =>
      action.kind === "rebuild"
        ? callApi(OPERATIONS.rebuildReadModel, { params: { name: action.name } })
        : callApi(OPERATIONS.retryReactor, { params: { name: action.name } }),
    onSuccess: async (answer) => {
      toast.answer(answer);
      await queryClient.invalidateQueries({ queryKey: operationsQuery().queryKey });
    },
  });
  const answer = query.data;
  if (!answer) return <AdminPage id="operations-title" title="Operations">{query.isError ? <p role="alert">The figures could not be read.</p> : <p>Loading…</p>}</AdminPage>;
  if (answer.status !== 1 || !answer.data) return <AdminPage id="operations-title" title="Operations"><ServerRefusal answer={answer} /></AdminPage>;
  const status = answer.data;
  return (
    <AdminPage id="operations-title" title="Operations">
      <p className="field-description">
        Read at <time dateTime={status.readAt}>{easternTime(status.readAt)}</time>; the same figures as /metrics.
      </p>
      <AdminPanel id="operations-log" heading="The log">
        <TheLog status={status} />
      </AdminPanel>
      <AdminPanel id="operations-read-models" heading="Read models">
        <ReadModels
          status={status}
          asked={asked}
          busy={act.isPending}
          onRebuild={(model) => {
            setAsked({ name: model.name, fromBuild: model.live?.build ?? 0 });
            act.mutate({ kind: "rebuild", name: model.name });
          }}
        />
      </AdminPanel>
      <AdminPanel id="operations-reactors" heading="Reactors">
        <Reactors reactors={status.reactors} busy={act.isPending} onRetry={(name) => act.mutate({ kind: "retry", name })} />
      </AdminPanel>
    </AdminPage>
  );
};
