import { resetApprovals } from '../connection/api-key';
import type { CommandModule } from '../types';

/** Reset Connection Approvals: forgets every "Always for this origin" answer of the consent modal. */
export const resetConnectionApprovals: CommandModule = {
  id: 'rolloutLint.resetConnectionApprovals',
  run(context) {
    return resetApprovals(context);
  },
};
