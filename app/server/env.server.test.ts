import { describe, expect, it } from "vitest";
import { alwaysRequired, unmetRequirements } from "~/lib/config";
import { parseAppEnv, SITE_SETTINGS } from "./env.server";

const keys = {
  JWT_SECRET: "a-test-secret-that-is-long-enough-0123456789",
  DOWNLOAD_LINK_SECRET: "a-download-link-secret-long-enough-0123456789",
  PHONE_CODE_SECRET: "a-phone-code-secret-long-enough-0123456789",
  TWO_FACTOR_KEY: "a-two-factor-key-long-enough-0123456789",
};
const base = { APP_ENV: "test", ...keys } as unknown as Env;

describe("the site's configuration", () => {
  it("takes an optional numeric pixel id, a blank one as none, and refuses anything else", () => {
    expect(parseAppEnv({ ...base } as Env).META_PIXEL_ID).toBeUndefined();
    expect(parseAppEnv({ ...base, META_PIXEL_ID: "" } as unknown as Env).META_PIXEL_ID).toBeUndefined();
    expect(parseAppEnv({ ...base, META_PIXEL_ID: "123456789012345" } as unknown as Env).META_PIXEL_ID).toBe("123456789012345");
    expect(() => parseAppEnv({ ...base, META_PIXEL_ID: "<script>" } as unknown as Env)).toThrow(/META_PIXEL_ID/);
    expect(parseAppEnv({ ...base } as Env).SUPPORT_INBOX).toBe("support@modelify.dev");
  });

  it("needs each of its keys, takes their previous values as optional, a blank one as none", () => {
    for (const name of Object.keys(keys)) {
      expect(() => parseAppEnv({ ...base, [name]: undefined } as unknown as Env)).toThrow(name);
      expect(() => parseAppEnv({ ...base, [name]: "too-short" } as unknown as Env)).toThrow(`${name} must be at least 32 characters`);
      expect(parseAppEnv({ ...base, [`${name}_PREVIOUS`]: "" } as unknown as Env)).not.toHaveProperty(`${name}_PREVIOUS`, "");
      expect(() => parseAppEnv({ ...base, [`${name}_PREVIOUS`]: "too-short" } as unknown as Env)).toThrow(`${name}_PREVIOUS`);
    }
  });

  it("names what a deploy checks: the keys everywhere, and production's own requirements", () => {
    expect(alwaysRequired(SITE_SETTINGS.shape)).toEqual(Object.keys(keys));
    const set = new Set(["STRIPE_SECRET_KEY", ...Object.keys(keys)]);
    expect(unmetRequirements(SITE_SETTINGS.requirements, (name) => set.has(name), true).map((unmet) => unmet.message)).toEqual([
      "APP_URL is required in production",
      "MAIL_API_URL is required in production",
      "MAIL_API_KEY is required in production",
      "LOG_SALT is required in production",
      "DEAD_LETTER_KEY is required in production",
      "WEBHOOK_KEY is required in production",
      "STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set",
    ]);
    expect(unmetRequirements(SITE_SETTINGS.requirements, (name) => set.has(name), false)).toEqual([]);
    expect(() => parseAppEnv({ ...base, APP_ENV: "production", STRIPE_SECRET_KEY: "sk_live_x" } as unknown as Env)).toThrow(
      /APP_URL is required in production/,
    );
  });
});
