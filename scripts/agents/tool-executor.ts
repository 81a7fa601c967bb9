// The generic executor of the tool manifest lives with the gateway's MCP endpoint, which calls
// the API through it (gateway/src/mcp/tool-executor.ts); scripts and docs keep this path.
export { fromStrictArguments, inputForHeader, ToolExecutor } from '@fieldops/gateway';
export type { ManifestTool, ToolAnswer } from '@fieldops/gateway';
