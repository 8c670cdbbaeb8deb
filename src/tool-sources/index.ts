export { Toolbox, type ToolboxOptions } from './toolbox.js';
export {
  resolveToolSources,
  resolveToolSourcesNow,
  toolSourcesAreAsync,
  assertToolSourceOptions,
  type ToolSourceOptions,
  type ToolSourceSink,
  type ResolvedToolSources,
} from './tool-sources.js';
export { LoadingStop } from './loading-stop.js';
