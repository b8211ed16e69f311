// `postinstall`: deletes what an install brings but nothing here uses, to keep node_modules small.
// Runs on Node 20 or 24 (whichever npm found first) and on any platform; a missing path is fine.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

// The `node` package (Node 24 for the npm scripts, ADR 0001) unpacks the official tarball,
// whose include/ holds Node's C headers with OpenSSL's for every platform: about 67 MB, needed only
// to compile native addons against this Node, and every native package here ships prebuilt.
const nodePackages = join("node_modules", "node", "node_modules");
let platformPackages = [];
try {
  platformPackages = readdirSync(nodePackages).filter((name) => name.startsWith("node-"));
} catch {}
for (const name of platformPackages) {
  rmSync(join(nodePackages, name, "include"), { recursive: true, force: true });
}
