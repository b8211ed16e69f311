// Helpers shared by the local set-up, test and bench scripts.
import { spawn } from "node:child_process";
import { pbkdf2Sync, randomBytes } from "node:crypto";

export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", ...options });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code ?? signal}`));
    });
  });
}

const b64url = (buf) => buf.toString("base64url");

/** Same format as app/lib/auth/password.ts (PBKDF2-SHA256, 100,000 iterations, 16-byte salt). */
export function hashSecret(secret, iterations = 100_000) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(secret, salt, iterations, 32, "sha256");
  return `pbkdf2_sha256$${iterations}$${b64url(salt)}$${b64url(hash)}`;
}

export function sqlString(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replace(/'/g, "''")}'`;
}
