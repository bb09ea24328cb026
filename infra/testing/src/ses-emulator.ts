import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import { createRequire } from "node:module";

/*
 * aws-ses-v2-local (the SES emulator) as a child process on 127.0.0.1, behind a small recording
 * proxy. The emulator keeps what it receives but neither our Message-ID header nor the message
 * tags, so the proxy notes, for every SendRawEmail the emulator accepted, the emulator's message
 * id with our Message-ID and tags: a test can then say which mail request each stored message
 * answers. Stopped by pid.
 */

export interface RecordedSend {
  /** The emulator's MessageId (what the SDK answered). */
  readonly providerMessageId: string;
  /** Our Message-ID header, without angle brackets. */
  readonly messageId: string;
  readonly tags: Readonly<Record<string, string>>;
}

export interface StoredEmail {
  readonly messageId: string;
  readonly from: string;
  readonly destination: { readonly to: readonly string[] };
  readonly subject: string;
  readonly body: { readonly text?: string; readonly html?: string };
  readonly attachments: readonly { readonly filename?: string; readonly contentType: string; readonly content: string }[];
}

export interface SesEmulator {
  /** The URL to give the SDK (SES_ENDPOINT): the recording proxy. */
  readonly endpoint: string;
  /** The emulator itself, for its /store. */
  readonly emulatorUrl: string;
  readonly sends: readonly RecordedSend[];
  stored(): Promise<StoredEmail[]>;
  /** Empties the emulator's store and the proxy's record. */
  clear(): Promise<void>;
  stop(): Promise<void>;
}

const tagsOf = (form: URLSearchParams): Record<string, string> => {
  const tags: Record<string, string> = {};
  for (let i = 1; form.has(`Tags.member.${i}.Name`); i++) tags[form.get(`Tags.member.${i}.Name`)!] = form.get(`Tags.member.${i}.Value`) ?? "";
  return tags;
};

const messageIdOf = (form: URLSearchParams): string => {
  const raw = Buffer.from(form.get("RawMessage.Data") ?? "", "base64").toString("utf8");
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const line = head.split(/\r?\n/).find((header) => /^message-id:/i.test(header));
  return line ? line.slice("Message-ID:".length).trim().replace(/^<|>$/g, "") : "";
};

export const startSesEmulator = async (): Promise<SesEmulator> => {
  const cli = createRequire(import.meta.url).resolve("aws-ses-v2-local/dist/cli.js");
  const emulator: ChildProcess = spawn(process.execPath, [cli, "--host", "127.0.0.1", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    let output = "";
    emulator.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const found = /server running at http:\/\/[^:]+:(\d+)/.exec(output);
      if (found) resolve(found[1]!);
    });
    emulator.once("exit", (code) => reject(new Error(`aws-ses-v2-local exited (${code}): ${output}`)));
  });
  const emulatorUrl = `http://127.0.0.1:${port}`;
  const sends: RecordedSend[] = [];

  const proxy: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const upstream = request(`${emulatorUrl}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
        const answerChunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => answerChunks.push(chunk));
        answer.on("end", () => {
          const answerBody = Buffer.concat(answerChunks);
          const form = new URLSearchParams(body.toString());
          const accepted = /<MessageId>([^<]+)<\/MessageId>/.exec(answerBody.toString());
          // Noted whether or not the client is still there to read the answer: the emulator holds it.
          if (form.get("Action") === "SendRawEmail" && accepted) sends.push({ providerMessageId: accepted[1]!, messageId: messageIdOf(form), tags: tagsOf(form) });
          if (!outgoing.destroyed) {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(answerBody);
          }
        });
      });
      upstream.on("error", () => outgoing.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;

  return {
    endpoint,
    emulatorUrl,
    sends,
    stored: async () => ((await (await fetch(`${emulatorUrl}/store`)).json()) as { emails: StoredEmail[] }).emails,
    clear: async () => {
      await fetch(`${emulatorUrl}/clear-store`, { method: "POST" });
      sends.length = 0;
    },
    stop: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      if (emulator.pid !== undefined && emulator.exitCode === null) {
        const exited = new Promise((resolve) => emulator.once("exit", resolve));
        process.kill(emulator.pid, "SIGTERM");
        await exited;
      }
    },
  };
};
