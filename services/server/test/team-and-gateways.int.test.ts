import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("Manage Team and Gateway Setting", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("ADMIN-1: each team form message of 000 §5", async () => {
    const manager = await api.login("Manager");
    const valid = { name: "Rosa Lim", email: "rosa@demo.local", password: "secret1", type: "Team" };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, name: "" }, "Please enter your name."],
      [{ ...valid, name: undefined }, "Please enter your name."],
      [{ ...valid, email: "" }, "Please enter your email."],
      [{ ...valid, email: "rosa" }, "Please enter a valid email."],
      [{ ...valid, password: "" }, "Please enter your password."],
      [{ ...valid, type: "" }, "Please select type."],
      [{ ...valid, type: "Owner" }, "Please select type."],
    ];
    for (const [body, message] of cases) {
      const answer = await api.call("POST", "/admin/add-team-member", body, manager);
      expect(answer, message).toMatchObject({ status: 400, body: { status: 0, message } });
    }
  });

  it("ADMIN-1: add, sign in, update, and delete a member; deletion ends their sessions", async () => {
    const admin = await api.login("Admin");
    const added = await api.call("POST", "/admin/add-team-member", { name: "Rosa Lim", email: "rosa@demo.local", password: "secret1", type: "Telecaller" }, admin);
    expect(added.body).toMatchObject({ status: 1, message: "Team member added successfully." });
    const id = added.body.data.id as string;
    const duplicate = await api.call("POST", "/admin/add-team-member", { name: "Other", email: "ROSA@demo.local", password: "secret1", type: "Team" }, admin);
    expect(duplicate).toMatchObject({ status: 409, body: { message: "This email is already used by another team member." } });

    const rosa = (await api.call("POST", "/admin/admin-login", { email: "rosa@demo.local", password: "secret1" })).body.jwtToken as string;
    const updated = await api.call("POST", "/admin/update-team-member", { tmId: id, name: "Rosa M. Lim", email: "rosa@demo.local", password: "", type: "Team" }, admin);
    expect(updated.body).toMatchObject({ status: 1, message: "Team member updated successfully." });
    // A new name and role apply to the running session; the password did not change.
    expect((await api.call("GET", "/user_info", undefined, rosa)).body.data).toMatchObject({ name: "Rosa M. Lim", type: "Team" });

    const deleted = await api.call("PUT", "/admin/delete-team-member", { teamMemberId: id }, admin);
    expect(deleted.body).toEqual({ status: 1, message: "Team member deleted successfully.", data: { position: expect.stringMatching(/^\d+\.\d+$/) } });
    expect((await api.call("GET", "/user_info", undefined, rosa)).status).toBe(401);
    expect((await api.call("POST", "/admin/admin-login", { email: "rosa@demo.local", password: "secret1" })).status).toBe(401);
    expect((await api.call("PUT", "/admin/delete-team-member", { teamMemberId: id }, admin)).status).toBe(404);

    const events = await api.runtime.deps.store.readStream(`staff-${id}`);
    expect(events.map((e) => e.type)).toEqual(["StaffMemberAdded", "StaffMemberUpdated", "StaffMemberDeleted"]);
    expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.toContain("secret1");
  });

  it("a request id is kept only as a UUID: any other text a caller sends is replaced, since metadata outlives an erasure", async () => {
    const admin = await api.login("Admin");
    const add = async (email: string, requestId: string) => {
      const response = await fetch(`${api.base}/api/admin/add-team-member`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: admin, "x-request-id": requestId },
        body: JSON.stringify({ name: "Id Probe", email, password: "secret1", type: "Team" }),
      });
      const body = (await response.json()) as { data: { id: string } };
      const [added] = await api.runtime.deps.store.readStream(`staff-${body.data.id}`);
      return added!.metadata.correlationId;
    };
    const uuid = "0D5F2C1A-7B3E-4C9D-8E2F-1A2B3C4D5E6F";
    expect(await add("id-probe-1@demo.local", uuid)).toBe(uuid.toLowerCase());
    const chosen = await add("id-probe-2@demo.local", "traveller-name-Ann-Smith");
    expect(chosen).not.toContain("Ann");
    expect(chosen).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("nobody deletes their own account", async () => {
    const answer = await api.call("PUT", "/admin/delete-team-member", { teamMemberId: api.staff.Manager.id }, await api.login("Manager"));
    expect(answer).toMatchObject({ status: 403, body: { status: 0, message: "You cannot delete your own account." } });
    expect((await api.call("POST", "/admin/admin-login", { email: "manager@demo.local", password: PASSWORD })).status).toBe(200);
  });

  it("ADMIN-2: 'Please select a gateway.'; selecting makes exactly one gateway active per domain", async () => {
    const admin = await api.login("Admin");
    const store = api.runtime.deps.store;
    const { randomUUID } = await import("node:crypto");
    await store.append(
      "gateways",
      ["stripe", "paypal"].map((gatewayId) => ({
        eventId: randomUUID(),
        type: "GatewayRegistered",
        schemaVersion: 1,
        data: { gatewayId, gatewayName: gatewayId === "stripe" ? "Stripe" : "PayPal" },
        metadata: { actor: { kind: "system", name: "setup" }, correlationId: "setup", occurredAt: new Date().toISOString() },
      })),
      { expectedVersion: "no_stream" },
    );
    for (const body of [{}, { gatewayDetails: {} }, { gatewayDetails: { gatewayId: "", isSecondaryDomain: 0 } }]) {
      expect((await api.call("POST", "/admin/payment-gateway-setting", body, admin)).body).toMatchObject({ status: 0, message: "Please select a gateway." });
    }
    const unknown = await api.call("POST", "/admin/payment-gateway-setting", { gatewayDetails: { gatewayId: "nope", isSecondaryDomain: 0 } }, admin);
    expect(unknown).toMatchObject({ status: 404, body: { message: "The selected gateway was not found." } });

    for (const [gatewayId, isSecondaryDomain] of [["stripe", 0], ["paypal", 0], ["stripe", 1]] as const) {
      const answer = await api.call("POST", "/admin/payment-gateway-setting", { gatewayDetails: { gatewayId, isSecondaryDomain } }, admin);
      expect(answer.body).toMatchObject({ status: 1, message: "Payment gateway has been updated successfully." });
    }
    const selected = (await store.readStream("gateways")).filter((e) => e.type === "GatewaySelected").map((e) => e.data);
    expect(selected).toEqual([
      { gatewayId: "stripe", domain: "primary" },
      { gatewayId: "paypal", domain: "primary", previousGatewayId: "stripe" },
      { gatewayId: "stripe", domain: "secondary" },
    ]);
  });
});
