import { showReport } from '../connection/run';
import type { CommandModule } from '../types';

/** Show Last Connection Report: the last Test Connection report as a read-only document. */
export const showReportCommand: CommandModule = {
  id: 'rolloutLint.showReport',
  run(context) {
    return showReport(context);
  },
};
