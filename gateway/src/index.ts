// @fieldops/gateway: what other packages use of the gateway (docs/architecture.md, "Package
// faces"). The endpoint registry and the agent surface made from it (the OpenAPI document, the
// tools in three dialects, the tool executor), the authorization and limits those documents
// state, and the wiring a platform needs (service clients and their addresses, the demo tenant).
// `./start` runs the gateway; `./collections` names its stores' collections for the store
// catalogue without loading the rest; `./mcp` is the MCP server, apart because the MCP SDK is a
// quarter of a second to load and only an MCP transport needs it.
export { connectServiceClients } from './clients.ts';
export type { ServiceAddresses } from './clients.ts';
export type { EndpointDef } from './endpoint/types.ts';
export { authorize } from './identity/authorize.ts';
export { ensureDemoTenant } from './identity/demo.ts';
export { KINDS } from './identity/scopes.ts';
export type { Kind } from './identity/scopes.ts';
export { SPEC_RATE_LIMITS } from './limits.ts';
export { fromStrictArguments, inputForHeader, ToolExecutor } from './mcp/tool-executor.ts';
export type { ManifestTool, ToolAnswer } from './mcp/tool-executor.ts';
export { buildOpenApi } from './openapi/openapi.ts';
export { toolsIn } from './openapi/tool-dialects.ts';
export type { McpTool, OpenAiTool } from './openapi/tool-dialects.ts';
export { buildTools } from './openapi/tools.ts';
export type { Tool } from './openapi/tools.ts';
export type { PipelineDeps } from './pipeline/deps.ts';
export { buildRegistry } from './registry/index.ts';
export { SERVICE_ADDRESS_VARIABLES, serviceAddressesFromEnv } from './service-addresses.ts';
