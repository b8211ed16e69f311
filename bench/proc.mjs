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
