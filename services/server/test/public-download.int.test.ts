import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleOrder, trackOrder } from "./support/public-visitor.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 13 review (attacker's view), PUBLIC-2, R8: a grant holder's burst of downloads. The
 * download history is evidence in disputes and a page the traveller reads: a repeat within a
 * minute records nothing more (the order decider's rule), so a burst cannot grow it, and no
 * download waits for a row it did not add. The answer carries the link only. The link itself,
 * opened without the download call first, is recorded as well (issue 28's attacker review).
 */

const available = await postgresAvailable();

const pdf = Buffer.from("%PDF-1.7\n% attack\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

describe.skipIf(!available)("issue 13: a burst of public downloads (PUBLIC-2, R8)", () => {
  let api: TestApi;
  let orderId: string;
  /** An order whose document nobody has downloaded through the tracker's download call. */
  let linkedOrderId: string;

  beforeAll(async () => {
    api = await startTestApi();
    [orderId, linkedOrderId] = (await api.placeOrders(2)) as [string, string];
    const team = await api.login("Team");
    for (const order of [orderId, linkedOrderId]) {
      const form = new FormData();
      form.append("orderId", order);
      form.append("email", "traveller@example.com");
      form.append("uploadVisaDoc", new Blob([new Uint8Array(pdf)]), "etravel.pdf");
      const uploaded = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: team } });
      expect(uploaded.status, await uploaded.clone().text()).toBe(200);
      await settleOrder(api, order);
    }
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

  it("PUBLIC-2, issue 28 review: the document link opened straight away, without the download call, is recorded too; HEAD and a repeat within a minute add nothing", async () => {
    const cookie = await trackOrder(api, linkedOrderId);
    const link = `${api.base}/uploads/docs/${linkedOrderId}/etravel.pdf`;
    const downloads = async () => (await api.runtime.deps.store.readStream(`order-${linkedOrderId}`)).filter((event) => event.type === "DocumentDownloaded").length;

    const head = await fetch(link, { method: "HEAD", headers: { cookie } });
    expect(head.status).toBe(200);
    expect(await downloads()).toBe(0);

    const first = await fetch(link, { headers: { cookie, "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0" } });
    expect(first.status).toBe(200);
    expect(Buffer.from(await first.arrayBuffer())).toEqual(pdf);
    expect(await downloads()).toBe(1);

    const again = await fetch(link, { headers: { cookie } });
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    expect(await downloads()).toBe(1);

    // What the traveller and the staff read: the download, with the device the link was opened from.
    await settleOrder(api, linkedOrderId);
    const history = await fetch(`${api.base}/api/front/get-download-history`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ orderId: linkedOrderId }),
    });
    const rows = ((await history.json()) as { data: Record<string, unknown>[] }).data;
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).toContain("Firefox-133");
  });

  it("PUBLIC-2: a visitor's link to a name that is not the order's document is refused and records nothing", async () => {
    const cookie = await trackOrder(api, linkedOrderId);
    const before = (await api.runtime.deps.store.readStream(`order-${linkedOrderId}`)).length;
    const response = await fetch(`${api.base}/uploads/docs/${linkedOrderId}/other.pdf`, { headers: { cookie } });
    expect(response.status).toBe(404);
    expect((await api.runtime.deps.store.readStream(`order-${linkedOrderId}`)).length).toBe(before);
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
