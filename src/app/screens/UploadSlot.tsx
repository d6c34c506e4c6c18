// The video list's Upload button, without Chakra until it is used (issue 8). The list renders a
// look-alike (same label, role and place); pointing at it or focusing it fetches the real one
// (the upload feature's UploadButton, with Chakra), and the first click swaps it in and passes the
// click on, so the dialog opens as it always did. A start of the list thus builds no Chakra system
// and renders no Chakra component at all. Meanwhile the dialog's output languages are fetched, so
// it can queue an upload offline later.
import { Suspense, useEffect, useRef, useState } from 'react';
import { lazyWithChakra, loadChakraScope } from '../../components/lazy-with-chakra';
import { PlainButton } from '../../components/PlainButton';
import { useLanguagesForOffline } from '../../features/upload/hooks/use-languages-for-offline';
import { useT } from '../../lib/locale-context';

const loadUploadButton = () => import('../../features/upload/components/UploadButton');

interface Handover {
  /** The look-alike had the focus: the real button takes it. */
  focus: boolean;
}

const RealUploadButton = lazyWithChakra(async () => {
  const { UploadButton } = await loadUploadButton();
  function TakeOver({ focus }: Handover) {
    const box = useRef<HTMLSpanElement>(null);
    useEffect(() => {
      const button = box.current?.querySelector('button');
      if (focus) button?.focus();
      button?.click();
    }, [focus]);
    return (
      <span ref={box} style={{ display: 'contents' }}>
        <UploadButton />
      </span>
    );
  }
  return TakeOver;
});

export function UploadSlot() {
  const t = useT();
  const [handover, setHandover] = useState<Handover | null>(null);
  useLanguagesForOffline();
  const warm = () => void Promise.all([loadUploadButton(), loadChakraScope()]);
  if (handover) {
    return (
      <Suspense fallback={<PlainButton aria-busy>{t('upload.button')}</PlainButton>}>
        <RealUploadButton focus={handover.focus} />
      </Suspense>
    );
  }
  return (
    <PlainButton
      onPointerEnter={warm}
      onFocus={warm}
      onClick={(event) => setHandover({ focus: document.activeElement === event.currentTarget })}
    >
      {t('upload.button')}
    </PlainButton>
  );
}
