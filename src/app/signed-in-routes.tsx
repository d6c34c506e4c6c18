// The screens of the signed-in area and their routes, rendered inside its layout
// (layout/SignedInArea.tsx). The route table (router.tsx) preloads them by path.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { lazyWithChakra } from '../components/lazy-with-chakra';
import { ROUTES } from '../config/routes';
import { RedirectTo } from './Guard';

export function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

/**
 * Screens of the signed-in area, inside the layout, in matching order; unknown paths go to the
 * video list. Each loader is also used to fetch a screen before the first render. `chakra`: the
 * screen renders Chakra components, so Chakra loads with it (the video list renders none).
 */
export const SIGNED_IN_SCREENS: {
  path: string;
  chakra: boolean;
  load: () => Promise<ComponentType>;
}[] = [
  {
    path: ROUTES.videoList,
    chakra: false,
    load: async () => (await import('./screens/VideoListScreen')).VideoListScreen,
  },
  {
    path: ROUTES.profile,
    chakra: true,
    load: async () => (await import('../features/profile/components/ProfilePage')).ProfilePage,
  },
  {
    path: ROUTES.similarVideo,
    chakra: true,
    load: async () => (await import('./screens/SimilarVideoScreen')).SimilarVideoScreen,
  },
  {
    path: ROUTES.sceneFrames,
    chakra: true,
    load: async () =>
      (await import('../features/videos/components/SceneFramesPage')).SceneFramesPage,
  },
  {
    path: ROUTES.videoDetail,
    chakra: true,
    load: async () => (await import('./screens/VideoDetailScreen')).VideoDetailScreen,
  },
  {
    path: ROUTES.advancedSearch,
    chakra: true,
    load: async () => (await import('./screens/AdvancedSearchScreen')).AdvancedSearchScreen,
  },
  {
    path: ROUTES.people,
    chakra: true,
    load: async () => (await import('../features/people/components/PeoplePage')).PeoplePage,
  },
  {
    path: ROUTES.person,
    chakra: true,
    load: async () => (await import('../features/people/components/PersonPage')).PersonPage,
  },
];

const SIGNED_IN_ROUTES = SIGNED_IN_SCREENS.map(({ path, chakra, load }) => ({
  path,
  Screen: chakra ? lazyWithChakra(load) : lazy(async () => ({ default: await load() })),
}));

export function SignedInRoutes() {
  return (
    <Lazy>
      <Switch>
        {SIGNED_IN_ROUTES.map(({ path, Screen }) => (
          <Route key={path} path={path}>
            <Screen />
          </Route>
        ))}
        <Route>
          <RedirectTo to={ROUTES.videoList} />
        </Route>
      </Switch>
    </Lazy>
  );
}
