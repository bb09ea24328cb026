/**
 * Reads a Server-Sent Events stream and hands over each event as it arrives. `headers` carries the
 * Authorization header or the session cookie, as a browser would. `ended` resolves when the
 * server closes the stream (not when `close` aborts it), with how long it was open.
 */
export const openStream = async (url: string, onEvent: (event: { event: string; data: string }) => void, headers: Record<string, string> = {}) => {
  const controller = new AbortController();
  const openedAt = performance.now();
  const response = await fetch(url, { signal: controller.signal, headers: { accept: "text/event-stream", ...headers } });
  const status = response.status;
  let ended: Promise<number> = Promise.resolve(0);
  if (status === 200) {
    ended = (async () => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return performance.now() - openedAt;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data !== undefined) onEvent({ event, data });
          }
        }
      } catch {
        // Aborted by `close`: never counts as the server ending it.
        return new Promise<number>(() => {});
      }
    })();
  } else {
    await response.body?.cancel();
  }
  return { status, ended, close: () => controller.abort() };
};
