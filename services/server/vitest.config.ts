// The shared settings for workspaces whose tests use PostgreSQL (see the file for why).
export { default } from "@etd/infra/vitest-database-config";
