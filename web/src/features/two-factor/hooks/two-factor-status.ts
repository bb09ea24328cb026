import { queryOptions } from "@tanstack/react-query";
import { ACCESS } from "@etd/contract/endpoints";
import { callApi } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/*
 * The signed-in member's own two-factor sign-in (issue 16 part A). The status lives with the staff
 * credentials, in no read model, so the server waits for none; its key still sits under the staff
 * read model's, so that a change to the team (an Admin's reset) fetches it again.
 */
export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.staff, "two-factor"],
    queryFn: ({ signal }) => callApi(ACCESS.twoFactorStatus, {}, { signal }),
  });
