// HTTP Range for installer downloads (RFC 9110 §14): one byte range, so an interrupted download
// resumes where it stopped. Several ranges in one request are answered with the whole file,
// which the RFC allows and download managers accept.

export type ByteRange = { offset: number; length: number };
export type RangeDecision = { kind: "full" } | { kind: "partial"; range: ByteRange } | { kind: "unsatisfiable" };

export function decideRange(header: string | null, size: number): RangeDecision {
  if (!header) return { kind: "full" };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Not a single byte range (other units, several ranges, junk): ignore it, as the RFC says.
  if (!match || (match[1] === "" && match[2] === "")) return { kind: "full" };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === "") {
    // The last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    const length = Math.min(suffix, size);
    return { kind: "partial", range: { offset: size - length, length } };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: "unsatisfiable" };
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(end) || end < start) return { kind: "full" };
  return { kind: "partial", range: { offset: start, length: end - start + 1 } };
}

export const contentRange = ({ offset, length }: ByteRange, size: number) => `bytes ${offset}-${offset + length - 1}/${size}`;
