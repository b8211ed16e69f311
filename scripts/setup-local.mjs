// First-run set-up for local development: secrets file, D1 migrations, seed data.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { run } from "./lib.mjs";

// Local runs are "development" (outbox mail, /dev pages) and sign tokens with a random secret.
function ensureDevVars() {
  const file = ".dev.vars";
  let current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const add = (line) => {
    current = `${current}${current && !current.endsWith("\n") ? "\n" : ""}${line}\n`;
  };
  if (!/^APP_ENV=/m.test(current)) add("APP_ENV=development");
  if (!/^JWT_SECRET=/m.test(current)) add(`JWT_SECRET=${randomBytes(32).toString("base64url")}`);
  writeFileSync(file, current);
}

ensureDevVars();
await run("wrangler", ["d1", "migrations", "apply", "DB", "--local"], { env: { ...process.env, CI: "true" } });
await run("node", ["scripts/seed.mjs"]);
