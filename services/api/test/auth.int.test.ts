import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

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

  it("throttles repeated failures per e-mail with a 429 and a clear message", async () => {
    const email = "night@demo.local";
    for (let i = 0; i < 5; i++) {
      expect((await api.call("POST", "/admin/admin-login", { email, password: `wrong ${i}` })).status).toBe(401);
    }
    const blocked = await api.call("POST", "/admin/admin-login", { email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    // Another account from the same address is not blocked by this one's failures.
    expect((await api.call("POST", "/admin/admin-login", { email: "telecaller@demo.local", password: PASSWORD })).status).toBe(200);
  });
});
