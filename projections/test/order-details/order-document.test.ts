import { describe, expect, it } from "vitest";
import { OrderApplication, OrderPersonalFields, type OrderPlaced } from "@etd/events";
import { usEastern } from "@etd/contract";
import { maskIp } from "../../src/order-details/order-details-queries.ts";
import { customerName, placedDocument, withoutPersonalData } from "../../src/order-details/order-document.ts";
import { demoInputs } from "./support/story.ts";

describe("comment times in US Eastern (ORDER-9)", () => {
  it("follows daylight saving: EDT in March after the 9th, EST in January", () => {
    expect(usEastern("2025-03-14T13:22:03.000Z")).toEqual({ date: "03/14/2025", time: "09:22:03 AM", zone: "EDT" });
    expect(usEastern("2025-01-10T03:30:15.000Z")).toEqual({ date: "01/09/2025", time: "10:30:15 PM", zone: "EST" });
  });

  it("writes noon and midnight as 12", () => {
    expect(usEastern("2025-07-04T16:00:00.000Z").time).toBe("12:00:00 PM");
    expect(usEastern("2025-07-04T04:00:00.000Z")).toEqual({ date: "07/04/2025", time: "12:00:00 AM", zone: "EDT" });
  });
});

describe("the public page's IP column (PUBLIC-2)", () => {
  it("keeps the network part only", () => {
    expect(maskIp("198.51.100.7")).toBe("198.51.100.xxx");
    expect(maskIp("2001:db8:85a3::8a2e:370:7348")).toBe("2001:db8:85a3:xxxx");
    // Shortened addresses are expanded first: the host part never shows (issue 13 review).
    expect(maskIp("2001:db8::1")).toBe("2001:db8:0:xxxx");
    expect(maskIp("::1")).toBe("0:0:0:xxxx");
    expect(maskIp(null)).toBeNull();
  });
});

describe("erasing the person from the order document", () => {
  const input = demoInputs(40).find((o) => o.personal.instrument_information !== undefined) ?? demoInputs(40)[0]!;
  const data = { ...input, personal: input.personal } as OrderPlaced["data"];

  it("drops every personal field of the catalogue and keeps every application field", () => {
    // Every personal key filled, so none can slip through because the demo left it out.
    const everyPersonalKey = Object.fromEntries(Object.keys(OrderPersonalFields).map((key) => [key, key === "overseas_filipino_worker" ? 1 : "x"]));
    const full = placedDocument({ ...data, personal: { ...everyPersonalKey, email: "a@example.com" } as OrderPlaced["data"]["personal"] });
    const erased = withoutPersonalData(full);
    for (const key of Object.keys(OrderPersonalFields)) expect(erased, key).not.toHaveProperty(key);
    for (const key of Object.keys(input.application)) expect(erased, key).toHaveProperty(key);
    // Issue 25: only closed-set answers stay (trip type, dates, counts, yes/no, amounts): 30 of them.
    expect(Object.keys(OrderApplication.fields).length).toBeGreaterThan(25);
    expect(erased).toMatchObject({ order_id: input.orderId, processing_date: input.processingDate, process_status: "New" });
  });

  it("names the traveller in the upload list until erased (ORDER-3)", () => {
    expect(customerName({ first_name: "Juan", middle_name: "Santos", last_name: "Dela Cruz", suffix: "Jr." })).toBe("Juan Santos Dela Cruz Jr.");
    expect(customerName(withoutPersonalData(placedDocument(data)))).toBe("");
  });
});
