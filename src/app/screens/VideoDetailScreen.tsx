// The video detail page with the trailer and report feature composed in (features do not import
// each other); the trailer plays in the page's player modal.
import { useState } from 'react';
import { OutputsArea } from '../../features/outputs/components/OutputsArea';
import { VideoDetailPage } from '../../features/videos/components/VideoDetailPage';
import { trailerPoster, VideoPlayerModal } from '../../features/videos/components/VideoPlayerModal';
import { useT } from '../../lib/locale-context';

export function VideoDetailScreen() {
  const t = useT();
  const [trailer, setTrailer] = useState<{ src: string; poster: string | null } | null>(null);
  return (
    <>
      <VideoDetailPage
        outputsArea={(video) => (
          <OutputsArea
            video={video}
            onWatchTrailer={(src) => setTrailer({ src, poster: trailerPoster(video) })}
          />
        )}
      />
      <VideoPlayerModal
        title={t('detail.trailer')}
        src={trailer?.src ?? null}
        poster={trailer?.poster ?? null}
        onClose={() => setTrailer(null)}
      />
    </>
  );
}
