import type { PlanStore } from '../../plan/plan-store.js';
import { check, checkRejects, checkSameJson, show } from './check.js';
import type { ConformanceCase } from './conformance-case.js';
import { hasCode } from './store-calls.js';

/** A fresh plan store for one case. */
export interface PlanStoreFixture {
  /** The store under test, empty. */
  store: PlanStore;
  /** Another instance over the same data, to check writes are visible to it. */
  openPeer?: () => PlanStore | Promise<PlanStore>;
  /** Frees what `create` took. */
  dispose?: () => Promise<void>;
}

/** Options of {@link planStoreConformance}. */
export interface PlanStoreConformanceOptions {
  /** Makes a fresh, empty plan store; called once per case. */
  create: () => PlanStoreFixture | Promise<PlanStoreFixture>;
}

/**
 * The plan store contract as runnable cases: read / write / exists / list, replace, names
 * checked like file names, big and awkward texts, and visibility to another instance.
 * Register them with `describeConformance` or run each case's `run()`.
 */
export function planStoreConformance(options: PlanStoreConformanceOptions): ConformanceCase[] {
  const withStore = async (body: (fixture: PlanStoreFixture) => Promise<void>) => {
    const fixture = await options.create();
    try {
      await body(fixture);
    } finally {
      await fixture.dispose?.();
    }
  };
  return [
    {
      name: 'plans: write, read, exists and a sorted list; a write replaces the plan',
      run: () =>
        withStore(async ({ store }) => {
          check((await store.read('quiet-copper-lantern.md')) === undefined, 'read() of an unknown plan should be undefined.');
          check((await store.exists('quiet-copper-lantern.md')) === false, 'exists() of an unknown plan should be false.');
          checkSameJson(await store.list(), [], 'list() of an empty plan store');
          await store.write('quiet-copper-lantern.md', '# Plan\n\n1. Draft.\n');
          await store.write('bright-amber-falcon-agent-a1b2.md', '# Subagent plan\n');
          await store.write('quiet-copper-lantern.md', '# Plan, revised\n');
          check((await store.read('quiet-copper-lantern.md')) === '# Plan, revised\n', 'read() after a second write should give the second text.');
          check((await store.exists('bright-amber-falcon-agent-a1b2.md')) === true, 'exists() of a written plan should be true.');
          checkSameJson(await store.list(), ['bright-amber-falcon-agent-a1b2.md', 'quiet-copper-lantern.md'], 'list()');
        }),
    },
    {
      // Plans are UTF-8 text (a file, a text column): NUL and lone surrogates are not part of the contract.
      name: 'plans: texts round-trip exactly, big or awkward',
      run: () =>
        withStore(async ({ store }) => {
          const awkward = 'crlf:\r\n emoji:🧪 cjk:漢字 rtl:שלום ls:\u2028 quote:" backslash:\\ tab:\t'.repeat(3);
          const big = '- step with ünïcödé\n'.repeat(60_000);
          await store.write('awkward.md', awkward);
          await store.write('big.md', big);
          await store.write('empty.md', '');
          check((await store.read('awkward.md')) === awkward, 'An awkward text came back changed.');
          const readBig = await store.read('big.md');
          check(readBig === big, `A ${big.length}-character plan came back changed (${show(readBig?.length)} characters).`);
          check((await store.read('empty.md')) === '', 'An empty plan should read back as "".');
        }),
    },
    {
      name: 'plans: names that are not plain file names are refused with a ConfigurationError',
      run: () =>
        withStore(async ({ store }) => {
          for (const name of ['', '../escape.md', 'a/b.md', 'a\\b.md', '.hidden.md', '..']) {
            await checkRejects(store.write(name, 'x'), hasCode('configuration'), `write(${JSON.stringify(name)}) should be refused with a ConfigurationError`);
            await checkRejects(store.read(name), hasCode('configuration'), `read(${JSON.stringify(name)}) should be refused with a ConfigurationError`);
          }
          checkSameJson(await store.list(), [], 'list() after refused writes');
        }),
    },
    {
      name: 'plans: another instance over the same data sees the writes',
      run: () =>
        withStore(async ({ store, openPeer }) => {
          if (openPeer === undefined) return;
          await store.write('shared.md', 'from the first instance');
          const peer = await openPeer();
          check((await peer.read('shared.md')) === 'from the first instance', 'Another instance does not see a written plan.');
          checkSameJson(await peer.list(), ['shared.md'], 'list() of another instance');
        }),
    },
  ];
}
