// A team's people as the people API (notes/api-30.md) answers them, behind the fetch stub: enough
// of the server's rules (names, merges, rejections, the admin-only setting) for screen tests.
import type { Routes } from './signed-in';

interface FakePerson {
  id: string;
  name: string | null;
  faces: { id: number; videoId: string; sceneIndex: number }[];
}

const json = (status: number, body?: unknown) => ({ status, body });

export function fakePeopleApi({
  canChange = true,
  refuseChange = !canChange,
}: { canChange?: boolean; refuseChange?: boolean } = {}) {
  const people: FakePerson[] = [
    { id: 'p-ana', name: 'Ana', faces: [{ id: 1, videoId: 'v1', sceneIndex: 0 }] },
    {
      id: 'g-big',
      name: null,
      faces: [1, 2, 3, 4, 5].map((n) => ({
        id: 10 + n,
        videoId: n < 3 ? 'v1' : 'v2',
        sceneIndex: n,
      })),
    },
    {
      id: 'g-small',
      name: null,
      faces: [
        { id: 21, videoId: 'v2', sceneIndex: 1 },
        { id: 22, videoId: 'v2', sceneIndex: 2 },
      ],
    },
  ];
  const grouping = { enabled: true, can_change: canChange };
  const summary = (p: FakePerson) => ({
    id: p.id,
    name: p.name,
    face_url: `faces/${p.faces[0]?.id ?? 0}.jpg?sig=x`,
    faces: p.faces.slice(0, 4).map((f) => `faces/${f.id}.jpg?sig=x`),
    face_count: p.faces.length,
    scene_count: new Set(p.faces.map((f) => `${f.videoId}/${f.sceneIndex}`)).size,
    video_count: new Set(p.faces.map((f) => f.videoId)).size,
  });
  const page = <T>(items: T[]) => ({ items, total: items.length, pages: 1, page: 1, size: 24 });
  const find = (path: string) => people.find((p) => path.split('/')[3] === p.id);
  const byName = (name: string, except: string) =>
    people.find((p) => p.id !== except && p.name?.toLowerCase() === name.toLowerCase());

  const routes: Routes = {
    'GET /api/people': ({ url }) => {
      const named = url.searchParams.get('named') === 'true';
      const chosen = people
        .filter((p) => (p.name !== null) === named)
        .sort((a, b) => (named ? a.name!.localeCompare(b.name!) : b.faces.length - a.faces.length));
      return json(200, page(chosen.map(summary)));
    },
    'GET /api/team/face-grouping': () => json(200, grouping),
    'PUT /api/team/face-grouping': ({ body }) => {
      if (refuseChange) return json(403, { detail: 'Only a team administrator can change this.' });
      grouping.enabled = (body as { enabled: boolean }).enabled;
      if (!grouping.enabled) people.splice(0, people.length, ...people.filter((p) => p.name));
      return json(200, grouping);
    },
  };
  for (const p of people) {
    const base = `/api/people/${p.id}`;
    routes[`GET ${base}`] = ({ url }) => {
      const person = find(url.pathname);
      return person ? json(200, summary(person)) : json(404, { detail: 'Not found' });
    };
    routes[`PATCH ${base}`] = ({ url, body }) => {
      const person = find(url.pathname)!;
      const name = String((body as { name: unknown }).name ?? '').trim();
      if (!name) return json(422, { detail: 'Enter a name.' });
      if (name.length > 100) return json(422, { detail: 'Use at most 100 characters.' });
      if (byName(name, person.id))
        return json(409, { detail: 'Another person already has this name. Merge them instead.' });
      person.name = name;
      return json(200, summary(person));
    };
    routes[`POST ${base}/merge`] = ({ url, body }) => {
      const from = find(url.pathname)!;
      const into = people.find((q) => q.id === (body as { into: string }).into);
      if (!into) return json(404, { detail: 'Not found' });
      into.faces.push(...from.faces);
      into.name ??= from.name;
      people.splice(people.indexOf(from), 1);
      return json(200, summary(into));
    };
    routes[`GET ${base}/faces`] = ({ url }) => {
      const person = find(url.pathname)!;
      return json(
        200,
        page(
          person.faces.map((f) => ({
            id: String(f.id),
            face_url: `faces/${f.id}.jpg?sig=x`,
            video_id: f.videoId,
            video_title: `Video ${f.videoId}`,
            scene_index: f.sceneIndex,
          })),
        ),
      );
    };
    routes[`GET ${base}/scenes`] = ({ url }) => {
      const person = find(url.pathname)!;
      return json(
        200,
        page(
          person.faces.map((f) => ({
            video_id: f.videoId,
            video_title: `Video ${f.videoId}`,
            scene_index: f.sceneIndex,
            start_time: `00:00:${String(f.sceneIndex * 4).padStart(2, '0')}.500`,
            end_time: `00:00:${String(f.sceneIndex * 4 + 4).padStart(2, '0')}.000`,
            thumbnail: `${f.videoId}/scene-${f.sceneIndex}.jpg?sig=x`,
            face_id: String(f.id),
            face_url: `faces/${f.id}.jpg?sig=x`,
          })),
        ),
      );
    };
    for (const f of p.faces) {
      routes[`POST ${base}/faces/${f.id}/reject`] = ({ url }) => {
        const person = find(url.pathname)!;
        const index = person.faces.findIndex((face) => face.id === f.id);
        if (index < 0) return json(404, { detail: 'Not found' });
        person.faces.splice(index, 1);
        if (person.faces.length === 0 && person.name === null)
          people.splice(people.indexOf(person), 1);
        return { status: 204 };
      };
    }
  }
  return { routes, people, grouping };
}
