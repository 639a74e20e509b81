import type { CommandModule } from '../types';

/** The server command that applies every safe fix to a document (`rolloutLint.server.fixAll`). */
export const SERVER_FIX_ALL = 'rolloutLint.server.fixAll';

/** Applies every safe fix to the document in the active editor (the same edits as `source.fixAll.rollout-lint`). */
export const fixAll: CommandModule = {
  id: 'rolloutLint.fixAll',
  async run({ host, server, log }) {
    const document = host.activeDocument();
    const connection = server();
    if (!document || !connection) return;
    try {
      await connection.sendRequest('workspace/executeCommand', { command: SERVER_FIX_ALL, arguments: [{ uri: document.uri }] });
    } catch (error) {
      log.error(`Fix All failed: ${(error as Error).message}`);
    }
  },
};
