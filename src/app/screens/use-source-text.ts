// The text a search starts from: the video's summary or the scene's description. Read from the
// video detail the previous page usually left in the cache.
import { skipToken } from '@reduxjs/toolkit/query';
import { useGetVideoQuery } from '../../features/videos/api';

export function useSourceText(videoId: string | null, sceneIndex: number | null): string | null {
  const { data } = useGetVideoQuery(videoId ?? skipToken);
  if (!videoId || !data) return null;
  if (sceneIndex === null) return data.summary ?? '';
  return data.outputData.scenes.find((scene) => scene.index === sceneIndex)?.description ?? '';
}
