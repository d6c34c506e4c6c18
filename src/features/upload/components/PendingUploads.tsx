// The queued and uploading videos, shown above the video list (its pendingRows slot): a row for
// each single upload, and a panel for each batch (issue 42). When an upload reaches its last step
// the list refreshes; a single upload's failure shows the generic error popup (product-spec
// section 8) and the row stays, failed, with Retry and Cancel.
import { Suspense, useMemo, useState } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { lazyWithChakra } from '../../../components/lazy-with-chakra';
import { useT } from '../../../lib/locale-context';
import { useAppDispatch } from '../../../lib/store-hooks';
import { invalidateVideoList } from '../api';
import { useUploadBatches } from '../batch/use-upload-batches';
import { useUploadJobs } from '../hooks/use-upload-jobs';
import styles from './PendingUploads.module.css';

// The rows are built with Chakra: they and Chakra load when there is an upload to show, so a list
// without uploads starts without either (issue 8).
const PendingUploadRow = lazyWithChakra(
  async () => (await import('./PendingUploadRow')).PendingUploadRow,
);
const BatchPanel = lazyWithChakra(async () => (await import('../batch/BatchPanel')).BatchPanel);

export function PendingUploads() {
  const t = useT();
  const dispatch = useAppDispatch();
  const [failed, setFailed] = useState(false);
  const { batches, relist } = useUploadBatches();
  const jobs = useUploadJobs({
    onDone: () => {
      dispatch(invalidateVideoList());
      relist();
    },
    onFailed: (job) => {
      // A batch says so in its panel; a popup per failed file of 500 would bury the page.
      if (!job.batchId) setFailed(true);
    },
  });
  const single = jobs.filter((job) => !job.batchId);
  const byId = useMemo(() => new Map(jobs.map((job) => [job.jobId, job])), [jobs]);

  return (
    <>
      {batches.map((batch) => (
        <Suspense key={batch.id} fallback={null}>
          <BatchPanel batch={batch} jobs={byId} onChanged={relist} />
        </Suspense>
      ))}
      {single.length > 0 ? (
        <ul className={styles.list} aria-label={t('upload.pendingTitle')}>
          {single.map((job) => (
            <Suspense
              key={job.jobId}
              fallback={
                // Until the row's code is there: the same row, plain (name and state).
                <li
                  className={styles.placeholder}
                  data-upload-job={job.jobId}
                  data-upload-state={job.state}
                >
                  {job.filename}
                </li>
              }
            >
              <PendingUploadRow job={job} />
            </Suspense>
          ))}
        </ul>
      ) : null}
      <LazyAppModal
        open={failed}
        type="error"
        lines={[t('common.genericError')]}
        onClose={() => setFailed(false)}
      />
    </>
  );
}
