/*
 * Demo fixtures, kept out of the write side: orders as the customer-facing site sends them (the
 * demo seeding places them through real intake decoding), what became of a completed order's
 * document (its mails, reminder and downloads), and the seeded random source they and the tests'
 * and benchmarks' workloads draw from. Deterministic for a seed.
 */
export * from "./demo-orders.ts";
export * from "./demo-mail.ts";
export { randomFrom, seededRandom, type SeededRandom } from "./seeded-random.ts";
