import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MailRejected, outboxMailer, sendgridMailer, sesMailer, withoutAddresses } from "../src/index.ts";
import { closedPort, sampleMail } from "./sample.ts";

/* Issue 25: the mail side asks the one address rule, and scrubs providers' texts in one pass. */

describe("recipients the one address rule refuses (issue 25)", () => {
  it("are refused for good by every adapter before any provider is asked, and the outbox writes nothing", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "etd-addresses-"));
    try {
      // Providers on a closed port: were they asked, the answer would be MailUnavailable, not MailRejected.
      const nowhere = `http://127.0.0.1:${await closedPort()}`;
      const adapters = [
        outboxMailer(path.join(dataDir, "outbox")),
        sesMailer({ region: "eu-west-1", accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret", endpoint: nowhere }),
        sendgridMailer({ apiKey: "SG.test", baseUrl: nowhere }),
      ];
      for (const adapter of adapters) {
        for (const to of ["a,c@d.co", "a@b.co,", "Ada <ada@example.com>", "a@b.co;c@d.co", "ada@example"]) {
          const refused = await adapter.send(sampleMail({ to })).catch((error: unknown) => error);
          expect(refused, `${adapter.transport} ${to}`).toBeInstanceOf(MailRejected);
          expect((refused as MailRejected).providerText).toBe("The recipient is not an e-mail address a mail can go to.");
        }
      }
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("withoutAddresses", () => {
  it("replaces each address a provider quoted, and nothing else", () => {
    expect(withoutAddresses("550 5.1.1 <ann@example.com>: Recipient address rejected")).toBe("550 5.1.1 <[recipient]>: Recipient address rejected");
    expect(withoutAddresses("to: bob.smith+x@mail.example.org, carol@example.net; done")).toBe("to: [recipient], [recipient]; done");
    expect(withoutAddresses("Throttling: Maximum sending rate exceeded.")).toBe("Throttling: Maximum sending rate exceeded.");
    expect(withoutAddresses("@ alone, a@b and x@.y stay")).toBe("@ alone, a@b and x@.y stay");
  });

  it("takes one pass over a long text without an address (a pattern for the address moved quadratically over it)", () => {
    const started = performance.now();
    expect(withoutAddresses("a".repeat(2_000_000))).toHaveLength(2_000_000);
    expect(withoutAddresses(`${"a".repeat(1_000_000)}@`)).toHaveLength(1_000_001);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
