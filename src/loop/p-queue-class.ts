// The p-queue class under a name of our own, for ToolQueue's dynamic import: a named export reads
// the same from the ES module build and from the CommonJS one (where a dynamic import's `default`
// is the chunk's whole `exports`, not its default export).
export { default as PQueueClass } from 'p-queue';
