// The request's database handle, and a count of the D1 statements each request runs (written in
// the request's log line). One counting wrapper and one drizzle instance per D1 binding and
// isolate; AsyncLocalStorage attributes each statement to the request
// that runs it, however requests interleave, and sends it through that request's D1 session
// (server/d1-session.ts) when it has one.
import { AsyncLocalStorage } from "node:async_hooks";
import { getDb, type Db } from "~/lib/db.server";

type Meter = { statements: number; ledgerCalls: number; session?: { of: D1Database; client: D1DatabaseSession } };
const meters = new AsyncLocalStorage<Meter>();
const counting = new WeakMap<D1Database, D1Database>();

// The request's session of this binding, else the binding itself (the statements a session
// prepares are batched by the same session).
function clientOf(d1: D1Database, meter: Meter | undefined): Pick<D1Database, "prepare" | "batch"> {
  return meter?.session?.of === d1 ? meter.session.client : d1;
}

function countingD1(d1: D1Database): D1Database {
  let wrapped = counting.get(d1);
  if (!wrapped) {
    wrapped = new Proxy(d1, {
      get(target, prop, receiver) {
        if (prop === "prepare") return (query: string) => deferredStatement(target, query);
        // A batch's statements are counted when they are bound.
        if (prop === "batch") {
          return (statements: D1PreparedStatement[]) =>
            clientOf(target, meters.getStore()).batch(statements.map((s) => (deferredStatements.has(s) ? s.bind() : s)));
        }
        // Raw SQL, possibly several statements (nothing in the app uses it today): D1 says how many ran.
        if (prop === "exec") {
          return async (query: string) => {
            const meter = meters.getStore();
            const result = await target.exec(query);
            if (meter) meter.statements += result.count;
            return result;
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

/**
 * A statement that takes the D1 session of the request that runs it, when it runs (binds or
 * executes): a query prepared once per isolate (drizzle's `.prepare()`, the session read of
 * lib/auth/session.server.ts) still reads through each request's own session, and is counted
 * once per run.
 */
function deferredStatement(d1: D1Database, query: string): D1PreparedStatement {
  const statement = () => {
    const meter = meters.getStore();
    if (meter) meter.statements++;
    return clientOf(d1, meter).prepare(query);
  };
  const deferred: Pick<D1PreparedStatement, "bind" | "first" | "run" | "all" | "raw"> = {
    bind: (...values) => statement().bind(...values),
    first: ((column?: string) => (column === undefined ? statement().first() : statement().first(column))) as D1PreparedStatement["first"],
    run: () => statement().run(),
    all: () => statement().all(),
    raw: ((options?: { columnNames?: boolean }) =>
      options ? statement().raw(options as { columnNames: true }) : statement().raw()) as D1PreparedStatement["raw"],
  };
  deferredStatements.add(deferred as D1PreparedStatement);
  return deferred as D1PreparedStatement;
}

// A statement prepared and handed to a batch without binding: the batch binds it (no values).
const deferredStatements = new WeakSet<D1PreparedStatement>();

/**
 * The request's database. Given the request's D1 session, every statement the request runs
 * from here on goes through it; that needs the request's scope, so it runs inside metered().
 */
export function requestDb(d1: D1Database, session?: D1DatabaseSession): Db {
  if (session) {
    const meter = meters.getStore();
    if (!meter) throw new Error("A request's D1 session needs its scope: call requestDb inside metered()");
    meter.session = { of: d1, client: session };
  }
  return getDb(countingD1(d1));
}

/** Runs a request's work and tells how many statements it ran and ledger calls it made. */
export async function metered<T>(run: () => Promise<T>): Promise<{ result: T; statements: number; ledgerCalls: number }> {
  const meter: Meter = { statements: 0, ledgerCalls: 0 };
  const result = await meters.run(meter, run);
  return { result, statements: meter.statements, ledgerCalls: meter.ledgerCalls };
}

const countingLedgers = new WeakMap<DurableObjectNamespace, DurableObjectNamespace>();

/**
 * The usage ledgers' binding, counting the calls a request makes to any ledger (a page makes
 * one: ADR 0020). A call is a method of a stub the request got from this binding.
 */
export function requestLedgers<T extends DurableObjectNamespace>(namespace: T): T {
  let wrapped = countingLedgers.get(namespace);
  if (!wrapped) {
    // Every property of an RPC stub is a method; each is called on the stub itself.
    const stubOf = (stub: DurableObjectStub) =>
      new Proxy({} as DurableObjectStub, {
        get(_, prop) {
          if (prop === "then") return undefined;
          return (...args: unknown[]) => {
            const meter = meters.getStore();
            if (meter) meter.ledgerCalls++;
            return (stub as unknown as Record<string | symbol, (...a: unknown[]) => unknown>)[prop]!(...args);
          };
        },
      });
    wrapped = new Proxy(namespace, {
      get(target, prop) {
        if (prop === "get")
          return (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) => stubOf(options ? target.get(id, options) : target.get(id));
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    countingLedgers.set(namespace, wrapped);
  }
  return wrapped as T;
}
