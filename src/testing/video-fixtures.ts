// Videos as the API answers them, for screen tests: a list row and a page of them
// (GET /api/videos), and a completed video's detail (GET /api/videos/{id}) with scenes of 2 s
// each, without thumbnails, clips or frames unless a test adds them.

export const listVideoFixture = (over: Record<string, unknown>) => ({
  id: 'v',
  filename: 'clip.mp4',
  title: null,
  summary: null,
  tags: [],
  status: 'completed',
  created_at: '2024-05-01T10:00:00.000Z',
  video_thumbnail_path: null,
  ...over,
});

export const listPageFixture = (items: unknown[], total = items.length) => ({
  items,
  total,
  pages: Math.ceil(total / 50),
  page: 1,
  size: 50,
});

export function sceneFixture(index: number, description = `Scene text ${index}`) {
  const at = (seconds: number): string => `00:00:${String(seconds).padStart(2, '0')}.000`;
  return {
    index,
    start_time: at(index * 2),
    end_time: at(index * 2 + 2),
    thumbnail: null,
    description,
    video_path: null,
    frames: [],
  };
}

export function completedVideoFixture(id: string, scenes: ReturnType<typeof sceneFixture>[]) {
  return {
    id,
    filename: 'harbour.mp4',
    title: 'Harbour',
    summary: 'A day at the harbour.',
    tags: [],
    status: 'completed',
    created_at: '2024-05-01T10:00:00.000Z',
    trailer_path: null,
    report_path: null,
    is_trailer_creating: false,
    is_report_creating: false,
    output_data: { scenes, captions: [] },
  };
}
