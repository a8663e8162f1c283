import { defineConfig } from "drizzle-kit";

// drizzle-kit 0.x writes flat migrations/NNNN_name.sql files, the layout that
// `wrangler d1 migrations apply` and the test runner's readD1Migrations read.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/tables/*.ts",
  out: "./migrations",
});
