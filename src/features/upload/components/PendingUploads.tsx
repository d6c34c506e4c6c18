// The queued and uploading videos, shown above the video list (its pendingRows slot). When an
// upload reaches its last step the list refreshes; a failure shows the generic error popup
// (product-spec section 8) and the row stays, failed, with Retry and Cancel.
import { Suspense, useState } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { lazyWithChakra } from '../../../components/lazy-with-chakra';
import { useT } from '../../../lib/locale-context';
import { useAppDispatch } from '../../../lib/store-hooks';
import { invalidateVideoList } from '../api';
import { useUploadJobs } from '../hooks/use-upload-jobs';
import styles from './PendingUploads.module.css';

// The rows are built with Chakra: they and Chakra load when there is an upload to show, so a list
// without uploads starts without either (issue 8).
const PendingUploadRow = lazyWithChakra(
  async () => (await import('./PendingUploadRow')).PendingUploadRow,
);

export function PendingUploads() {
  const t = useT();
  const dispatch = useAppDispatch();
  const [failed, setFailed] = useState(false);
  const jobs = useUploadJobs({
    onDone: () => dispatch(invalidateVideoList()),
    onFailed: () => setFailed(true),
  });

  return (
    <>
      {jobs.length > 0 ? (
        <ul className={styles.list} aria-label={t('upload.pendingTitle')}>
          {jobs.map((job) => (
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
