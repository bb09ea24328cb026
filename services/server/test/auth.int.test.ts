import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createApp } from "@etd/api/internal/app.ts";
import { createThrottle, DEFAULT_LIMITS } from "@etd/api/internal/auth/throttle.ts";
import { fakeClock } from "@etd/api/test/fake-clock";
import { PASSWORD, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();


/** POSTs a sign-in from a given local address (any of 127.0.0.0/8 reaches a server on 127.0.0.1). */
const signInFrom = (port: number, localAddress: string, body: unknown) =>
  new Promise<{ status: number; body: Record<string, any> }>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      { host: "127.0.0.1", port, localAddress, method: "POST", path: "/api/admin/admin-login", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, any> }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });

const decodePayload = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, any>;

describe.skipIf(!available)("sign-in and sessions", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("AUTH-2: each sign-in validation message of 000 §5, and nothing else happens", async () => {
    const cases: [unknown, string][] = [
      [{ password: "x" }, "Email Address is required"],
      [{ email: "", password: "x" }, "Email Address is required"],
      [{ email: "not-an-email", password: "x" }, "Invalid email address"],
      [{ email: "admin@demo.local" }, "Password is required"],
      [{ email: "admin@demo.local", password: "" }, "Password is required"],
    ];
    for (const [body, message] of cases) {
      const answer = await api.call("POST", "/admin/admin-login", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ status: 0, message });
    }
  });

  it("AUTH-3: a valid sign-in answers status 1, the token as jwtToken and in data, with payload {user: {id, name, type}}", async () => {
    const answer = await api.call("POST", "/admin/admin-login", { email: "Manager@Demo.Local", password: PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 1, message: "Login successful." });
    const token = answer.body.jwtToken as string;
    expect(answer.body.data).toMatchObject({ accessToken: token, name: "Marco Villanueva", type: "Manager", email: "manager@demo.local" });
    const payload = decodePayload(token);
    expect(payload.user).toEqual({ id: api.staff.Manager.id, name: "Marco Villanueva", type: "Manager" });
    expect(payload.exp).toBeGreaterThan(payload.iat);
  });

  it("AUTH-3: a wrong password and an unknown e-mail get the same answer", async () => {
    const wrong = await api.call("POST", "/admin/admin-login", { email: "team@demo.local", password: "not the password" });
    const unknown = await api.call("POST", "/admin/admin-login", { email: "nobody@demo.local", password: "not the password" });
    expect(wrong).toEqual({ status: 401, body: { status: 0, message: "Invalid email or password.", data: null } });
    expect(unknown).toEqual(wrong);
  });

  it("AUTH-5 / AUTH-9: the token works with no prefix and as Bearer; GET /user_info answers the member", async () => {
    const token = await api.login("Team");
    for (const header of [token, `Bearer ${token}`]) {
      const answer = await api.call("GET", "/user_info", undefined, header);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ id: api.staff.Team.id, name: "Tessa Cruz", type: "Team", email: "team@demo.local" });
    }
    expect((await api.call("GET", "/user_info")).status).toBe(401);
    expect((await api.call("GET", "/user_info", undefined, "Bearer garbage")).status).toBe(401);
  });

  it("AUTH-8: the new password's messages; a change ends every earlier session and the new password signs in", async () => {
    const admin = await api.call("POST", "/admin/admin-login", { email: "admin@demo.local", password: PASSWORD });
    const token = admin.body.jwtToken as string;
    const other = (await api.call("POST", "/admin/admin-login", { email: "admin@demo.local", password: PASSWORD })).body.jwtToken as string;

    expect((await api.call("POST", "/admin/change-password", {}, token)).body).toMatchObject({ status: 0, message: "Please enter your New Password." });
    expect((await api.call("POST", "/admin/change-password", { newPassword: "" }, token)).body).toMatchObject({ status: 0, message: "Please enter your New Password." });
    expect((await api.call("POST", "/admin/change-password", { newPassword: "12345" }, token)).body).toMatchObject({
      status: 0,
      message: "New Password must be at least 6 characters.",
    });

    const changed = await api.call("POST", "/admin/change-password", { newPassword: "a new secret" }, token);
    expect(changed).toMatchObject({ status: 200, body: { status: 1 } });
    expect((await api.call("GET", "/user_info", undefined, token)).status).toBe(401);
    expect((await api.call("GET", "/user_info", undefined, other)).status).toBe(401);
    expect((await api.call("POST", "/admin/admin-login", { email: "admin@demo.local", password: PASSWORD })).status).toBe(401);
    const again = await api.call("POST", "/admin/admin-login", { email: "admin@demo.local", password: "a new secret" });
    expect(again.status).toBe(200);
    expect((await api.call("GET", "/user_info", undefined, again.body.jwtToken as string)).status).toBe(200);

    const events = await api.runtime.deps.store.readStream(`staff-${api.staff.Admin.id}`);
    expect(events.map((e) => e.type)).toEqual(["StaffMemberAdded", "PasswordChanged"]);
    expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.toContain("a new secret");
  });

  /*
   * Issue 9 item 6. Sign-in attempts come from several loopback addresses (127.0.0.x: the socket's
   * own address, no proxy header involved). The throttle's limits are the defaults; its clock is
   * a fake one, so windows pass at once and the added delay is recorded instead of slept.
   */
  describe("issue 9 item 6: sign-in throttling per (account, address) and per address", () => {
    const OWNER = "night@demo.local";
    let clock: ReturnType<typeof fakeClock>;
    let server: Server;
    let port: number;

    beforeAll(async () => {
      clock = fakeClock();
      server = createApp({ ...api.runtime.deps, throttle: createThrottle({}, clock) }).listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      port = (server.address() as AddressInfo).port;
    });

    afterAll(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    const signIn = (from: string, email: string, password: string) => signInFrom(port, from, { email, password });

    it("item 6: failures from 20 addresses do not stop the owner signing in from a fresh address: 200, after at most the capped delay", async () => {
      for (let ip = 1; ip <= 20; ip++) {
        for (let i = 0; i < 5; i++) expect((await signIn(`127.0.1.${ip}`, OWNER, `wrong ${i}`)).status).toBe(401);
        // Each attacking address is now locked out of this account...
        expect((await signIn(`127.0.1.${ip}`, OWNER, PASSWORD)).status).toBe(429);
      }
      // ...and every attempt on the account was slowed more and more, up to the cap.
      const delays = clock.slept.splice(0);
      expect(delays.slice(0, 4)).toEqual([250, 500, 1_000, 2_000]);
      expect(Math.max(...delays)).toBe(DEFAULT_LIMITS.maxDelayMs);

      const owner = await signIn("127.0.2.1", OWNER, PASSWORD);
      expect(owner.status).toBe(200);
      expect(owner.body).toMatchObject({ status: 1, message: "Login successful.", data: { email: OWNER } });
      expect(clock.slept.splice(0)).toEqual([DEFAULT_LIMITS.maxDelayMs]);
      clock.advance(15 * 60_000);
    });

    it("item 6: 5 failures from one address lock that (account, address) with a 429 in the spec's envelope, for the window only", async () => {
      for (let i = 0; i < 5; i++) expect((await signIn("127.0.3.1", OWNER, `wrong ${i}`)).body).toEqual({ status: 0, message: "Invalid email or password.", data: null });
      const blocked = await signIn("127.0.3.1", OWNER, PASSWORD);
      expect(blocked).toEqual({ status: 429, body: { status: 0, message: "Too many failed sign-in attempts. Please try again in 15 minutes.", data: null } });
      // Another account from the same address, and the same account from another address, are not blocked.
      expect((await signIn("127.0.3.1", "telecaller@demo.local", PASSWORD)).status).toBe(200);
      expect((await signIn("127.0.3.2", OWNER, PASSWORD)).status).toBe(200);
      clock.advance(14 * 60_000);
      expect((await signIn("127.0.3.1", OWNER, PASSWORD)).body.message).toBe("Too many failed sign-in attempts. Please try again in 1 minute.");
      clock.advance(60_000);
      expect((await signIn("127.0.3.1", OWNER, PASSWORD)).status).toBe(200);
    });

    it("item 6: 30 failures from one address over many accounts lock that address, for every account, and no other", async () => {
      clock.slept.length = 0;
      for (let i = 0; i < 30; i++) expect((await signIn("127.0.4.1", `guess-${i}@demo.local`, "wrong")).status).toBe(401);
      expect((await signIn("127.0.4.1", OWNER, PASSWORD)).status).toBe(429);
      expect((await signIn("127.0.4.1", "guess-30@demo.local", "wrong")).status).toBe(429);
      expect((await signIn("127.0.4.2", OWNER, PASSWORD)).status).toBe(200);
      // One failure per account slows none of them down.
      expect(clock.slept.splice(0)).toEqual([]);
      clock.advance(15 * 60_000);
      expect((await signIn("127.0.4.1", OWNER, PASSWORD)).status).toBe(200);
    });

    it("item 6: parallel guesses from one address cannot all slip under its limit", async () => {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn("127.0.5.1", "manager@demo.local", `wrong ${i}`)));
      expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
      clock.advance(15 * 60_000);
    });
  });
});
