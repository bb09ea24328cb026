import { queryOptions } from "@tanstack/react-query";
import type { EndpointDeclaration } from "@etd/contract/endpoints";
import { callApi, readYourWritesOf, type CallOf } from "./api-client.ts";

/*
 * A query of a declared endpoint, derived from its declaration: the key starts with the read model
 * it reads (the query-key convention, so the live feed refreshes it when that read model moves),
 * and the request waits for this tab's own writes to that read model (X-Read-After).
 */
export const endpointQuery = <E extends EndpointDeclaration>(endpoint: E, call: CallOf<E>) =>
  queryOptions({
    queryKey: [endpoint.reads?.[0] ?? endpoint.path, endpoint.method, endpoint.path, call] as const,
    queryFn: ({ client, signal }) => {
      const readAfter = readYourWritesOf(client).readAfter(endpoint.reads ?? []);
      return callApi(endpoint, call, readAfter === undefined ? { signal } : { signal, readAfter });
    },
  });
