import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createApi } from './api';
import { resolveKeySource } from './key-source';
import { callRemoteTool } from './remote';
import { createServer } from './server';
import { defaultSessionPath, SessionStore } from './sessions';
import type { ToolContext } from './tools/kit';

/**
 * `shiftmarket-mcp`: an MCP server over stdio (stdout carries only the protocol; notes go to stderr,
 * never a key). Service address: SHIFTMARKET_BASE_URL (default http://localhost:8787, `npm run dev`).
 */
const DEFAULT_BASE_URL = 'http://localhost:8787';

async function main() {
  const baseUrl = (process.env.SHIFTMARKET_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');
  // Nothing slow before the first answer: the keychain lookup and the scrypt derivation run while the
  // client initializes and lists the tools; a tool call waits for them (SessionStore.ready).
  const store = new SessionStore(defaultSessionPath(), resolveKeySource());
  store.ready().then(
    () => {
      if (store.source.kind === 'none') {
        process.stderr.write(
          'shiftmarket-mcp: no OS keychain and no SHIFTMARKET_MCP_PASSPHRASE: accounts added now are kept in memory for this run only.\n',
        );
      }
    },
    (err: unknown) => process.stderr.write(`shiftmarket-mcp: ${(err as Error)?.message ?? String(err)}\n`),
  );
  const api = createApi(baseUrl);
  const ctx: ToolContext = {
    api,
    store,
    pending: new Map(),
    remote: (key, name, args) => callRemoteTool(api.baseUrl, key, name, args),
  };
  serveStdio(() => createServer(ctx));
}

main().catch((err: unknown) => {
  process.stderr.write(`shiftmarket-mcp: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});
