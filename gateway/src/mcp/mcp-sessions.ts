// The MCP sessions of one gateway process: each bound to the token that opened it (a request
// naming another token's session is answered as if the session did not exist), held to a few per
// token, and dropped after a while unused, so no client can fill memory with sessions.
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface McpSession {
  tokenId: string;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

export const SESSIONS_PER_TOKEN = 16;
export const SESSION_IDLE_MS = 30 * 60 * 1000;

export class McpSessions {
  private readonly byId = new Map<string, McpSession>();

  /** The session `id` of this token, or undefined (unknown, closed, or another token's). */
  find(id: string, tokenId: string): McpSession | undefined {
    const session = this.byId.get(id);
    if (!session || session.tokenId !== tokenId) return undefined;
    session.lastUsed = Date.now();
    return session;
  }

  add(id: string, session: McpSession): void {
    this.dropIdle();
    const own = [...this.byId.entries()].filter(([, held]) => held.tokenId === session.tokenId);
    // The token's oldest sessions make room (a client that lost its session id opens a new one).
    own.sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [oldId] of own.slice(0, Math.max(0, own.length - SESSIONS_PER_TOKEN + 1))) this.close(oldId);
    this.byId.set(id, session);
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  close(id: string): void {
    const session = this.byId.get(id);
    this.byId.delete(id);
    void session?.transport.close().catch(() => undefined);
  }

  closeAll(): void {
    for (const id of [...this.byId.keys()]) this.close(id);
  }

  private dropIdle(now = Date.now()): void {
    for (const [id, session] of this.byId) if (now - session.lastUsed > SESSION_IDLE_MS) this.close(id);
  }
}
