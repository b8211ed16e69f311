import { describe, expect, it } from "vitest";
import { DEVICE_AUTH } from "../constants";
import { formatUserCode, newDeviceCode, newUserCode, normalizeUserCode } from "./device-codes";
import { deviceAuthorizationRequestSchema } from "./device-requests";

describe("device authorization codes", () => {
  it("draws user codes of 8 letters from the alphabet only, every letter reachable", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = newUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      for (const letter of code) seen.add(letter);
    }
    expect(seen.size).toBe(DEVICE_AUTH.userCodeAlphabet.length);
    expect(new Set(Array.from({ length: 200 }, newUserCode)).size).toBe(200);
  });

  it("reads a typed code whatever its case, spaces and dashes; refuses anything else", () => {
    expect(normalizeUserCode("bcdf-ghjk")).toBe("BCDFGHJK");
    expect(normalizeUserCode(" BCDF GHJK ")).toBe("BCDFGHJK");
    expect(formatUserCode("BCDFGHJK")).toBe("BCDF-GHJK");
    for (const bad of ["BCDF-GHJA", "BCDF-GHJ", "BCDF-GHJKL", "", null, 12345678, "x".repeat(41), "BCDF_GHJK"]) {
      expect(normalizeUserCode(bad)).toBeNull();
    }
  });

  it("makes device codes long enough not to guess (32 random bytes)", () => {
    const code = newDeviceCode();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newDeviceCode()).not.toBe(code);
  });

  it("trims the device's description and names the field at fault", () => {
    const ok = deviceAuthorizationRequestSchema.parse({
      client_id: "modelify-desktop",
      device_name: "  Ada's laptop ",
      platform: "macos",
      app_version: "1.4.2",
      app_instance_id: "i-1",
    });
    expect(ok.device_name).toBe("Ada's laptop");
    const bad = deviceAuthorizationRequestSchema.safeParse({
      client_id: "modelify-desktop",
      device_name: "x",
      platform: "beos",
      app_version: "1",
      app_instance_id: "i",
    });
    expect(bad.error?.issues[0]?.message).toBe("platform must be windows, macos or linux");
    // Unicode's control characters (Cc: U+0000-U+001F, U+007F-U+009F) and the bidi overrides.
    for (const name of ["Ada\u202Eesrever", "line\nbreak", "nul\u0000", "del\u007F", "next\u0085line", "c1\u009F"]) {
      const refused = deviceAuthorizationRequestSchema.safeParse({ ...ok, client_id: "modelify-desktop", device_name: name });
      expect(refused.error?.issues[0]?.message).toBe("device_name must not contain control characters");
    }
    for (const name of ["Zoë's café", "Ada\u00A0Lovelace", "\u00A0edge"]) {
      expect(deviceAuthorizationRequestSchema.safeParse({ ...ok, client_id: "modelify-desktop", device_name: name }).success, name).toBe(true);
    }
  });
});
