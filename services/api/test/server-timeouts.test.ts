import type { Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer, SERVER_TIMEOUTS, type ServerTimeouts } from "../src/http/server.ts";

/** Short limits, so that the behaviour shows within a test. */
const SHORT: ServerTimeouts = { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 300, checkEveryMs: 50 };

/** Opens a raw connection, writes `text`, and answers what the server sent and when it closed. */
const rawExchange = (port: number, text: string, { writeMore }: { writeMore?: () => string } = {}) =>
  new Promise<{ received: string; closedAfterMs: number }>((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let received = "";
    const drip = writeMore
      ? setInterval(() => {
          if (!socket.destroyed) socket.write(writeMore());
        }, 100)
      : undefined;
    socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
    // The server may reset the connection while we are still writing: that is also its end.
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") reject(error);
    });
    socket.on("close", () => {
      clearInterval(drip);
      resolve({ received, closedAfterMs: performance.now() - started });
    });
    // Never wait forever: a server without limits would keep the connection open.
    setTimeout(() => socket.destroy(), 5_000);
  });

/**
 * Issue 9 item 11: the server's time limits are explicit (src/http/server.ts, used by main.ts):
 * headers, the whole request and idle kept-alive connections each end at a known time.
 */
describe("issue 9 item 11: explicit server timeouts", () => {
  let server: Server | undefined;

  const listen = async (timeouts: ServerTimeouts) => {
    // Answers once the whole request has arrived, as an endpoint reading a body does.
    server = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => res.end("ok"));
    }, timeouts);
    server.listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    return (server.address() as AddressInfo).port;
  };

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it("sets the written-down limits on the server: 20 s for headers, 2 min for a request, 65 s idle keep-alive", async () => {
    await listen(SERVER_TIMEOUTS);
    expect(server!.headersTimeout).toBe(20_000);
    expect(server!.requestTimeout).toBe(120_000);
    expect(server!.keepAliveTimeout).toBe(65_000);
    expect(server!.headersTimeout).toBeLessThanOrEqual(server!.requestTimeout);
  });

  it("answers 408 and closes a connection whose headers do not arrive in time (slowloris)", async () => {
    const port = await listen(SHORT);
    const { received, closedAfterMs } = await rawExchange(port, "GET / HTTP/1.1\r\nHost: x\r\n", { writeMore: () => "X-Slow: 1\r\n" });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(SHORT.headersTimeoutMs - 50);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it("answers 408 and closes a request whose body does not arrive in time", async () => {
    const port = await listen(SHORT);
    const { received, closedAfterMs } = await rawExchange(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nab", { writeMore: () => "c" });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(SHORT.requestTimeoutMs - 50);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it("closes an idle kept-alive connection after the keep-alive limit, having answered its request", async () => {
    const port = await listen(SHORT);
    const { received, closedAfterMs } = await rawExchange(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(SHORT.keepAliveTimeoutMs - 50);
    expect(closedAfterMs).toBeLessThan(3_000);
  });
});
