// The trailer and report area when no actions are composed in (product-spec section 2): the
// processing notes, Watch trailer and Open report.
import { Button, Stack, Text } from '@chakra-ui/react';
import { LabelledRow } from '../../../components/LabelledRow';
import { assetUrl, reportUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import type { Video } from '../api';

export function OutputsStatus({
  video,
  onWatchTrailer,
}: {
  video: Video;
  onWatchTrailer: (src: string) => void;
}) {
  const t = useT();
  const trailer = assetUrl(video.trailerPath);
  const report = reportUrl(video);
  return (
    <Stack gap="2" data-testid="outputs-area">
      <LabelledRow label={t('detail.trailer')}>
        {video.isTrailerCreating ? (
          <Text color="gray.700">{t('detail.trailerCreating')}</Text>
        ) : trailer ? (
          <Button size="sm" variant="outline" onClick={() => onWatchTrailer(trailer)}>
            {t('detail.watchTrailer')}
          </Button>
        ) : (
          <Text color="gray.700">{t('detail.noTrailer')}</Text>
        )}
      </LabelledRow>
      <LabelledRow label={t('detail.report')}>
        {video.isReportCreating ? (
          <Text color="gray.700">{t('detail.reportCreating')}</Text>
        ) : report ? (
          <Button asChild size="sm" variant="outline">
            <a href={report} target="_blank" rel="noopener">
              {t('detail.openReport')}
            </a>
          </Button>
        ) : (
          <Text color="gray.700">{t('detail.noReport')}</Text>
        )}
      </LabelledRow>
    </Stack>
  );
}
