import { createThrottle } from "../src/auth/throttle.ts";
import { throttleCases } from "./support/throttle-cases.ts";

/* Issue 9 item 6, with the failures in this process's memory (the embedded database's one process). */

throttleCases("in memory", async (overrides, clock) => createThrottle(overrides, clock));
