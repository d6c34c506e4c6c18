// The video list with the upload feature composed in (features do not import each other).
import { PendingUploads } from '../../features/upload/components/PendingUploads';
import { useActiveUploadVideoIds } from '../../features/upload/hooks/use-active-upload-video-ids';
import { VideoListPage } from '../../features/videos/components/VideoListPage';
import { UploadSlot } from './UploadSlot';

export function VideoListScreen() {
  // A video still in the queue shows as its upload row only, not also as the server's row.
  const uploading = useActiveUploadVideoIds();
  return (
    <VideoListPage
      headerActions={<UploadSlot />}
      pendingRows={<PendingUploads />}
      hiddenVideoIds={uploading}
    />
  );
}
