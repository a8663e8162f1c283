// Counts what a request spends (D1 round trips, Durable Object calls) for the Server-Timing header.
type Spend = { ms: number; count: number };

export class Meter {
  readonly #db: Spend = { ms: 0, count: 0 };
  readonly #gate: Spend = { ms: 0, count: 0 };

  db<T>(work: () => Promise<T>): Promise<T> {
    return Meter.#time(this.#db, work);
  }

  gate<T>(work: () => Promise<T>): Promise<T> {
    return Meter.#time(this.#gate, work);
  }

  static async #time<T>(spend: Spend, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      spend.ms += performance.now() - start;
      spend.count += 1;
    }
  }

  header(): string {
    const entries = [`db;dur=${this.#db.ms.toFixed(1)};desc="${this.#db.count}"`];
    if (this.#gate.count > 0) entries.push(`gate;dur=${this.#gate.ms.toFixed(1)}`);
    return entries.join(", ");
  }
}

const QUERY_METHODS = new Set<PropertyKey>(["first", "all", "run", "raw"]);

/**
 * Wraps a D1 binding so every round trip (a statement's first/all/run/raw, a batch, an exec) is
 * counted. Statements handed to batch() are unwrapped, since D1 needs its own objects there.
 */
export function meteredD1(db: D1Database, meter: Meter): D1Database {
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (QUERY_METHODS.has(prop)) return (...args: unknown[]) => meter.db(() => value.apply(target, args));
        return value.bind(target);
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query));
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) =>
          meter.db(() => target.batch(statements.map((s) => originals.get(s) ?? s)));
      if (prop === "exec") return (query: string) => meter.db(() => target.exec(query));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
