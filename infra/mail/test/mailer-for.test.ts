import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_MAIL_FROM, mailerFor, mailSettingsFrom } from "../src/index.ts";
import { sampleMail } from "./sample.ts";

/* Issue 12: settings validated at start; DESIGN §8: a provider without credentials writes to the outbox. */

let dataDir = "";
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "etd-mail-settings-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const AWS = { AWS_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret" };
const SENDGRID = { SENDGRID_API_KEY: "SG.example-key" };

describe("mailerFor and mail settings (issue 12, CROSS-4)", () => {
  it("without credentials, both labels write to DATA_DIR/outbox and say so", async () => {
    const { settings, problems } = mailSettingsFrom({}, dataDir);
    expect(problems).toEqual([]);
    expect(settings.from).toBe(DEFAULT_MAIL_FROM);
    for (const provider of ["AWS", "Sendgrid"] as const) {
      const choice = mailerFor(provider, settings);
      expect(choice.mailer.transport).toBe("outbox");
      expect(choice.description).toContain(path.join(dataDir, "outbox"));
      await choice.mailer.send(sampleMail());
    }
    expect(await readdir(path.join(dataDir, "outbox"))).toHaveLength(2);
  });

  it("with credentials, each label gets its provider, and only its own", () => {
    const { settings, problems } = mailSettingsFrom({ ...AWS, ...SENDGRID, SES_ENDPOINT: "http://127.0.0.1:8005", SENDGRID_BASE_URL: "http://127.0.0.1:9000/" }, dataDir);
    expect(problems).toEqual([]);
    expect(mailerFor("AWS", settings).mailer.transport).toBe("ses");
    expect(mailerFor("AWS", settings).description).toBe("AWS mail goes to the SES endpoint http://127.0.0.1:8005");
    expect(mailerFor("Sendgrid", settings).mailer.transport).toBe("sendgrid");

    const awsOnly = mailSettingsFrom(AWS, dataDir).settings;
    expect(mailerFor("AWS", awsOnly).mailer.transport).toBe("ses");
    expect(mailerFor("Sendgrid", awsOnly).mailer.transport).toBe("outbox");
    const sendgridOnly = mailSettingsFrom(SENDGRID, dataDir).settings;
    expect(mailerFor("AWS", sendgridOnly).mailer.transport).toBe("outbox");
    expect(mailerFor("Sendgrid", sendgridOnly).mailer.transport).toBe("sendgrid");
  });

  it("reports every problem at once, each naming its setting", () => {
    const { problems, settings } = mailSettingsFrom(
      { MAIL_FROM: "not an address", AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_REGION: "Europe", SES_ENDPOINT: "ftp://x", SENDGRID_API_KEY: "abc" },
      dataDir,
    );
    expect(problems).toEqual([
      'MAIL_FROM must be an e-mail address, optionally as "Name <address>" (got "not an address")',
      "AWS_SECRET_ACCESS_KEY is required when AWS_ACCESS_KEY_ID is set",
      'AWS_REGION must be an AWS region such as eu-west-1 (got "Europe")',
      'SES_ENDPOINT must be an http:// or https:// URL (got "ftp://x")',
      'SENDGRID_API_KEY must be a SendGrid API key (it starts with "SG.")',
    ]);
    expect(settings.ses).toBeUndefined();
    expect(mailSettingsFrom({ AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "b" }, dataDir).problems).toEqual([
      "AWS_REGION is required when AWS credentials are set (the SES region, e.g. eu-west-1)",
    ]);
    expect(mailSettingsFrom({ SENDGRID_BASE_URL: "http://127.0.0.1:9000" }, dataDir).problems).toEqual([
      "SENDGRID_BASE_URL is set but SENDGRID_API_KEY is not (without it mail goes to the outbox)",
    ]);
    expect(mailSettingsFrom({ MAIL_FROM: "Support <help@etd.example>" }, dataDir).problems).toEqual([]);
  });
});
