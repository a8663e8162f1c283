// Counts what a request spends, for the Server-Timing header: D1 round trips and their time, the
// Coordinator calls, the rows D1 read, and the hops: the longest chain of remote calls made one after
// the other (calls that overlap in time share a hop), which is what a user far from the database or
// the Durable Object waits for.
type Spend = { ms: number; count: number };

/** A remote call's start and end, in the order of the request's own events (not clock time). */
type Interval = { start: number; end: number };

export class Meter {
  readonly #db: Spend = { ms: 0, count: 0 };
  readonly #gate: Spend = { ms: 0, count: 0 };
  readonly #calls: Interval[] = [];
  #events = 0;
  #rowsRead = 0;
  /**
   * What a write waits for before it reaches D1 (the gate's admission, src/http/gate.ts); reads never
   * wait. Unset outside the API gate.
   */
  writeBarrier: (() => Promise<void>) | undefined;

  db<T>(work: () => Promise<T>): Promise<T> {
    return this.#time(this.#db, work);
  }

  gate<T>(work: () => Promise<T>): Promise<T> {
    return this.#time(this.#gate, work);
  }

  /** Adds the rows D1 says a statement or batch read (its answers' `meta.rows_read`). */
  rows(results: unknown) {
    for (const result of Array.isArray(results) ? results : [results]) {
      const read = (result as { meta?: { rows_read?: unknown } } | null)?.meta?.rows_read;
      if (typeof read === "number") this.#rowsRead += read;
    }
  }

  async #time<T>(spend: Spend, work: () => Promise<T>): Promise<T> {
    const interval = { start: ++this.#events, end: Number.POSITIVE_INFINITY };
    this.#calls.push(interval);
    const start = performance.now();
    try {
      return await work();
    } finally {
      interval.end = ++this.#events;
      spend.ms += performance.now() - start;
      spend.count += 1;
    }
  }

  /** The most calls that ran strictly one after another (greedy by end: the longest such chain). */
  get hops(): number {
    let hops = 0;
    let last = 0;
    for (const call of [...this.#calls].sort((a, b) => a.end - b.end)) {
      if (call.start > last) {
        hops += 1;
        last = call.end;
      }
    }
    return hops;
  }

  header(): string {
    const entries = [`db;dur=${this.#db.ms.toFixed(1)};desc="${this.#db.count}"`];
    if (this.#gate.count > 0) entries.push(`gate;dur=${this.#gate.ms.toFixed(1)}`);
    entries.push(`hops;desc="${this.hops}"`, `rows;desc="${this.#rowsRead}"`);
    return entries.join(", ");
  }
}

/** Statement methods that make a round trip; `first` and `raw` answers carry no `meta`. */
const QUERY_METHODS = new Set<PropertyKey>(["first", "all", "run", "raw"]);

/** Only a plain SELECT is a read; anything else (INSERT, UPDATE, DELETE, …) waits for the barrier. */
const isRead = (sql: string) => /^\s*select\b/i.test(sql);

/**
 * Wraps a D1 binding (or a Sessions API session) so every round trip (a statement's
 * first/all/run/raw, a batch, an exec) is counted with the rows it read. Statements handed to batch()
 * are unwrapped, since D1 needs its own objects there.
 */
export function meteredD1<T extends D1Database | D1DatabaseSession>(db: T, meter: Meter): T {
  const originals = new WeakMap<object, D1PreparedStatement>();
  const reads = new WeakSet<object>();
  const counted = async <R>(writes: boolean, work: () => Promise<R>) => {
    if (writes && meter.writeBarrier) await meter.writeBarrier();
    const result = await meter.db(work);
    meter.rows(result);
    return result;
  };
  const wrap = (statement: D1PreparedStatement, read: boolean): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values), read);
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (QUERY_METHODS.has(prop))
          return (...args: unknown[]) => counted(!read, () => value.apply(target, args));
        return value.bind(target);
      },
    });
    originals.set(proxy, statement);
    if (read) reads.add(proxy);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query), isRead(query));
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) =>
          counted(
            statements.some((s) => !reads.has(s)),
            () => target.batch(statements.map((s) => originals.get(s) ?? s)),
          );
      if (prop === "exec" && "exec" in target)
        return (query: string) => counted(true, () => (target as D1Database).exec(query));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
