import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleOrder, trackOrder } from "./support/public-visitor.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 13 review (attacker's view), PUBLIC-2, R8: a grant holder's burst of downloads. The
 * download history is evidence in disputes and a page the traveller reads: a repeat within a
 * minute records nothing more (the order decider's rule), so a burst cannot grow it, and no
 * download waits for a row it did not add. The answer carries the link only.
 */

const available = await postgresAvailable();

const pdf = Buffer.from("%PDF-1.7\n% attack\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

describe.skipIf(!available)("issue 13: a burst of public downloads (PUBLIC-2, R8)", () => {
  let api: TestApi;
  let orderId: string;

  beforeAll(async () => {
    api = await startTestApi();
    [orderId] = (await api.placeOrders(1)) as [string];
    const form = new FormData();
    form.append("orderId", orderId);
    form.append("email", "traveller@example.com");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(pdf)]), "etravel.pdf");
    const uploaded = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: await api.login("Team") } });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    await settleOrder(api, orderId);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it("PUBLIC-2, R8: 25 concurrent downloads by one grant holder are all served and recorded once", async () => {
    const cookie = await trackOrder(api, orderId);
    const answers = await Promise.all(
      Array.from({ length: 25 }, async () => {
        const response = await fetch(`${api.base}/api/front/download-passport-doc-pdf`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({ orderId, customername: "Juan", file1: "etravel.pdf" }),
        });
        return { status: response.status, body: (await response.json()) as { status: number; data: { link: string } } };
      }),
    );
    expect(answers.map((a) => [a.status, a.body.status, a.body.data.link])).toEqual(Array(25).fill([200, 1, `/uploads/docs/${orderId}/etravel.pdf`]));
    const history = await fetch(`${api.base}/api/front/get-download-history`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ orderId }),
    });
    expect(((await history.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it("PUBLIC-2: the public download answer carries the link only, not the event store's position", async () => {
    const cookie = await trackOrder(api, orderId);
    const response = await fetch(`${api.base}/api/front/download-passport-doc-pdf`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ orderId, customername: "Juan", file1: "etravel.pdf" }),
    });
    const body = (await response.json()) as { data: Record<string, unknown> };
    expect(Object.keys(body.data)).toEqual(["link"]);
  });
});
