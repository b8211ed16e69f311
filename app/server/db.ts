// The request's database handle, and a count of the D1 statements each request prepares (sent as
// Server-Timing outside production, read by the benchmarks). One counting wrapper and one drizzle
// instance per D1 binding and isolate; AsyncLocalStorage attributes each statement to the request
// that prepared it, however requests interleave.
import { AsyncLocalStorage } from "node:async_hooks";
import { getDb, type Db } from "~/lib/db.server";

type Meter = { statements: number };
const meters = new AsyncLocalStorage<Meter>();
const counting = new WeakMap<D1Database, D1Database>();

function countingD1(d1: D1Database): D1Database {
  let wrapped = counting.get(d1);
  if (!wrapped) {
    wrapped = new Proxy(d1, {
      get(target, prop, receiver) {
        if (prop === "prepare") {
          return (query: string) => {
            const meter = meters.getStore();
            if (meter) meter.statements++;
            return target.prepare(query);
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    counting.set(d1, wrapped);
  }
  return wrapped;
}

export function requestDb(d1: D1Database): Db {
  return getDb(countingD1(d1));
}

/** Runs a request's work and tells how many statements it prepared. */
export async function metered<T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const meter: Meter = { statements: 0 };
  const result = await meters.run(meter, run);
  return { result, statements: meter.statements };
}
