// The signed-in user's upload batches, read from the queue's IndexedDB: again whenever one of
// their jobs changes state (a job that finished is written into its batch), and every few seconds.
import { useEffect, useState } from 'react';
import type { UploadBatch } from '../../../upload-queue/batch-types';

const RELIST_MS = 4_000;

export function useUploadBatches(): { batches: UploadBatch[]; relist: () => void } {
  const [batches, setBatches] = useState<UploadBatch[]>([]);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let stopped = false;
    const list = (): void => {
      void import('../../../upload-queue/batch-client')
        .then((client) => client.listBatches())
        .then((listed) => {
          if (!stopped) setBatches(listed);
        })
        .catch(() => undefined);
    };
    list();
    const timer = setInterval(list, RELIST_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [tick]);

  return { batches, relist: () => setTick((n) => n + 1) };
}
