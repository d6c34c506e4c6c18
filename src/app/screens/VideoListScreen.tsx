// The video list with the upload feature composed in (features do not import each other).
import { PendingUploads } from '../../features/upload/components/PendingUploads';
import { UploadButton } from '../../features/upload/components/UploadButton';
import { VideoListPage } from '../../features/videos/components/VideoListPage';

export function VideoListScreen() {
  return <VideoListPage headerActions={<UploadButton />} pendingRows={<PendingUploads />} />;
}
