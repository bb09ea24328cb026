import type { OperationsStatus, ReadModelBuild, ReactorStatus } from "@etd/contract";
import { formatPosition, logBehind, reactorLag, START } from "@etd/event-store";
import { ALL_PROJECTIONS, listBuilds, projectionLag, type BuildLag } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { actorOf, replyTo, runOperationCommand } from "../commands/run-command.ts";
import type { Handlers } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";

/*
 * The operator's screen (issue 28, ADR 0039), Admin only ("operations.manage"). The figures come
 * from the functions `/metrics` reads (projectionLag, reactorLag, the store's horizon), so the
 * screen and the scraper never disagree. The actions append a request to the operations stream
 * through the write side; the projector's process carries it out (operator-requests.ts).
 */

const iso = (date: Date | undefined): string | null => (date === undefined ? null : date.toISOString());

/** A build's figures; a building build's time left from its pace since it started. */
const buildOf = (lag: BuildLag, now: Date): ReadModelBuild => {
  const behind = lag.eventsBehind;
  const total = behind === undefined ? undefined : lag.eventsApplied + behind;
  const percent = total === undefined ? 0 : total === 0 ? 100 : Math.floor((lag.eventsApplied / total) * 100);
  const elapsed = (now.getTime() - lag.startedAt.getTime()) / 1000;
  const pace = elapsed > 0 ? lag.eventsApplied / elapsed : 0;
  const secondsLeft = lag.status !== "building" || behind === undefined ? null : behind === 0 ? 0 : pace > 0 ? Math.ceil(behind / pace) : null;
  return {
    build: lag.build,
    version: lag.version,
    state: lag.status === "live" ? "live" : "building",
    checkpoint: lag.checkpoint,
    eventsApplied: lag.eventsApplied,
    eventsBehind: behind ?? null,
    secondsBehind: lag.secondsBehind,
    leaseOwner: lag.leaseOwner ?? null,
    percent,
    secondsLeft,
  };
};

/** How far the global chain covers the log (ADR 0021): the sealer's count, and what it has not reached yet. */
const chainOf = async (deps: ApiDeps): Promise<OperationsStatus["chain"]> => {
  const [head] = await deps.readDb.query("select transaction_id::text as tx, global_position::text as seq, sealed::text as sealed from es_chain_head");
  if (!head) return { sealed: 0, unsealed: 0, sealedTo: formatPosition(START) };
  const sealedTo = { tx: BigInt(head.tx as string), seq: BigInt(head.seq as string) };
  const behind = await logBehind(deps.readDb, sealedTo);
  return { sealed: Number(head.sealed), unsealed: behind?.events ?? 0, sealedTo: formatPosition(sealedTo) };
};

/** The screen's figures, as /metrics reads them. */
const readStatus = async (deps: ApiDeps): Promise<OperationsStatus> => {
    const [builds, reactors, head, horizonAgeSeconds, chain] = await Promise.all([
      projectionLag(deps.readDb),
      reactorLag(deps.readDb),
      deps.store.headPosition(),
      deps.store.horizonAgeSeconds(),
      chainOf(deps),
    ]);
    const now = deps.now();
    const readModels = ALL_PROJECTIONS.map((projection) => {
      const mine = builds.filter((b) => b.projection === projection.name);
      const live = mine.find((b) => b.status === "live");
      // The newest build catching up: a rebuild, or the next version after a release.
      const building = mine.filter((b) => b.status === "building").at(-1);
      return {
        name: projection.name,
        liveVersion: live?.version ?? null,
        live: live ? buildOf(live, now) : null,
        building: building ? buildOf(building, now) : null,
      };
    });
    const answer: OperationsStatus = {
      head: formatPosition(head),
      horizonAgeSeconds,
      readModels,
      reactors: reactors.map(
        (r): ReactorStatus => ({
          name: r.reactor,
          checkpoint: r.checkpoint,
          eventsBehind: r.eventsBehind ?? null,
          secondsBehind: r.secondsBehind,
          lease: r.leaseOwner === undefined ? null : { owner: r.leaseOwner, since: iso(r.leaseSince) },
          lastError: r.lastError ? { message: r.lastError.message, at: r.lastError.at.toISOString() } : null,
          retryAt: iso(r.retryAt),
        }),
      ),
      chain,
      readAt: now.toISOString(),
    };
    return answer;
};

/** How long one read of the figures serves every Admin tab of this process. */
const FRESH_MS = 1_000;

/**
 * One read at a time, reused for FRESH_MS: each read counts what the log holds past every
 * checkpoint (the whole log for a build just started), and every open screen polls each second
 * while a build runs, so without this the screen would load the database most when a rebuild does.
 */
const reusedFor = <T>(ms: number, read: () => Promise<T>): (() => Promise<T>) => {
  let last: { readonly at: number; readonly value: Promise<T> } | undefined;
  return () => {
    const now = performance.now();
    if (last === undefined || now - last.at >= ms) {
      const value = read();
      const current = { at: now, value };
      last = current;
      // A failed read is not kept: the next request reads again.
      value.catch(() => {
        if (last === current) last = undefined;
      });
    }
    return last.value;
  };
};

export const operationHandlers = (deps: ApiDeps) => {
  const status = reusedFor(FRESH_MS, () => readStatus(deps));
  return {
    getOperations: async () => ok("Operations loaded.", await status()),
    rebuildReadModel: async (context) => {
      const projection = ALL_PROJECTIONS.find((p) => p.name === context.params.name);
      if (!projection) return fail(404, `No read model is called "${context.params.name}".`);
      // The registry's rows alone: whether a build is catching up needs no count of the log.
      const building = (await listBuilds(deps.readDb.query, projection.name)).some((b) => b.status === "building");
      const ran = await runOperationCommand(deps, context, {
        type: "RequestRebuild",
        projection: projection.name,
        version: projection.version,
        building,
        actor: actorOf(context.user),
      });
      return replyTo(ran, `The ${projection.name} read model is being rebuilt beside the live one.`);
    },
    retryReactor: async (context) => {
      const reactor = (await reactorLag(deps.readDb)).find((r) => r.reactor === context.params.name);
      if (!reactor) return fail(404, `No reactor is called "${context.params.name}".`);
      const ran = await runOperationCommand(deps, context, {
        type: "RequestReactorRetry",
        reactor: reactor.reactor,
        waiting: reactor.retryAt !== undefined,
        actor: actorOf(context.user),
      });
      return replyTo(ran, `The ${context.params.name} reactor will try again now.`);
    },
  } satisfies Partial<Handlers>;
};
