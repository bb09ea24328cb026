import { QueryClient } from "@tanstack/react-query";

/*
 * The one query cache of the app. Lists are kept fresh by the live feed and by invalidation after
 * commands, so a short stale time is enough; failed calls are not retried because the api client
 * never throws for a server answer (an envelope with status 0 is data, shown as it is).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 5_000, retry: false, refetchOnWindowFocus: false },
  },
});
