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
      // Every store lists in one order, whatever its backend sorts by: a locale's collation puts
      // 'a' before 'B', code points (UTF-8 bytes) put U+FF46 before an emoji, UTF-16 units do not.
      name: 'plans: list() sorts names by UTF-16 code units, as Array.prototype.sort() does',
      run: () =>
        withStore(async ({ store }) => {
          const names = ['\uff46ullwidth.md', '\u{1f9ea}-astral.md', 'a-lower.md', '\u00e9-accented.md', 'B-upper.md', 'Z-upper.md', '\u0101-macron.md'];
          for (const name of names) await store.write(name, name);
          checkSameJson(await store.list(), ['B-upper.md', 'Z-upper.md', 'a-lower.md', '\u00e9-accented.md', '\u0101-macron.md', '\u{1f9ea}-astral.md', '\uff46ullwidth.md'], 'list() order');
        }),
    },
    {
      // Any well-formed text: NUL and every other control character too (a plan is what the model
      // wrote). A lone surrogate is not text: UTF-8 stores hold U+FFFD instead, so it is left out.
      name: 'plans: any text round-trips exactly, NUL and control characters included',
      run: () =>
        withStore(async ({ store }) => {
          const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('') + '\u007f';
          const texts: Record<string, string> = {
            'nul.md': '# Plan\u0000\n1. Step with a NUL\u0000 inside.\n\u0000',
            'controls.md': `${controls} between ${controls}`,
            'bom.md': '\ufeff# Starts with a byte order mark\ufeff, \ufffe\uffff noncharacters, \u{10ffff} last code point',
            'only-nul.md': '\u0000',
            'big-nul.md': '- step\u0000 with ünïcödé 🧪\n'.repeat(40_000),
          };
          for (const [name, text] of Object.entries(texts)) await store.write(name, text);
          for (const [name, text] of Object.entries(texts)) {
            const read = await store.read(name);
            check(read === text, `${name} came back changed: wrote ${show(text)}, read ${show(read)}.`);
          }
          await store.write('nul.md', 'no NUL any more');
          check((await store.read('nul.md')) === 'no NUL any more', 'A plan with a NUL, replaced by one without, should read back as the new text.');
          await store.write('nul.md', 'a NUL again\u0000');
          check((await store.read('nul.md')) === 'a NUL again\u0000', 'A plan without a NUL, replaced by one with, should read back as the new text.');
          check((await store.exists('only-nul.md')) === true, 'exists() of a plan with a NUL should be true.');
        }),
    },
    {
      // Well-formed Unicode: a lone surrogate is not text (see the case above).
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
      name: 'plans: write with ifAbsent writes only where no plan is; of such writes racing for one name (across instances too) exactly one wins',
      run: () =>
        withStore(async ({ store, openPeer }) => {
          const first = await store.write('first.md', 'one', { ifAbsent: true });
          // The option is the store's to honour: one that ignores it writes as usual.
          if (first === undefined) return;
          check(first === true, `write(name, text, { ifAbsent: true }) of a free name should resolve true, got ${show(first)}.`);
          check((await store.write('first.md', 'two', { ifAbsent: true })) === false, 'write(…, { ifAbsent: true }) of a name a plan holds should resolve false.');
          check((await store.read('first.md')) === 'one', 'write(…, { ifAbsent: true }) of a taken name wrote over the plan there.');
          await store.write('first.md', 'replaced');
          check((await store.read('first.md')) === 'replaced', 'A write without ifAbsent should still replace the plan.');
          const peer = openPeer ? await openPeer() : store;
          const texts = Array.from({ length: 8 }, (_, index) => `contender ${index}`);
          const results = await Promise.all(texts.map((text, index) => (index % 2 === 0 ? store : peer).write('raced.md', text, { ifAbsent: true })));
          const winners = texts.filter((_, index) => results[index] === true);
          check(winners.length === 1, `Of ${texts.length} writes with ifAbsent racing for one name, ${winners.length} resolved true: exactly one should.`);
          check((await peer.read('raced.md')) === winners[0], `The plan left under a raced name is not the winner's: ${show(await peer.read('raced.md'))}.`);
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
