import { startApiProcess } from "@etd/server/test/api-process";

/*
 * The real API as its own process, exactly as `npm start` runs it, serving the built web app
 * (the API's own test launcher). The browser tests end it gently: SIGTERM, then SIGKILL after 5 s.
 */

export interface ApiServer {
  /** e.g. http://127.0.0.1:43121 */
  readonly base: string;
  /** The process's id (benchmarks read its CPU time). */
  readonly pid: number;
  /** What the process printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export const startApiServer = async (settings: Record<string, string>, startTimeoutMs = 60_000): Promise<ApiServer> => {
  const api = await startApiProcess(settings, { startTimeoutMs });
  let ended = false;
  void api.exited.then(() => (ended = true));
  return {
    base: api.base,
    pid: api.pid,
    output: () => api.output(),
    stop: async () => {
      if (ended) return;
      try {
        api.kill("SIGTERM");
      } catch {
        return; // it ended between the check and the signal
      }
      const timer = setTimeout(() => void api.stop(), 5_000);
      await api.exited;
      clearTimeout(timer);
    },
  };
};
