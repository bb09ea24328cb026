import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "@etd/api/internal/api-deps.ts";
import { createApp } from "@etd/api/internal/app.ts";
import { createOrderGrants, GRANT_TTL_SECONDS } from "@etd/api/internal/auth/order-grant.ts";
import { createThrottle } from "@etd/api/internal/auth/throttle.ts";
import { GRANT_COOKIE, SESSION_COOKIE } from "@etd/api/internal/http/cookies.ts";
import { createRateLimiter, PUBLIC_RATE_LIMIT } from "@etd/api/internal/http/rate-limit.ts";
import { orderEmail, settleOrder, trackOrder } from "./support/public-visitor.ts";
import { JWT_SECRET, startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 9 items 4 and 12: the traveller's side needs the pair (order id and e-mail) once, then a
 * short-lived grant for that order; every public endpoint is rate-limited; the document links are
 * served to staff and to the order's grant holder only. Everything goes through HTTP as a browser
 * would send it (the grant as a cookie).
 */

const available = await postgresAvailable();

const pdf = (label: string) => Buffer.from(`%PDF-1.7\n% ${label}\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n`);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("IHDR-not-really-an-image")]);
const PLANTED = "PLANTED-SECRET-0f9e8d";

interface Answer {
  readonly status: number;
  readonly body: string;
  /** Every header but Date, which only says when. */
  readonly headers: Record<string, string>;
}

const answerOf = async (response: Response): Promise<Answer> => ({
  status: response.status,
  body: await response.text(),
  headers: Object.fromEntries([...response.headers].filter(([name]) => name !== "date")),
});

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

describe.skipIf(!available)("issue 9 items 4 and 12: the public side needs the order's grant", () => {
  let api: TestApi;
  /** A: two uploads (old.pdf, then a name needing RFC 6266), B: a PNG, C: for bursts, D: downloads. */
  let A: string, B: string, C: string, D: string;
  const CURRENT_A = "E-Travel Año.pdf";
  const servers: http.Server[] = [];

  const upload = async (orderId: string, name: string, content: Buffer) => {
    const form = new FormData();
    form.append("orderId", orderId);
    form.append("email", "traveller@example.com");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(content)]), name);
    const response = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: await api.login("Team") } });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  /**
   * The same API (same database, same deps) on its own port with fresh public limits, so each test
   * starts with an untouched rate limit; `overrides` changes the limits for one test.
   */
  const serve = async (overrides: Partial<AppDeps> = {}): Promise<string> => {
    const server = createApp({
      ...api.runtime.deps,
      publicLimiter: createRateLimiter(PUBLIC_RATE_LIMIT),
      trackThrottle: createThrottle(),
      ...overrides,
    }).listen(0, "127.0.0.1");
    servers.push(server);
    await once(server, "listening");
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const post = (base: string, apiPath: string, body: unknown, cookie?: string) =>
    fetch(`${base}/api${apiPath}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });

  const getFile = (base: string, link: string, headers: Record<string, string> = {}, method = "GET") => fetch(`${base}${link}`, { method, headers });

  /** A path exactly as written, not normalised the way fetch's URL parser would (`..`, `%2e`). */
  const rawGet = (base: string, rawPath: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      const request = http.request({ host: hostname, port, path: rawPath, method: "GET", headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString("latin1") }));
      });
      request.on("error", reject);
      request.end();
    });

  const streamLength = async (orderId: string) => (await api.runtime.deps.store.readStream(`order-${orderId}`)).length;

  beforeAll(async () => {
    api = await startTestApi();
    [A, B, C, D] = (await api.placeOrders(4)) as [string, string, string, string];
    await upload(A, "old.pdf", pdf("A old"));
    await upload(A, CURRENT_A, pdf("A current"));
    await upload(B, "scan.png", PNG);
    await upload(C, "etravel.pdf", pdf("C"));
    await upload(D, "old.pdf", pdf("D old"));
    await upload(D, "new.pdf", pdf("D new"));
    for (const orderId of [A, B, C, D]) await settleOrder(api, orderId);
    // Files a way out of the document folder would reach.
    await writeFile(path.join(api.dataDir, "planted.txt"), PLANTED);
    await writeFile(path.join(api.dataDir, "uploads", "planted.txt"), PLANTED);
    await mkdir(path.join(api.dataDir, "uploads", "docs", "planted"), { recursive: true });
    await writeFile(path.join(api.dataDir, "uploads", "docs", "planted", "x.pdf"), PLANTED);
  }, 60_000);

  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });

  afterAll(async () => {
    await api?.close();
  });

  it("item 4, PUBLIC-1: track-order answers a wrong id and a wrong e-mail identically; a match sets a 30-minute HttpOnly grant for that order", async () => {
    const base = await serve();
    const email = await orderEmail(api, A);
    const wrongEmail = await answerOf(await post(base, "/front/track-order", { orderId: A, email: "someone.else@example.com" }));
    const wrongId = await answerOf(await post(base, "/front/track-order", { orderId: "990000001", email }));
    const malformedId = await answerOf(await post(base, "/front/track-order", { orderId: "not-an-id", email }));
    expect(wrongEmail.status).toBe(404);
    expect(JSON.parse(wrongEmail.body)).toEqual({ status: 0, message: "We could not find an order with this Order ID and Email ID.", data: null });
    expect(wrongEmail.headers["set-cookie"]).toBeUndefined();
    expect(wrongId).toEqual(wrongEmail);
    expect(malformedId).toEqual(wrongEmail);

    const found = await post(base, "/front/track-order", { orderId: A, email: ` ${email.toUpperCase()} ` });
    expect(await found.clone().json()).toEqual({ status: 1, message: "Your order has been found.", data: { orderId: A, documentReady: true } });
    const [setCookie] = found.headers.getSetCookie();
    expect(setCookie).toMatch(new RegExp(`^${GRANT_COOKIE}=v1\\.${A}\\.\\d+\\.[A-Za-z0-9_-]{43}; Max-Age=${GRANT_TTL_SECONDS}; Path=/; Expires=[^;]+; HttpOnly; SameSite=Strict$`));
    const expires = Date.parse(/Expires=([^;]+)/.exec(setCookie!)![1]!);
    expect(Math.abs(expires - (Date.now() + GRANT_TTL_SECONDS * 1000))).toBeLessThan(5_000);
  });

  it("item 4: wrong id and wrong e-mail take the same time (medians of 200 calls each, printed)", async () => {
    // Limits out of the way: what is measured is the lookup, not the throttle's early answer.
    const base = await serve({
      publicLimiter: createRateLimiter({ limit: 1e9, windowMs: 60_000 }),
      trackThrottle: createThrottle({ perSubjectIp: 1e9, perIp: 1e9, freeFailures: 1e9 }),
    });
    const email = await orderEmail(api, A);
    const timed = async (body: unknown) => {
      const started = performance.now();
      const answer = await answerOf(await post(base, "/front/track-order", body));
      return { ms: performance.now() - started, answer };
    };
    const wrongId: number[] = [];
    const wrongEmail: number[] = [];
    const answers = new Set<string>();
    const WARM_UP = 30;
    for (let i = 0; i < WARM_UP + 200; i++) {
      const byId = () => timed({ orderId: String(990_000_000 + i), email });
      const byEmail = () => timed({ orderId: A, email: `nobody${i}@example.com` });
      // Alternating which goes first cancels any drift between the two series.
      let idResult, emailResult;
      if (i % 2 === 0) {
        idResult = await byId();
        emailResult = await byEmail();
      } else {
        emailResult = await byEmail();
        idResult = await byId();
      }
      for (const result of [idResult, emailResult]) answers.add(JSON.stringify(result.answer));
      if (i < WARM_UP) continue;
      wrongId.push(idResult.ms);
      wrongEmail.push(emailResult.ms);
    }
    const [idMedian, emailMedian] = [median(wrongId), median(wrongEmail)];
    console.log(`item 4 track-order timing, median of ${wrongId.length} calls each: wrong id ${idMedian.toFixed(3)} ms, wrong e-mail ${emailMedian.toFixed(3)} ms`);
    // Every one of the 460 answers is byte for byte the same (status, body, headers).
    expect(answers.size).toBe(1);
    expect(JSON.parse(JSON.parse([...answers][0]!).body)).toMatchObject({ status: 0 });
    // Loose: on a busy machine a few milliseconds of noise, but not a whole extra step of work.
    expect(Math.max(idMedian, emailMedian) / Math.min(idMedian, emailMedian)).toBeLessThan(1.5);
  }, 60_000);

  it("item 4, PUBLIC-2: history, download and the document link refuse a missing, expired, tampered, forged or another order's grant the same way, and change nothing", async () => {
    const base = await serve();
    const grants = createOrderGrants(JWT_SECRET);
    const grantA = (await trackOrder(api, A, base)).slice(GRANT_COOKIE.length + 1);
    const grantB = (await trackOrder(api, B, base)).slice(GRANT_COOKIE.length + 1);
    const [, , expiresA, signatureA] = grantA.split(".") as [string, string, string, string];
    const expiredAt = new Date(Date.now() - GRANT_TTL_SECONDS * 1000 - 1_000);
    const expired = grants.issue(A, expiredAt);
    // Signed with the right key: only its age makes it fail.
    expect(grants.verify(expired, expiredAt)).toBe(A);
    const flipped = signatureA.at(-1) === "A" ? "B" : "A";
    const refusedGrants: Record<string, string | undefined> = {
      none: undefined,
      expired,
      "another order's": grantB,
      "another order's, id rewritten": grantB.replace(`v1.${B}.`, `v1.${A}.`),
      "lifetime stretched": grantA.replace(`.${expiresA}.`, `.${Number(expiresA) + 86_400}.`),
      "signature changed": `${grantA.slice(0, -1)}${flipped}`,
      "signed with another secret": createOrderGrants("another-secret-that-is-long-enough-0123").issue(A, new Date()),
      garbage: "v1.x",
    };
    const documentLink = `/uploads/docs/${A}/${encodeURIComponent(CURRENT_A)}`;
    const requests: Record<string, (cookie: string | undefined) => Promise<Response>> = {
      "get-download-history": (cookie) => post(base, "/front/get-download-history", { orderId: A }, cookie),
      "download-passport-doc-pdf": (cookie) => post(base, "/front/download-passport-doc-pdf", { orderId: A, customername: "Juan", file1: CURRENT_A }, cookie),
      "document link": (cookie) => getFile(base, documentLink, cookie ? { cookie } : {}),
    };
    // An id that does not exist, without a grant, is refused exactly like an existing one.
    const unknownOrder: Record<string, () => Promise<Response>> = {
      "get-download-history": () => post(base, "/front/get-download-history", { orderId: "990000002" }),
      "download-passport-doc-pdf": () => post(base, "/front/download-passport-doc-pdf", { orderId: "990000002", customername: "Juan", file1: CURRENT_A }),
      "document link": () => getFile(base, `/uploads/docs/990000002/${encodeURIComponent(CURRENT_A)}`),
    };
    const expected = {
      "get-download-history": { status: 403, body: { status: 0, message: "Please track your order with its Order ID and Email ID first.", data: [], mainResult: null, path: { file1: null } } },
      "download-passport-doc-pdf": { status: 403, body: { status: 0, message: "Please track your order with its Order ID and Email ID first.", data: null } },
      "document link": { status: 401, body: { status: 0, message: "Please sign in, or track your order with its Order ID and Email ID first.", data: null } },
    };

    const eventsBefore = await api.eventCount();
    for (const [endpoint, request] of Object.entries(requests)) {
      const refusals: Record<string, Answer> = {};
      for (const [label, grant] of Object.entries(refusedGrants)) refusals[label] = await answerOf(await request(grant === undefined ? undefined : `${GRANT_COOKIE}=${grant}`));
      refusals["unknown order"] = await answerOf(await unknownOrder[endpoint]!());
      const none = refusals.none!;
      expect({ status: none.status, body: JSON.parse(none.body) }, endpoint).toEqual(expected[endpoint as keyof typeof expected]);
      expect(none.headers["set-cookie"], endpoint).toBeUndefined();
      for (const [label, answer] of Object.entries(refusals)) expect(answer, `${endpoint} with ${label} grant`).toEqual(none);
    }
    expect(await api.eventCount()).toBe(eventsBefore);

    // The same calls with A's own grant go through: the refusals above were the grant's doing.
    const history = await requests["get-download-history"]!(`${GRANT_COOKIE}=${grantA}`);
    expect(history.status).toBe(200);
    expect(await history.json()).toMatchObject({ status: 1, mainResult: { order_id: A }, path: { file1: CURRENT_A } });
    expect((await requests["document link"]!(`${GRANT_COOKIE}=${grantA}`)).status).toBe(200);
    const download = await requests["download-passport-doc-pdf"]!(`${GRANT_COOKIE}=${grantA}`);
    expect(await download.json()).toMatchObject({ status: 1, data: { link: documentLink } });
    expect(await api.eventCount()).toBe(eventsBefore + 1);
  });

  it("item 4, PUBLIC-2: a download is recorded only for the order's current document; refused downloads add no row", async () => {
    const base = await serve();
    const cookie = await trackOrder(api, D, base);
    const otherCookie = await trackOrder(api, B, base);
    const lengthBefore = await streamLength(D);
    const refused: [string, string | undefined, number][] = [
      ["old.pdf", cookie, 404],
      ["made-up.pdf", cookie, 404],
      ["../old.pdf", cookie, 404],
      ["new.pdf", undefined, 403],
      ["new.pdf", otherCookie, 403],
    ];
    for (const [file1, sent, status] of refused) {
      const answer = await post(base, "/front/download-passport-doc-pdf", { orderId: D, customername: "Juan", file1 }, sent);
      expect(answer.status, `${file1} with ${sent ? "a grant" : "no grant"}`).toBe(status);
      expect(((await answer.json()) as { status: number }).status).toBe(0);
    }
    expect(await streamLength(D)).toBe(lengthBefore);

    const response = await fetch(`${base}/api/front/download-passport-doc-pdf`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1" },
      body: JSON.stringify({ orderId: D, customername: "Juan", file1: "new.pdf" }),
    });
    expect(await response.json()).toMatchObject({ status: 1, message: "Your download will start shortly.", data: { link: `/uploads/docs/${D}/new.pdf` } });
    const stream = await api.runtime.deps.store.readStream(`order-${D}`);
    expect(stream).toHaveLength(lengthBefore + 1);
    expect(stream.at(-1)).toMatchObject({ type: "DocumentDownloaded", data: { personal: { fileName: "new.pdf", browser: "Safari-17", os: "iOS 17.0" } }, metadata: { actor: { kind: "customer" } } });

    await settleOrder(api, D);
    const rows = await api.runtime.driver.query(`select file from download_history where order_id = $1`, [D]);
    expect(rows.map((row) => row.file)).toEqual(["new.pdf"]);
    const history = (await (await post(base, "/front/get-download-history", { orderId: D }, cookie)).json()) as { data: { file: string }[] };
    expect(history).toMatchObject({ status: 1, message: "Download history loaded.", path: { file1: "new.pdf" } });
    expect(history.data.map((row: { file: string }) => row.file)).toEqual(["new.pdf"]);
  });

  it("item 4: a burst from one address on each public endpoint is throttled with 429 in the spec's envelope, successful calls included", async () => {
    const { limit } = PUBLIC_RATE_LIMIT;
    const burst = async (send: () => Promise<Response>) => {
      const answers: { status: number; body: Record<string, unknown> }[] = [];
      for (let i = 0; i < limit + 5; i++) {
        const response = await send();
        answers.push({ status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> });
      }
      return answers;
    };
    const expectThrottled = (label: string, answers: { status: number; body: Record<string, unknown> }[], allowed: number, extra: Record<string, unknown> = { data: null }) => {
      expect(answers.slice(0, limit).map((a) => a.status), label).toEqual(Array(limit).fill(allowed));
      for (const answer of answers.slice(limit)) {
        expect(answer.status, label).toBe(429);
        expect(answer.body, label).toEqual({ status: 0, message: expect.stringMatching(/^Too many requests\. Please try again in \d+ seconds\.$/), ...extra });
      }
    };
    const email = await orderEmail(api, C);

    // Successful lookups count too, not only failed ones.
    const trackBase = await serve();
    expectThrottled("track-order", await burst(() => post(trackBase, "/front/track-order", { orderId: C, email })), 200);

    const base = await serve();
    const cookie = await trackOrder(api, C, base);
    expectThrottled("get-download-history", await burst(() => post(base, "/front/get-download-history", { orderId: C }, cookie)), 200, {
      data: [],
      mainResult: null,
      path: { file1: null },
    });
    expectThrottled("download-passport-doc-pdf", await burst(() => post(base, "/front/download-passport-doc-pdf", { orderId: C, file1: "etravel.pdf" }, cookie)), 200);
    expectThrottled("document link", await burst(() => getFile(base, `/uploads/docs/${C}/etravel.pdf`, { cookie })), 200);

    // Refusals count as well: guessing without a grant is throttled the same way.
    const refusedBase = await serve();
    expectThrottled("get-download-history without a grant", await burst(() => post(refusedBase, "/front/get-download-history", { orderId: C })), 403, {
      data: [],
      mainResult: null,
      path: { file1: null },
    });
  }, 60_000);

  it("a public request cannot be made to wait with X-Read-After (only staff reading their own writes may)", async () => {
    const started = performance.now();
    const answer = await fetch(`${api.base}/api/front/get-download-history`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-read-after": "99999999999.0" },
      body: JSON.stringify({ orderId: A }),
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get("x-read-after-reached")).toBeNull();
    // The wait for a position never reached lasts seconds; the refusal comes at once.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("item 12, ORDER-14: the link the order details hand out serves the file to staff by header or session cookie, with download headers; no session is 401", async () => {
    const base = await serve();
    const token = await api.login("Telecaller");
    const details = await api.call("GET", `/admin/get-orders-details/${A}`, undefined, token);
    const link = `/uploads/${(details.body.data.uploadDoc[0].path as string).split("/").map(encodeURIComponent).join("/")}`;
    expect(link).toBe(`/uploads/docs/${A}/E-Travel%20A%C3%B1o.pdf`);

    for (const [label, headers] of [
      ["Authorization header", { authorization: token }],
      ["Bearer header", { authorization: `Bearer ${token}` }],
      ["session cookie", { cookie: `${SESSION_COOKIE}=${token}` }],
    ] as const) {
      const response = await getFile(base, link, headers);
      expect(response.status, label).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(pdf("A current")), label).toBe(true);
      expect(response.headers.get("content-type"), label).toBe("application/pdf");
      expect(response.headers.get("content-disposition"), label).toBe(`attachment; filename="E-Travel A?o.pdf"; filename*=UTF-8''E-Travel%20A%C3%B1o.pdf`);
      expect(response.headers.get("x-content-type-options"), label).toBe("nosniff");
      expect(response.headers.get("cache-control"), label).toBe("private, no-store");
    }
    // Staff also reach the order's older uploads; the type comes from the stored bytes.
    expect((await getFile(base, `/uploads/docs/${A}/old.pdf`, { authorization: token })).status).toBe(200);
    const png = await getFile(base, `/uploads/docs/${B}/scan.png`, { authorization: token });
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("content-disposition")).toBe("attachment; filename=scan.png");

    for (const headers of [{}, { authorization: "not-a-token" }, { cookie: `${SESSION_COOKIE}=not-a-token` }] as Record<string, string>[]) {
      const refused = await getFile(base, link, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(await refused.json()).toEqual({ status: 0, message: "Please sign in, or track your order with its Order ID and Email ID first.", data: null });
    }
  });

  it("item 12: HEAD tells whether a document exists (200/404, no body)", async () => {
    const base = await serve();
    const token = await api.login("Team");
    const head = async (link: string, headers: Record<string, string>) => {
      const response = await getFile(base, link, headers, "HEAD");
      return { status: response.status, body: await response.text(), type: response.headers.get("content-type") };
    };
    expect(await head(`/uploads/docs/${A}/old.pdf`, { authorization: token })).toEqual({ status: 200, body: "", type: "application/pdf" });
    expect(await head(`/uploads/docs/${A}/missing.pdf`, { authorization: token })).toMatchObject({ status: 404, body: "" });
    expect(await head(`/uploads/docs/990000003/old.pdf`, { authorization: token })).toMatchObject({ status: 404, body: "" });
    const cookie = await trackOrder(api, A, base);
    expect(await head(`/uploads/docs/${A}/${encodeURIComponent(CURRENT_A)}`, { cookie })).toEqual({ status: 200, body: "", type: "application/pdf" });
    expect(await head(`/uploads/docs/${A}/${encodeURIComponent(CURRENT_A)}`, {})).toMatchObject({ status: 401, body: "" });
  });

  it("item 12: a traveller's grant opens only that order's current document; other orders' files and traversal are refused", async () => {
    const base = await serve();
    const cookie = await trackOrder(api, A, base);
    const current = await getFile(base, `/uploads/docs/${A}/${encodeURIComponent(CURRENT_A)}`, { cookie });
    expect(current.status).toBe(200);
    expect(Buffer.from(await current.arrayBuffer()).equals(pdf("A current"))).toBe(true);
    expect(current.headers.get("x-content-type-options")).toBe("nosniff");
    // Not its older upload, and nothing of another order.
    expect((await getFile(base, `/uploads/docs/${A}/old.pdf`, { cookie })).status).toBe(404);
    expect((await getFile(base, `/uploads/docs/${B}/scan.png`, { cookie })).status).toBe(401);

    const token = await api.login("Admin");
    const traversals = [
      `/uploads/docs/${A}/../../../planted.txt`,
      `/uploads/docs/${A}/..%2F..%2F..%2Fplanted.txt`,
      `/uploads/docs/${A}/%2e%2e%2f%2e%2e%2fplanted.txt`,
      `/uploads/docs/${A}/..%5C..%5Cplanted.txt`,
      `/uploads/docs/${A}/..%2Fplanted%2Fx.pdf`,
      `/uploads/docs/${A}/..%2F${B}%2Fscan.png`,
      `/uploads/docs/..%2Fplanted/x.pdf`,
      `/uploads/docs/planted/x.pdf`,
      `/uploads/docs/${A}/%2Fetc%2Fpasswd`,
      `/uploads/docs/${A}/.staging`,
      `/uploads/planted.txt`,
    ];
    for (const rawPath of traversals) {
      for (const [label, headers] of [
        ["staff", { authorization: token }],
        ["grant", { cookie }],
      ] as const) {
        const answer = await rawGet(base, rawPath, headers);
        expect(answer.body, `${label} ${rawPath}`).not.toContain(PLANTED);
        expect(answer.body, `${label} ${rawPath}`).not.toContain("%PDF");
        expect([401, 404], `${label} ${rawPath} answered ${answer.status}`).toContain(answer.status);
      }
    }
  });
});
