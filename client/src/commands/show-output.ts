import type { CommandModule } from '../types';

/** Shows the Rollout Lint log channel (also what a click on the language status item does). */
export const showOutput: CommandModule = {
  id: 'rolloutLint.showOutput',
  run({ log }) {
    log.show(true);
  },
};
