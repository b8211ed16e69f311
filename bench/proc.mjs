// Processes as Linux's /proc shows them: the benchmarks read a server's CPU from its workerd
// processes, found below the wrangler process that started them.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** /proc/<pid>/stat: the command's name, its parent, and its user + system CPU (all threads) in clock ticks. */
export function procStat(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The name is in parentheses and may hold spaces; the fields after it start with the 3rd (state):
  // the 4th is the parent's pid, the 14th and 15th utime and stime.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  return { name: text.slice(text.indexOf("(") + 1, close), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

/** `root` and its descendants, each with its command's name. */
export function processTree(root) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = procStat(entry);
    } catch {
      continue; // ended while listed
    }
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), { pid: Number(entry), name: stat.name }]);
  }
  const found = [{ pid: root, name: procStat(root).name }];
  for (let i = 0; i < found.length; i++) found.push(...(children.get(found[i].pid) ?? []));
  return found;
}

/**
 * The CPU meter of a server started as the wrangler process `root`, serving on `port`. Its
 * `read()` gives the CPU milliseconds used so far by, separately:
 * - `runtime`: the workerd process that runs the Workers (and locally their assets, D1 and Durable Objects);
 * - `proxy`: the workerd process bound to the port, where wrangler dev's ProxyWorker receives each
 *   request and forwards it to the runtime (a local hop that production does not have);
 * - `wrangler`: wrangler's Node processes (not on a request's path; they receive the Workers' log lines).
 */
export function cpuMeter(root, port, label) {
  const tree = processTree(root);
  const isProxy = (pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(`--socket-addr=entry=localhost:${port}`);
  const workerd = tree.filter((p) => p.name === "workerd");
  const groups = {
    runtime: workerd.filter((p) => !isProxy(p.pid)).map((p) => p.pid),
    proxy: workerd.filter((p) => isProxy(p.pid)).map((p) => p.pid),
    wrangler: tree.filter((p) => p.name !== "workerd").map((p) => p.pid),
  };
  if (groups.runtime.length !== 1 || groups.proxy.length !== 1) {
    throw new Error(
      `The ${label}'s wrangler (pid ${root}) runs ${workerd.length} workerd processes, ${groups.proxy.length} of them on port ${port}: expected a runtime and a proxy`,
    );
  }
  if (tree.some((p) => p.pid === process.pid)) throw new Error("The load generator would be counted");
  // A process that ends (a restart) makes the reading throw: no figure from a server that changed.
  const ms = (pids) => (pids.reduce((sum, pid) => sum + procStat(pid).ticks, 0) * 1000) / TICKS_PER_SECOND;
  return { read: () => ({ runtime: ms(groups.runtime), proxy: ms(groups.proxy), wrangler: ms(groups.wrangler) }) };
}

/**
 * Resolves once every process of the group `pgid` has ended: a server started detached (its own
 * group) and the workerd processes it started. A stop only signals them; a server started again
 * on the same state must not meet the old one's processes still holding its files.
 */
export async function groupEnded(pgid, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) throw new Error(`The processes of group ${pgid} were still running ${timeoutMs} ms after the stop`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
