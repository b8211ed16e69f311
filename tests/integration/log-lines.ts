// What a request did, read where an operator reads it: the request's structured log line (one JSON
// line per request, lib/log). The tests' isolate is the Worker's, so its console is the Worker's.
import { expect, vi } from "vitest";

export type Line = Record<string, unknown> & { level: string; event: string; requestId?: string };

/** The structured lines written while `run` runs. */
export async function linesOf<T>(run: () => Promise<T>): Promise<{ result: T; lines: Line[] }> {
  const lines: Line[] = [];
  const keep = (text: unknown) => {
    if (typeof text === "string" && text.startsWith('{"level":')) lines.push(JSON.parse(text) as Line);
  };
  const spies = (["log", "warn", "error"] as const).map((method) => {
    const original = console[method].bind(console);
    return vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      keep(args[0]);
      original(...args);
    });
  });
  try {
    return { result: await run(), lines };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** The one request line of the answer (matched by its X-Request-Id). */
export function requestLine(lines: Line[], response: Response | string | null): Line {
  const id = typeof response === "string" || response === null ? response : response.headers.get("X-Request-Id");
  const found = lines.filter((l) => l.event === "request" && l.requestId === id);
  expect(found, `one request line for ${id}`).toHaveLength(1);
  return found[0]!;
}

/** The answer and what its request did (its log line): D1 statements and ledger calls. */
export async function measured(fetching: () => Promise<Response>): Promise<{ response: Response; d1Statements: number; ledgerCalls: number }> {
  const { result: response, lines } = await linesOf(fetching);
  const line = requestLine(lines, response);
  return { response, d1Statements: Number(line.d1Statements), ledgerCalls: Number(line.ledgerCalls) };
}
