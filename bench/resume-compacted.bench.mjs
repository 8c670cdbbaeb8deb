// Issue 16: what resuming a long session costs (createAgent with `resume` + `await agent.ready`),
// for a session that compacted its context several times and for one that never did. Run with
// `npm run build && node bench/resume-compacted.bench.mjs` (`--full` for a longer session);
// `BENCH_BASE=<other build's dist/ folder>` measures that build too, alternated resume by resume.
//
// The session: `TURNS` turns each reading a 20 KB file, through the default context management
// with clearing off (a 200,000-token window: it compacts about every 35 turns), written to the
// file store and the memory store, and to PostgreSQL and Redis when they answer
// (`AGENT_HARNESS_PG_URL`, `AGENT_HARNESS_REDIS_URL`, else the loopback defaults the tests use; a
// schema and a key prefix of its own, dropped at the end); the control is the same session with
// compaction off too (its only checkpoint is its first entry), and a third session of `SMALL_TURNS`
// turns of a 300-character read, never compacted: thousands of small entries, where a resume costs
// per entry (reading, checking, folding) more than per byte. And per store, a request of a host
// that makes an agent per request on that third session: resume, one chat answer, close (on the
// file store also on a copy another process wrote last, of which this one knows nothing)
// (twenty-ninth round). And the same long session with the default context management, which
// clears old results and so never compacts (thirty-second round). Info rows: the issue sets no
// goal on them.
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { base, loadBuilds } from './lib/builds.mjs';
import { remoteStores } from './lib/remote-stores.mjs';
import { environmentHeader, fullRun } from './lib/environment.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const started = performance.now();
const TURNS = fullRun ? 800 : 400;
// The third session: many small turns (a 300-character read each), never compacted, where the
// cost is per entry rather than per byte.
const SMALL_TURNS = fullRun ? 4000 : 2000;
const SMALL_CHARS = 300;
const ROUNDS = fullRun ? 21 : 11;
const CHARS = 20_000;
const SUMMARY_ASK = 'is about to be replaced by a summary';
const builds = await loadBuilds();
const { lib, node } = builds.this;

const read = lib.defineTool({
  name: 'Read',
  description: 'Reads a file.',
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  execute: ({ input }) => {
    const chars = input.path.startsWith('small-') ? SMALL_CHARS : CHARS;
    return `contents of ${input.path}\n${'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27)).slice(0, chars)}`;
  },
});

/** A model that reads `turns` files (named `small-…` for the small reads), then answers; it summarizes when asked, and reports the request's estimated size as its input. */
function writerModel(turns = TURNS, prefix = 'file') {
  let reads = 0;
  return {
    specificationVersion: 'v1',
    provider: 'bench',
    modelId: 'claude-sonnet-4-6',
    async *stream(request) {
      let tokens = lib.estimatePrefixTokens(request);
      for (const message of request.messages) tokens += lib.estimateMessageTokens(message);
      const last = request.messages.at(-1);
      const text = typeof last.content === 'string' ? last.content : last.content.map((block) => block.text ?? '').join('\n');
      let content;
      if (text.includes(SUMMARY_ASK)) content = [{ type: 'text', text: `<summary>\n## Goal\nRead every file.\n## Done\n${reads} files read.\n</summary>` }];
      else if (reads < turns) content = [{ type: 'tool_use', id: `toolu_${++reads}`, name: 'Read', input: { path: `${prefix}-${reads}.txt` } }];
      else content = [{ type: 'text', text: 'All files read.' }];
      const usage = { inputTokens: tokens, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
      yield { type: 'response', response: { message: { role: 'assistant', content }, stopReason: content[0].type === 'tool_use' ? 'tool_use' : 'end_turn', usage } };
    },
  };
}
const idleModel = { specificationVersion: 'v1', provider: 'bench', modelId: 'claude-sonnet-4-6', async *stream() {} };
/** A model that answers in text at once: one chat answer of a request. */
const chatModel = {
  specificationVersion: 'v1',
  provider: 'bench',
  modelId: 'claude-sonnet-4-6',
  async *stream() {
    yield { type: 'response', response: { message: { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] }, stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 2, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } } };
  },
};

/** Writes the session to `store` under `sessionId`; returns its compactions. */
async function write(store, context, sessionId, turns = TURNS, prefix = 'file', writer = lib) {
  const agent = writer.createAgent({ model: writerModel(turns, prefix), tools: [read], store, sessionId, maxTurns: turns * 2, context });
  const result = await agent.run('Read all the files.').result;
  await agent.close();
  if (result.status !== 'completed') throw new Error(`the writing run ended ${result.status}: ${result.error?.message}`);
  return agent.snapshot().compactions ?? 0;
}

const dir = fs.mkdtempSync(path.join(tmpdir(), 'bench-resume-compacted-'));
const remote = await remoteStores({ builds, base, tag: `bench_resume_${process.pid}` });
try {
  const compacting = { clearing: false };
  const never = { clearing: false, compaction: false };
  const cases = [];
  const sessions = [
    // Its own id: the PostgreSQL and Redis stores hold every session.
    { label: 'compacted', context: compacting, sessionId: 'long', turns: TURNS, prefix: 'file' },
    { label: 'never compacted', context: never, sessionId: 'never', turns: TURNS, prefix: 'file' },
    // The defaults: clearing keeps the context under the compaction threshold, so it never
    // compacts; checkpoints after clearings (thirty-second round) are what a resume starts at.
    // Written by each build (the base's without those checkpoints), each resuming its own.
    { label: 'cleared, never compacted (the defaults)', context: undefined, sessionId: 'cleared', turns: TURNS, prefix: 'file', eachBuild: true },
    { label: `${SMALL_TURNS} small turns, never compacted`, context: never, sessionId: 'small', turns: SMALL_TURNS, prefix: 'small' },
  ];
  for (const { label, context, sessionId, turns, prefix, eachBuild } of sessions) {
    const copies = {};
    for (const name of eachBuild ? Object.keys(builds) : ['this']) {
      const writer = builds[name];
      const id = eachBuild ? `${sessionId}-${name}` : sessionId;
      const folder = path.join(dir, id);
      const compactions = await write(writer.node.fileSessionStore({ dir: folder }), context, id, turns, prefix, writer.lib);
      const memory = writer.lib.memorySessionStore();
      await write(memory, context, id, turns, prefix, writer.lib);
      const bytes = fs.statSync(path.join(folder, `${id}.jsonl`)).size;
      for (const server of remote) await write(server.store(writer), context, id, turns, prefix, writer.lib);
      copies[name] = { compactions, bytes, sessionId: id, memory, folder };
    }
    // A session written by this build is resumed by every build; one written by each, by its writer.
    cases.push({ label, context, ...copies.this, of: (build) => copies[Object.keys(builds).find((name) => builds[name] === build)] ?? copies.this });
  }
  const kinds = ['file', 'memory', ...remote.map((server) => server.name)];
  const storeFor = (entry, kind, build) => {
    if (kind === 'file') return build.node.fileSessionStore({ dir: entry.of(build).folder });
    if (kind === 'memory') return entry.of(build).memory;
    return remote.find((server) => server.name === kind).store(build);
  };
  const times = new Map();
  const record = (key, ms) => (times.get(key) ?? times.set(key, []).get(key)).push(ms);
  const names = Object.keys(builds);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? names : [...names].reverse()) {
      const build = builds[name];
      for (const entry of cases) {
        for (const kind of kinds) {
          const store = storeFor(entry, kind, build);
          const begun = performance.now();
          const agent = build.lib.createAgent({ model: idleModel, tools: [read], store, resume: entry.of(build).sessionId, context: entry.context });
          await agent.ready;
          if (round > 0) record(`${name}:${entry.label}:${kind}`, performance.now() - begun);
          await agent.close();
          if (entry.sessionId === 'small') {
            // A request of a host that makes an agent per request: resume, one chat answer, close
            // (the answer's entries stay: two more per request, next to thousands).
            const request = performance.now();
            const asked = build.lib.createAgent({ model: chatModel, tools: [read], store, resume: entry.sessionId, context: entry.context });
            const result = await asked.run('One more question.').result;
            await asked.close();
            if (result.status !== 'completed') throw new Error(`the request ended ${result.status}: ${result.error?.message}`);
            if (round > 0) record(`${name}:request:${kind}`, performance.now() - request);
          }
          if (kind !== 'file' || entry.sessionId === 'never') continue;
          // The same request on a session another process wrote last: nothing of it is known to
          // this one (a copy under another id, made before the clock starts). On the small session,
          // and on the long ones a resume reads from a checkpoint (thirty-second round).
          const own = entry.of(build);
          const elsewhere = `${own.sessionId}-elsewhere-${name}-${round}`;
          const text = fs.readFileSync(path.join(own.folder, `${own.sessionId}.jsonl`), 'utf8');
          fs.writeFileSync(path.join(own.folder, `${elsewhere}.jsonl`), text.replaceAll(`"${own.sessionId}"`, `"${elsewhere}"`));
          const copied = performance.now();
          const other = build.lib.createAgent({ model: chatModel, tools: [read], store: storeFor(entry, kind, build), resume: elsewhere, context: entry.context });
          const answered = await other.run('One more question.').result;
          await other.close();
          if (answered.status !== 'completed') throw new Error(`the request ended ${answered.status}: ${answered.error?.message}`);
          if (round > 0) record(`${name}:request-elsewhere:${entry.label}`, performance.now() - copied);
          fs.rmSync(path.join(own.folder, `${elsewhere}.jsonl`));
        }
      }
    }
  }
  console.log(environmentHeader('agent-harness resume benchmark (issue 16): a long session, compacted or not', { quick: !fullRun, extra: [`${TURNS} turns of a 20 KB read, or ${SMALL_TURNS} of a 300-character one`, `${ROUNDS - 1} resumes per cell (median)`, ...(base ? [`base = ${base}`] : [])] }));
  const megabytes = (entry) => {
    const size = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
    const other = base ? entry.of(builds.base) : undefined;
    return other && other.bytes !== entry.bytes ? `${size(other.bytes)} as the base wrote it, ${size(entry.bytes)} as this build did` : size(entry.bytes);
  };
  const ms = (key) => `${median(times.get(key)).toFixed(1)} ms`;
  const rows = [];
  for (const entry of cases) {
    for (const kind of kinds) {
      const key = `${entry.label}:${kind}`;
      rows.push([
        `resume, ${entry.label} (${entry.compactions} compactions), ${kind}${kind === 'file' || kind === 'memory' ? ' store' : ''}${kind === 'file' ? ` (${megabytes(entry)})` : ''}`,
        ...(base ? [ms(`base:${key}`)] : []),
        ms(`this:${key}`),
        'info',
      ]);
    }
  }
  const small = cases.find((entry) => entry.sessionId === 'small');
  for (const kind of kinds) {
    rows.push([
      `a request on the ${small.label} session (resume, a chat answer, close), ${kind}${kind === 'file' || kind === 'memory' ? ' store' : ''}`,
      ...(base ? [ms(`base:request:${kind}`)] : []),
      ms(`this:request:${kind}`),
      'info',
    ]);
  }
  for (const entry of cases) {
    if (entry.sessionId === 'never') continue;
    rows.push([`a request on the ${entry.label} session another process wrote last, file store`, ...(base ? [ms(`base:request-elsewhere:${entry.label}`)] : []), ms(`this:request-elsewhere:${entry.label}`), 'info']);
  }
  console.log(renderTable(['measure', ...(base ? ['base'] : []), 'this build', 'result'], rows));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; median of the resumes after the first round)`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const server of remote) await server.dispose();
}
