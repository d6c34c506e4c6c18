// The trailer and report areas of the video detail page (product-spec section 2): Make
// trailer / Make report open the instruction dialog; while a job runs its processing note shows;
// Watch trailer plays the trailer; Open report opens the report page in a new tab.
import { Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { LabelledRow } from '../../../components/LabelledRow';
import { assetUrl, reportUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import type { OutputKind, OutputsVideo } from '../api';
import { InstructionDialog } from './InstructionDialog';

interface OutputsAreaProps {
  video: OutputsVideo;
  onWatchTrailer: (src: string) => void;
}

export function OutputsArea({ video, onWatchTrailer }: OutputsAreaProps) {
  const t = useT();
  const [dialog, setDialog] = useState<OutputKind | null>(null);
  const trailer = assetUrl(video.trailerPath);
  const report = reportUrl(video);

  return (
    <Stack gap="3" data-testid="outputs-area">
      <LabelledRow label={t('detail.trailer')}>
        {video.isTrailerCreating ? (
          <Text color="gray.700" role="status">
            {t('detail.trailerCreating')}
          </Text>
        ) : (
          <>
            <NeedsNetwork>
              <Button size="sm" colorPalette="blue" onClick={() => setDialog('trailer')}>
                {t('outputs.makeTrailer')}
              </Button>
            </NeedsNetwork>
            {trailer ? (
              <Button size="sm" variant="outline" onClick={() => onWatchTrailer(trailer)}>
                {t('detail.watchTrailer')}
              </Button>
            ) : null}
          </>
        )}
      </LabelledRow>
      {video.isTrailerCreating ? null : (
        <Text fontSize="sm" color="gray.600" mt="-2">
          {t('outputs.trailerHint')}
        </Text>
      )}
      <LabelledRow label={t('detail.report')}>
        {video.isReportCreating ? (
          <Text color="gray.700" role="status">
            {t('detail.reportCreating')}
          </Text>
        ) : (
          <>
            <NeedsNetwork>
              <Button size="sm" colorPalette="blue" onClick={() => setDialog('report')}>
                {t('outputs.makeReport')}
              </Button>
            </NeedsNetwork>
            {report ? (
              <Button asChild size="sm" variant="outline">
                <a href={report} target="_blank" rel="noopener noreferrer">
                  {t('detail.openReport')}
                </a>
              </Button>
            ) : null}
          </>
        )}
      </LabelledRow>
      {video.isReportCreating ? null : (
        <Text fontSize="sm" color="gray.600" mt="-2">
          {t('outputs.reportHint')}
        </Text>
      )}
      <InstructionDialog
        kind={dialog ?? 'trailer'}
        videoId={video.id}
        open={dialog !== null}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}
