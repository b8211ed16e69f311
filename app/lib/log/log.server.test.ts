import { afterEach, describe, expect, it, vi } from "vitest";
import { accountHash, log, noteAccount, noteError, setLogSalt, withLogScope } from "./log.server";

function captured() {
  const lines: Array<Record<string, unknown>> = [];
  for (const method of ["log", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((text: string) => {
      lines.push({ method, ...JSON.parse(text) });
    });
  }
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
  setLogSalt(undefined);
});

describe("the logger", () => {
  it("writes one JSON line per event, at its level, with the scope's id", () => {
    const lines = captured();
    withLogScope("req-1", () => {
      log.info("two_factor_enabled", { userId: "u-1" });
      log.warn("passkey_register_refused", { reason: "origin_mismatch" });
    });
    log.error("hourly_sweep_failed", {}, new Error("D1 is down"));
    expect(lines[0]).toEqual({ method: "log", level: "info", event: "two_factor_enabled", requestId: "req-1", account: accountHash("u-1") });
    expect(lines[1]).toMatchObject({ method: "warn", level: "warn", requestId: "req-1", reason: "origin_mismatch" });
    expect(lines[2]).toMatchObject({ method: "error", level: "error", event: "hourly_sweep_failed", error: { name: "Error", message: "D1 is down" } });
    expect(lines[2]).not.toHaveProperty("requestId");
    expect((lines[2]!.error as { stack: string }).stack).toContain("log.server.test.ts");
  });

  it("hashes an account with the salt: the same id the same hash, another salt another hash, never the id", () => {
    setLogSalt("salt-one-0123456789abcdef");
    const one = accountHash("0d6c0c1e-7d0e-4cf5-9a3e-2b5f8c1a9e77");
    expect(one).toMatch(/^[0-9a-f]{16}$/);
    expect(accountHash("0d6c0c1e-7d0e-4cf5-9a3e-2b5f8c1a9e77")).toBe(one);
    setLogSalt("salt-two-0123456789abcdef");
    expect(accountHash("0d6c0c1e-7d0e-4cf5-9a3e-2b5f8c1a9e77")).not.toBe(one);
  });

  it("collects the scope's account and its first error for the closing line", () => {
    const scope = withLogScope("req-2", (s) => {
      noteAccount("u-2");
      noteError(new Error("first"));
      noteError(new Error("second"));
      return s;
    });
    expect(scope.accountId).toBe("u-2");
    expect((scope.error as Error).message).toBe("first");
    // Outside any scope these are no-ops.
    noteAccount("u-3");
    noteError(new Error("nowhere"));
  });
});
