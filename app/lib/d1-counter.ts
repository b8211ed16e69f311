// Counts the D1 statements one request prepares, reported in a Server-Timing header so the
// benchmark (and anyone with devtools) can see how much database work a page costs.
export type QueryCounter = { statements: number };

export function countingD1(d1: D1Database, counter: QueryCounter): D1Database {
  return new Proxy(d1, {
    get(target, prop, receiver) {
      if (prop === "prepare") {
        return (query: string) => {
          counter.statements++;
          return target.prepare(query);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
