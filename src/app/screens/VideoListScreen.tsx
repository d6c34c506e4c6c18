// The video list with the upload feature composed in (features do not import each other).
import { PendingUploads } from '../../features/upload/components/PendingUploads';
import { UploadButton } from '../../features/upload/components/UploadButton';
import { useActiveUploadVideoIds } from '../../features/upload/hooks/use-active-upload-video-ids';
import { VideoListPage } from '../../features/videos/components/VideoListPage';

export function VideoListScreen() {
  // A video still in the queue shows as its upload row only, not also as the server's row.
  const uploading = useActiveUploadVideoIds();
  return (
    <VideoListPage
      headerActions={<UploadButton />}
      pendingRows={<PendingUploads />}
      hiddenVideoIds={uploading}
    />
  );
}
