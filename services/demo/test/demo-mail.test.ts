import { describe, expect, it } from "vitest";
import {
  DEMO_MAIL_RETRY_DELAYS_MS,
  DEMO_REMINDER_AFTER_HOURS,
  demoDocumentStory,
  type DemoDocumentStory,
  type DemoMail,
} from "../src/demo-mail.ts";

/*
 * Issue 12, demo data: what became of a completed demo order's document (ORDER-2 Email History,
 * ORDER-8 / PUBLIC-2 Download History). The seeding records these stories through the deciders;
 * here the stories themselves: their spread, their clock, and that they are the same every time.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date("2026-06-15T09:30:00.000Z");
const home = { country: "Philippines" };

/** 600 uploads spread over the 50 days before `now`, one order each. */
const uploads = Array.from({ length: 600 }, (_, i) => ({
  orderId: String(100_001 + i),
  uploadedAt: new Date(now.getTime() - 50 * DAY + Math.floor((i / 600) * 50 * DAY)),
}));
const stories = uploads.map(({ orderId, uploadedAt }) => ({ uploadedAt, story: demoDocumentStory({ seed: 2026, orderId, uploadedAt, now, home }) }));
const all = stories.map((s) => s.story);
const mails = (story: DemoDocumentStory): DemoMail[] => [story.mail, ...(story.reminder ? [story.reminder.mail] : [])];

describe("issue 12 demo data: a completed order's document, mails and downloads", () => {
  it("is the same story for the same seed, order, upload and now, and another for another seed", () => {
    const again = uploads.map(({ orderId, uploadedAt }) => demoDocumentStory({ seed: 2026, orderId, uploadedAt, now, home }));
    expect(again).toEqual(all);
    const other = uploads.map(({ orderId, uploadedAt }) => demoDocumentStory({ seed: 2027, orderId, uploadedAt, now, home }));
    expect(other.map((s) => s.mail.outcome)).not.toEqual(all.map((s) => s.mail.outcome));
  });

  it("uploads mostly PDFs and some images, mailed mostly through AWS (ses) and some through Sendgrid", () => {
    const kinds = Map.groupBy(all, (s) => s.document.contentType);
    expect(kinds.get("application/pdf")!.length).toBeGreaterThan(400);
    expect(kinds.get("image/png")!.length).toBeGreaterThan(60);
    for (const s of all) {
      expect(s.document.fileName).toMatch(s.document.contentType === "image/png" ? /\.png$/ : /\.pdf$/);
      for (const mail of mails(s)) expect(mail.transport).toBe(s.provider === "AWS" ? "ses" : "sendgrid");
    }
    expect(all.filter((s) => s.provider === "Sendgrid").length).toBeGreaterThan(90);
  });

  it("ORDER-2: mostly delivered, some bounced (5.1.1, codes only as the webhooks keep them), a few failed for good", () => {
    const outcomes = Map.groupBy(all, (s) => s.mail.outcome);
    expect(outcomes.get("delivered")!.length).toBeGreaterThan(450);
    expect(outcomes.get("bounced")!.length).toBeGreaterThan(25);
    expect(outcomes.get("failed")!.length).toBeGreaterThan(8);
    expect(outcomes.get("failed")!.length).toBeLessThan(outcomes.get("bounced")!.length);
    for (const s of outcomes.get("bounced")!) {
      expect(s.mail.steps.map((step) => step.type)).toEqual(["queued", "sent", "bounced"]);
      expect(s.mail.steps.at(-1)).toMatchObject({ reason: s.provider === "AWS" ? "Permanent/General (5.1.1)" : "bounce (5.1.1)" });
    }
    for (const s of outcomes.get("delivered")!) expect(s.mail.steps.map((step) => step.type)).toEqual(["queued", "sent", "delivered"]);
  });

  it("a failed mail is retried on the backoff while the failure passes, and then stays failed with no retry", () => {
    const failed = all.filter((s) => s.mail.outcome === "failed").map((s) => s.mail);
    expect(failed.some((m) => m.steps.length === 2)).toBe(true); // refused for good at once
    expect(failed.some((m) => m.steps.length === 2 * (DEMO_MAIL_RETRY_DELAYS_MS.length + 1))).toBe(true);
    for (const mail of failed) {
      const steps = mail.steps;
      expect(steps.some((s) => s.type === "sent")).toBe(false);
      steps.forEach((step, i) => {
        expect(step.type).toBe(i % 2 === 0 ? "queued" : "failed");
        expect("attempt" in step && step.attempt).toBe(Math.floor(i / 2) + 1);
      });
      for (let i = 1; i + 1 < steps.length; i += 2) {
        // The next attempt waits for the retry the decider will set: never before it is due.
        expect(steps[i + 1]!.at.getTime() - steps[i]!.at.getTime()).toBeGreaterThanOrEqual(DEMO_MAIL_RETRY_DELAYS_MS[(i - 1) / 2]!);
        expect(steps[i]).toMatchObject({ permanent: false });
      }
    }
  });

  it("keeps the clock: mail seconds after the upload, the report minutes later, downloads hours later, nothing after now", () => {
    for (const { uploadedAt, story } of stories) {
      const upload = uploadedAt.getTime();
      const [queued, second, third] = story.mail.steps;
      expect(queued!.at.getTime() - upload).toBeGreaterThanOrEqual(1000);
      expect(queued!.at.getTime() - upload).toBeLessThan(10_000);
      if (story.mail.outcome !== "failed") {
        const reportAfter = third!.at.getTime() - second!.at.getTime();
        expect(reportAfter).toBeGreaterThanOrEqual(5000);
        expect(reportAfter).toBeLessThan(15 * 60_000);
      }
      for (const mail of mails(story)) {
        const times = mail.steps.map((s) => s.at.getTime());
        expect(times).toEqual([...times].sort((a, b) => a - b));
        expect(Math.max(...times)).toBeLessThanOrEqual(now.getTime());
      }
      const downloads = story.downloads.map((d) => d.at.getTime());
      expect(downloads).toEqual([...downloads].sort((a, b) => a - b));
      for (const at of downloads) {
        expect(at - upload).toBeGreaterThanOrEqual(20 * 60_000);
        expect(at).toBeLessThanOrEqual(now.getTime());
      }
    }
  });

  it("an upload a minute ago has its mail already settled, at most at now: no attempt in flight, no failure still retrying", () => {
    for (let i = 0; i < 200; i++) {
      const story = demoDocumentStory({ seed: 2026, orderId: String(200_000 + i), uploadedAt: new Date(now.getTime() - 60_000), now, home });
      // Only a refusal for good fits in a minute; the backoff's attempts would still be to come.
      if (story.mail.outcome === "failed") expect(story.mail.steps.map((s) => s.type)).toEqual(["queued", "failed"]);
      else expect(story.mail.steps.map((s) => s.type)).toEqual(["queued", "sent", story.mail.outcome]);
      expect(story.mail.steps.at(-1)!.at.getTime()).toBeLessThanOrEqual(now.getTime());
      expect(story.reminder).toBeUndefined();
      expect(story.downloads).toEqual([]);
    }
  });

  it("reminds (Remainder Mail = Yes) every document not downloaded within the reminder time, so the mail schedule has none left to send", () => {
    const reminded = stories.filter((s) => s.story.reminder !== undefined);
    expect(reminded.length).toBeGreaterThan(60);
    expect(reminded.length).toBeLessThan(stories.length / 2);
    for (const { uploadedAt, story } of stories) {
      const due = uploadedAt.getTime() + DEMO_REMINDER_AFTER_HOURS * HOUR;
      const downloadedInTime = story.downloads.some((d) => d.at.getTime() <= due);
      if (due + 15_000 < now.getTime()) expect(story.reminder !== undefined || downloadedInTime, `order uploaded ${uploadedAt.toISOString()}`).toBe(true);
      if (story.reminder) {
        expect(downloadedInTime).toBe(false);
        expect(story.reminder.at.getTime()).toBeGreaterThanOrEqual(due);
        expect(story.reminder.at.getTime() - due).toBeLessThan(60_000);
        // The same address: a bounced one bounces again.
        expect(story.reminder.mail.outcome).toBe(story.mail.outcome === "bounced" ? "bounced" : "delivered");
        for (const d of story.downloads) expect(d.at.getTime()).toBeGreaterThan(story.reminder.at.getTime());
      }
    }
    // Another reminder time (REMINDER_AFTER_HOURS=2): the reminders go two hours after the upload.
    const early = uploads.map(({ orderId, uploadedAt }) => ({ uploadedAt, story: demoDocumentStory({ seed: 2026, orderId, uploadedAt, now, home, reminderAfterHours: 2 }) }));
    const remindedEarly = early.filter(({ story }) => story.reminder !== undefined);
    expect(remindedEarly.length).toBeGreaterThan(60);
    for (const { uploadedAt, story } of remindedEarly) {
      const after = story.reminder!.at.getTime() - uploadedAt.getTime();
      expect(after).toBeGreaterThanOrEqual(2 * HOUR);
      expect(after).toBeLessThan(2 * HOUR + 60_000);
    }
  });

  it("PUBLIC-2: most delivered documents are downloaded, with a documentation IP, device, browser, OS, location and time zone", () => {
    const delivered = all.filter((s) => s.mail.outcome === "delivered");
    expect(delivered.filter((s) => s.downloads.length > 0).length / delivered.length).toBeGreaterThan(0.75);
    expect(all.some((s) => s.downloads.length > 1)).toBe(true);
    const downloads = all.flatMap((s) => s.downloads);
    const documentation = /^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$|^2001:db8:/;
    for (const d of downloads) {
      expect(d.ip).toMatch(documentation);
      // As the tracker records them (bowser): name and major version, the OS with its version.
      expect(d.browser).toMatch(/^(Chrome|Safari|Microsoft Edge|Firefox|Opera)-\d+$/);
      expect(d.os).toMatch(/^(Android|iOS|Windows|macOS|Linux)( .+)?$/);
      expect(["Mobile", "Tablet", "Desktop"]).toContain(d.deviceType);
      expect(d.location).toBe("Philippines");
      expect(d.timezone).toBe("Asia/Manila");
    }
    expect(new Set(downloads.map((d) => d.deviceType)).size).toBe(3);
    expect(downloads.some((d) => d.ip.includes(":"))).toBe(true);
    const abroad = demoDocumentStory({ seed: 2026, orderId: "100007", uploadedAt: uploads[6]!.uploadedAt, now, home: { country: "United Arab Emirates" } });
    for (const d of abroad.downloads) expect(d).toMatchObject({ location: "United Arab Emirates", timezone: "Asia/Dubai" });
  });

  it("gives each mail attempt a provider message id in the provider's own shape, and each report its own id", () => {
    const ids = new Set<string>();
    for (const s of all) {
      for (const mail of mails(s)) {
        for (const step of mail.steps) {
          if (step.type === "sent") {
            expect(step.providerMessageId).toMatch(mail.transport === "ses" ? /^0100019[0-9a-f]{9}-[0-9a-f-]{36}-000000$/ : /^[A-Za-z0-9_-]{22}$/);
            ids.add(step.providerMessageId);
          }
          if (step.type === "delivered" || step.type === "bounced") ids.add(step.providerEventId);
        }
      }
    }
    const expected = all.flatMap(mails).reduce((n, mail) => n + mail.steps.filter((s) => ["sent", "delivered", "bounced"].includes(s.type)).length, 0);
    expect(ids.size).toBe(expected);
  });
});
