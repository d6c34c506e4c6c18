// The video list's Upload button; the dialog's code loads when it is first opened.
import { Button } from '@chakra-ui/react';
import { lazy, Suspense, useState } from 'react';
import { useT } from '../../../lib/locale-context';

const UploadDialog = lazy(async () => ({
  default: (await import('./UploadDialog')).UploadDialog,
}));

export function UploadButton() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <Button
        colorPalette="blue"
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        {t('upload.button')}
      </Button>
      {loaded ? (
        <Suspense fallback={null}>
          <UploadDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
