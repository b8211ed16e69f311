// sharp is tools/no-sharp, an empty stand-in (package.json overrides, tools/no-sharp/README.md):
// miniflare would load the real library only for an Images binding, which Modelify does not have,
// and it would bring about 20 MB of libvips into node_modules. Should the override stop applying,
// the real sharp comes back with the next install, and this fails.
import { expect, it } from "vitest";

it("installs tools/no-sharp in place of sharp", async () => {
  await expect(import("sharp")).rejects.toThrow("sharp is not installed here (tools/no-sharp)");
});
