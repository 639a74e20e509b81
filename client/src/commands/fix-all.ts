import { say } from '../connection/texts';
import type { CommandModule } from '../types';

/** The server command that applies every safe fix to a document (`rolloutLint.server.fixAll`). */
export const SERVER_FIX_ALL = 'rolloutLint.server.fixAll';

/** What `rolloutLint.server.fixAll` answers: findings fixed, and findings left (they need a decision). */
export interface FixAllResult {
  fixed: number;
  remaining: number;
}

/**
 * Fix All Safely Fixable Problems in This File: applies every safe fix to the document in the active
 * editor (the same edits as `source.fixAll.rollout-lint`) and says what it did, with counts:
 * "Fixed 2 problems in configs/.env. 1 still needs a decision", "Nothing in .env can be fixed safely",
 * or "No problems in .env". Resolves to the server's answer (`undefined` when nothing ran).
 */
export const fixAll: CommandModule = {
  id: 'rolloutLint.fixAll',
  async run({ host, server, log }): Promise<FixAllResult | undefined> {
    const document = host.activeDocument();
    const connection = server();
    if (!document) {
      void host.showMessage('info', say(host.language, 'fixAll.noEditor'), {});
      return undefined;
    }
    if (!connection) return undefined;
    const file = host.relativePath(document.uri);
    try {
      const result = await connection.sendRequest<FixAllResult | null>('workspace/executeCommand', { command: SERVER_FIX_ALL, arguments: [{ uri: document.uri }] });
      const counts = result ?? { fixed: 0, remaining: 0 };
      void host.showMessage('info', fixAllMessage(host.language, file, counts), {});
      return counts;
    } catch (error) {
      const message = say(host.language, 'fixAll.failed', { message: (error as Error).message });
      log.error(message);
      void host.showMessage('error', message, {});
      return undefined;
    }
  },
};

/** The message Fix All shows for `counts` in `file`. */
export function fixAllMessage(language: string, file: string, counts: FixAllResult): string {
  if (counts.fixed === 0 && counts.remaining === 0) return say(language, 'fixAll.clean', { file });
  const done = counts.fixed === 0 ? say(language, 'fixAll.nothing', { file }) : counts.fixed === 1 ? say(language, 'fixAll.fixedOne', { file }) : say(language, 'fixAll.fixed', { fixed: counts.fixed, file });
  if (counts.remaining === 0) return done;
  return `${done}${/^zh\b/i.test(language) ? '' : ' '}${(counts.remaining === 1 ? say(language, 'fixAll.leftOne') : say(language, 'fixAll.left', { left: counts.remaining }))}`;
}
