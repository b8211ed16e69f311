import { describe, expect, it } from "vitest";
import { parseAppEnv } from "./env";

const base = { APP_ENV: "test", JWT_SECRET: "a-test-secret-that-is-long-enough-0123456789" } as unknown as Env;

describe("the site's configuration", () => {
  it("takes an optional numeric pixel id, a blank one as none, and refuses anything else", () => {
    expect(parseAppEnv({ ...base } as Env).META_PIXEL_ID).toBeUndefined();
    expect(parseAppEnv({ ...base, META_PIXEL_ID: "" } as unknown as Env).META_PIXEL_ID).toBeUndefined();
    expect(parseAppEnv({ ...base, META_PIXEL_ID: "123456789012345" } as unknown as Env).META_PIXEL_ID).toBe("123456789012345");
    expect(() => parseAppEnv({ ...base, META_PIXEL_ID: "<script>" } as unknown as Env)).toThrow(/META_PIXEL_ID/);
    expect(parseAppEnv({ ...base } as Env).SUPPORT_INBOX).toBe("support@modelify.dev");
  });
});
