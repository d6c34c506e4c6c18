// The queued and uploading videos, shown above the video list (its pendingRows slot). When an
// upload reaches its last step the list refreshes; a failure shows the generic error popup
// (product-spec section 8) and the row stays, failed, with Retry and Cancel.
import { Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { useT } from '../../../lib/locale-context';
import { useAppDispatch } from '../../../lib/store-hooks';
import { invalidateVideoList } from '../api';
import { useUploadJobs } from '../hooks/use-upload-jobs';
import { PendingUploadRow } from './PendingUploadRow';

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
        <Stack as="ul" gap="2" listStyleType="none" mb="4" aria-label={t('upload.pendingTitle')}>
          {jobs.map((job) => (
            <PendingUploadRow key={job.jobId} job={job} />
          ))}
        </Stack>
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
