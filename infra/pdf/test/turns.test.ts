import { describe, expect, it } from "vitest";
import { turns } from "../src/turns.ts";

/*
 * Issue 28's attacker review: a burst of defence packs opened a Chromium page each (12 at once took
 * 2.5 GB). The renderer lets tasks print in turns; this is the rule it relies on.
 */

/** A task the test finishes when it chooses, recording when it started. */
const gate = (started: number[], id: number) => {
  let finish!: (fail?: boolean) => void;
  const ended = new Promise<void>((resolve, reject) => {
    finish = (fail) => (fail ? reject(new Error(`task ${id} failed`)) : resolve());
  });
  return { task: async () => (started.push(id), await ended, id), finish: (fail?: boolean) => finish(fail) };
};

/** Lets every promise that can settle do so. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("issue 28 review: renders take turns", () => {
  it("at most two run at once; the others start in the order they came, as turns are handed on, failures included", async () => {
    const inTurn = turns(2);
    const started: number[] = [];
    const gates = [1, 2, 3, 4, 5].map((id) => gate(started, id));
    const results = gates.map(({ task }) => inTurn(task).catch((error: Error) => error.message));
    await settle();
    expect(started).toEqual([1, 2]);

    gates[1]!.finish(true);
    await settle();
    expect(started).toEqual([1, 2, 3]);

    gates[0]!.finish();
    await settle();
    expect(started).toEqual([1, 2, 3, 4]);

    for (const { finish } of gates.slice(2)) finish();
    expect(await Promise.all(results)).toEqual([1, "task 2 failed", 3, 4, 5]);
  });

  it("a turn given back with nobody waiting is free for the next task at once", async () => {
    const inTurn = turns(1);
    expect(await inTurn(async () => "first")).toBe("first");
    const started: number[] = [];
    const second = gate(started, 2);
    const running = inTurn(second.task);
    await settle();
    expect(started).toEqual([2]);
    second.finish();
    expect(await running).toBe(2);
  });
});
