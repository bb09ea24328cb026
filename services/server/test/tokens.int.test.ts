import { createHmac } from "node:crypto";
import jwt from "jsonwebtoken";
import { StaffId } from "@etd/events";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTokenIssuer } from "@etd/api/internal/auth/tokens.ts";
import { JWT_SECRET, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, any>;

const USER = { id: StaffId.make("7f3c2a"), name: "Ada Admin", type: "Admin" } as const;
/** The session id every token now carries (sign-out revokes by it). */
const SID = "0b6f7c1e-session";

/*
 * Issue 9 item 8: a token signed with the right secret but without `exp` never expires, so it is
 * refused. Each refusal is paired with a control that differs only in the point under test, so
 * the test fails if the secret, the payload or the algorithm were what made it fail.
 */
describe("issue 9 item 8 (AUTH-4): session tokens must expire", () => {
  const issuer = createTokenIssuer(JWT_SECRET, 3600);
  it("accepts a correctly signed token with exp (the control)", () => {
    const exp = now() + 60;
    const token = jwt.sign({ user: USER, gen: 0, sid: SID, exp }, JWT_SECRET, { algorithm: "HS256" });
    expect(issuer.verify(token)).toEqual({ user: USER, sessionGeneration: 0, sessionId: SID, expiresAt: exp * 1000 });
  });

  it("refuses a correctly signed token that has no exp", () => {
    const token = jwt.sign({ user: USER, gen: 0, sid: SID }, JWT_SECRET, { algorithm: "HS256" });
    expect(payloadOf(token)).not.toHaveProperty("exp");
    expect(issuer.verify(token)).toBeUndefined();
  });

  it("refuses an exp that is not a number, and an exp in the past", () => {
    expect(issuer.verify(jwt.sign({ user: USER, gen: 0, sid: SID, exp: now() - 1 }, JWT_SECRET, { algorithm: "HS256" }))).toBeUndefined();
    // jsonwebtoken refuses to sign a non-numeric exp itself: forge it by hand.
    const header = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
    const body = Buffer.from(JSON.stringify({ user: USER, gen: 0, sid: SID, exp: "never" })).toString("base64url");
    const signature = signHs256(`${header}.${body}`);
    expect(issuer.verify(`${header}.${body}.${signature}`)).toBeUndefined();
  });

  it("issues tokens that carry exp = iat + the session's lifetime", () => {
    const payload = payloadOf(issuer.issue(USER, 3));
    expect(payload.exp - payload.iat).toBe(3600);
    expect(payload.gen).toBe(3);
  });
});

describe.skipIf(!available)("issue 9 item 8 over HTTP: a token without exp does not sign anyone in", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("GET /user_info answers 401 for the admin's own session re-signed without exp, 200 with it", async () => {
    const issued = payloadOf(await api.login("Admin"));
    const { user, gen, sid } = issued;
    const withExp = jwt.sign({ user, gen, sid, exp: now() + 300 }, JWT_SECRET, { algorithm: "HS256" });
    const withoutExp = jwt.sign({ user, gen, sid }, JWT_SECRET, { algorithm: "HS256" });

    const accepted = await api.call("GET", "/user_info", undefined, `Bearer ${withExp}`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ id: api.staff.Admin.id, type: "Admin" });

    const refused = await api.call("GET", "/user_info", undefined, `Bearer ${withoutExp}`);
    expect(refused).toEqual({ status: 401, body: { status: 0, message: "Your session has expired or is not valid. Please sign in again.", data: null } });
  });
});

const now = () => Math.floor(Date.now() / 1000);

const signHs256 = (input: string) => createHmac("sha256", JWT_SECRET).update(input).digest("base64url");
