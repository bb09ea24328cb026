/** Reads a Server-Sent Events stream and hands over each event as it arrives. */
export const openStream = async (url: string, onEvent: (event: { event: string; data: string }) => void) => {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal, headers: { accept: "text/event-stream" } });
  const status = response.status;
  if (status === 200) {
    void (async () => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
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
        // aborted
      }
    })();
  }
  return { status, close: () => controller.abort() };
};
