/**
 * `agent-harness/bullmq`: agent runs as BullMQ jobs across a fleet of worker processes, one job per
 * session at a time, held by the session store's leases (`bullmq` is an optional peer dependency).
 * @packageDocumentation
 */
export { createAgentQueue, type AgentQueue, type AgentQueueOptions, type EnqueueApprovalOptions, type EnqueueRunOptions, type EnqueuedAgentJob } from './create-agent-queue.js';
export { createAgentWorker, type AgentWorker, type AgentWorkerError, type AgentWorkerOptions, type AgentWorkerSession } from './create-agent-worker.js';
export type { AgentWorkerCloseOptions } from './agent-worker-close-options.js';
export { DEFAULT_AGENT_QUEUE_NAME, type AgentJobData, type AgentJobResult } from './agent-job.js';
export type { AgentQueueConnection, AgentQueueLocation } from './bullmq-connection.js';
