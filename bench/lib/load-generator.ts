/**
 * The load generator of bench/load.ts, in a process of its own (never the
 * server's): WebSocket tables (load-ws.ts) against Hitline or the bare room, and
 * REST + SSE tables (load-rest.ts) against Hitline, steered by the parent over
 * IPC. It also measures itself over each window, since a generator short of CPU
 * shows up as latency.
 */
import './load-ws-node.ts';
import { HttpUser } from './load-http.ts';
import { meterProcess, type ProcessMeter } from './bench.ts';
import { loadYears } from './load-bot.ts';
import { PerformanceObserver } from 'node:perf_hooks';
import { notify, serve } from './load-ipc.ts';
import { RestFleet, type RestWindow } from './load-rest.ts';
import { WsFleet, type TableKind, type WindowCounts } from './load-ws.ts';

// the SDK narrates every reconnection on console.info; the probe makes hundreds
console.info = () => undefined;

export interface GeneratorSetup {
  kind: TableKind;
  base: string;
  seed: number;
  goals: number[];
  /** Several server processes: the one a share of the seats makes its matchmaking request to (see WsFleet). */
  joinBase?: string;
  crossSeats?: number;
}

export interface WindowReport<T> {
  counts: T;
  generator: ProcessMeter & { gcMs: number; gcMaxMs: number; heapUsedMB: number };
}

export interface ErrorsReport {
  ws: ReturnType<WsFleet['errors']['summary']>;
  rest: ReturnType<RestFleet['errors']['summary']> | null;
  completed: number;
  restCompleted: number;
}

const years = loadYears();
let fleet: WsFleet | undefined;
let rest: RestFleet | undefined;
let setup: GeneratorSetup | undefined;
let meter: ReturnType<typeof meterProcess> | undefined;
// the generator's own garbage collections: a long one delays every message it is reading
const gc = { ms: 0, max: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.ms += e.duration;
    gc.max = Math.max(gc.max, e.duration);
  }
}).observe({ entryTypes: ['gc'] });
const startMeter = () => {
  gc.ms = gc.max = 0;
  meter = meterProcess();
};
const stopMeter = () => ({ ...need(meter, 'a window start').stop(), gcMs: gc.ms, gcMaxMs: gc.max, heapUsedMB: process.memoryUsage().heapUsed / 2 ** 20 });

const need = <T>(x: T | undefined, what: string): T => {
  if (x === undefined) throw new Error(`${what} first`);
  return x;
};

serve(
  { pid: process.pid },
  {
    setup: (args: GeneratorSetup) => {
      setup = args;
      fleet = new WsFleet({ ...args, years });
    },
    prepare: async ({ rooms }: { rooms: number }) => {
      const t0 = performance.now();
      const made = await need(fleet, 'setup').prepare(rooms);
      if (made > 0) notify(`${made} guests in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      return made;
    },
    grow: ({ rooms, joinRate }: { rooms: number; joinRate: number }) => {
      const f = need(fleet, 'setup');
      f.errors.stage = `joins up to ${rooms} rooms`;
      return f.grow(rooms, joinRate).finally(() => (f.errors.stage = `play at ${rooms} rooms`));
    },
    'window-start': () => {
      need(fleet, 'setup').windowStart();
      startMeter();
    },
    'window-stop': (): WindowReport<WindowCounts> => {
      const counts = need(fleet, 'setup').windowStop();
      return { counts, generator: stopMeter() };
    },
    playing: () => need(fleet, 'setup').playing(),
    reconnects: ({ count, rate, graceMs }: { count: number; rate: number; graceMs: number }) => {
      const f = need(fleet, 'setup');
      f.errors.stage = 'reconnects';
      return f.reconnects(count, rate, graceMs);
    },
    teardown: ({ rate }: { rate: number }) => {
      const f = need(fleet, 'setup');
      f.errors.stage = 'teardown';
      return f.teardown(rate);
    },
    'rest-setup': async ({ tables, rate }: { tables: number; rate: number }) => {
      const s = need(setup, 'setup');
      const f = need(fleet, 'setup');
      rest = new RestFleet(s.base, s.seed + 1, s.goals, years);
      rest.errors.stage = 'REST setup';
      // the WebSocket players, done with their games, play again over REST
      const users = f.users.slice(0, tables * 6);
      const base = new URL(s.base);
      while (users.length < tables * 6) users.push(await HttpUser.guest(base));
      return rest.setup(users, tables, rate).finally(() => (rest!.errors.stage = 'REST play'));
    },
    'rest-window-start': () => {
      need(rest, 'rest-setup').windowStart();
      startMeter();
    },
    'rest-window-stop': (): WindowReport<RestWindow> => {
      const counts = need(rest, 'rest-setup').windowStop();
      return { counts, generator: stopMeter() };
    },
    'rest-teardown': () => {
      const r = need(rest, 'rest-setup');
      r.errors.stage = 'REST teardown';
      return r.teardown();
    },
    errors: (): ErrorsReport => ({
      ws: need(fleet, 'setup').errors.summary(),
      rest: rest ? rest.errors.summary() : null,
      completed: fleet?.completedTotal ?? 0,
      restCompleted: rest?.completedTotal ?? 0,
    }),
  },
);
