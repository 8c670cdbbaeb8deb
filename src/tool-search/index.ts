export { DeferredToolCatalog } from './deferred-tool-catalog.js';
export { Bm25ToolIndex } from './bm25-search.js';
export {
  regexSearch,
  checkSearchPattern,
  compileSearchPattern,
  rankRegexMatches,
  searchedTexts,
  MAX_REGEX_PATTERN_LENGTH,
  type CheckedSearchPattern,
  type RegexSearchResult,
} from './regex-search.js';
export { searchableTool, type SearchableTool } from './searchable-tool.js';
export { tokenize } from './tokenize.js';
export { createToolSearchTool, TOOL_SEARCH_TOOL_NAME, type ToolSearchToolOptions } from './tool-search-tool.js';
export { toolSearchServerTool, toolSearchVariantOf, type ToolSearchVariant } from './tool-search-server-tool.js';
export { resolveToolSearch, type ToolSearchMode, type ResolvedToolSearch } from './resolve-tool-search.js';
