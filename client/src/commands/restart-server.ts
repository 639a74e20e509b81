import { say } from '../connection/texts';
import type { CommandModule } from '../types';

/** Stops and starts the language server (picks up a rebuilt server or a granted workspace trust). */
export const restartServer: CommandModule = {
  id: 'rolloutLint.restartServer',
  async run({ restartServer: restart, log, host }) {
    log.info(say(host.language, 'log.restarting'));
    await restart();
  },
};
