// The generic executor of the tool manifest lives with the gateway's MCP endpoint, which calls
// the API through it (gateway/src/mcp/tool-executor.ts); scripts and docs keep this path.
export * from '@fieldops/gateway/mcp/tool-executor';
