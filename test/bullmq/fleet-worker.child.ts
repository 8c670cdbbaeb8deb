// A worker process of the fleet tests: `node --import tsx test/bullmq/fleet-worker.child.ts`.
// With FLEET_HANG_STEP=n, the `step` call with input n prints `hanging <toolUseId>` and never
// returns, so the test can SIGKILL the process in the middle of a tool call.
import { anthropicModel, createAgent } from 'agent-harness';
import { createAgentWorker } from 'agent-harness/bullmq';
import { fleetTools } from '../../examples/worker-fleet/fleet-tools.js';
import { bullConnection, openFleetStore, placeFromEnv } from './fleet-stores.js';

const place = placeFromEnv(process.env);
const { store } = await openFleetStore(place);
const hangStep = process.env.FLEET_HANG_STEP === undefined ? undefined : Number(process.env.FLEET_HANG_STEP);
const tools = fleetTools({
  logFile: process.env.FLEET_LOG!,
  onStart: ({ toolUseId, name, n }) => {
    if (name !== 'step' || n !== hangStep) return;
    process.stdout.write(`hanging ${toolUseId}\n`);
    return new Promise<void>(() => undefined);
  },
});
createAgentWorker({
  connection: bullConnection(place.redisUrl),
  queueName: place.queueName,
  prefix: place.bullPrefix,
  store,
  leaseTtlMs: Number(process.env.FLEET_LEASE_MS ?? 30_000),
  lockDurationMs: Number(process.env.FLEET_LOCK_MS ?? 30_000),
  heldRetryMs: 200,
  createAgent: (session) =>
    createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'offline', baseURL: process.env.FLEET_MODEL_URL!, maxRetries: 0 }),
      tools,
      ...session.agentOptions,
    }),
});
process.stdout.write('worker ready\n');
