import { describe, expect, it } from "vitest";
import { seal, unseal } from "./sealed";

const KEY = "a-dead-letter-key-of-32-characters-at-least";

describe("a sealed original", () => {
  it("opens with its key and its own id only, and shows nothing of what it holds", async () => {
    const body = JSON.stringify({ type: "mail.send", to: "ada@example.com", text: "reset: https://x/?token=abc" });
    const sealed = await seal(KEY, body, "msg-1");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain("ada");
    expect(await unseal(KEY, sealed, "msg-1")).toBe(body);
    expect(await unseal(KEY, sealed, "msg-2")).toBeNull();
    expect(await unseal(`${KEY}-rotated`, sealed, "msg-1")).toBeNull();
    // Each seal has its own IV.
    expect(await seal(KEY, body, "msg-1")).not.toBe(sealed);
  });

  it("refuses an altered or foreign value instead of throwing", async () => {
    const sealed = await seal(KEY, "{}", "msg-1");
    const [version, iv, data] = sealed.split(".");
    // The second-to-last character (the last may hold only padding bits), always changed: the
    // replacement is decided by the character it replaces.
    const flipped = `${data!.slice(0, -2)}${data!.at(-2) === "A" ? "B" : "A"}${data!.slice(-1)}`;
    expect(flipped).not.toBe(data);
    expect(await unseal(KEY, `${version}.${iv}.${flipped}`, "msg-1")).toBeNull();
    expect(await unseal(KEY, "v2.abc.def", "msg-1")).toBeNull();
    expect(await unseal(KEY, "not sealed", "msg-1")).toBeNull();
  });
});
