// The 'make-report' job handler (flag and failure handling shared with the trailer).
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { outputJobHandler } from '../trailer/output-job.ts';
import { makeReport } from './make-report.ts';

export const makeReportHandler: JobHandler = outputJobHandler(
  JobName.MakeReport,
  'report',
  makeReport,
);
