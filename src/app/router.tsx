// The route table of product-spec section 2. The first screens (landing, login) are in the entry:
// the build prerenders them and the browser hydrates them at once (issue 8). Every other screen
// is its own lazily loaded chunk, and those built with Chakra load it with them.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { loadChakraScope, lazyWithChakra } from '../components/lazy-with-chakra';
import { PUBLIC_PATHS, ROUTES, SIGNED_OUT_ONLY_PATHS } from '../config/routes';
import { LoginPage } from '../features/auth/components/LoginPage';
import { LandingPage } from '../features/landing/components/LandingPage';
import { Guard, RedirectTo } from './Guard';

function screen<M, P extends object = object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
) {
  return lazy(async () => ({ default: pick(await load()) }));
}

const loadSignedInArea = () => import('./layout/SignedInArea');

/** A screen built with Chakra: its chunk and Chakra's load together, and Chakra wraps it. */
function chakraScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazyWithChakra(async () => pick(await load()));
}

const ForgotPasswordPage = screen(
  () => import('../features/auth/components/ForgotPasswordPage'),
  (m) => m.ForgotPasswordPage,
);
const ResetPasswordPage = screen(
  () => import('../features/auth/components/ResetPasswordPage'),
  (m) => m.ResetPasswordPage,
);
const PrivacyPolicyPage = chakraScreen(
  () => import('../features/privacy/components/PrivacyPolicyPage'),
  (m) => m.PrivacyPolicyPage,
);
const NotFoundPage = chakraScreen(
  () => import('../features/not-found/components/NotFoundPage'),
  (m) => m.NotFoundPage,
);
const SignedInArea = screen(loadSignedInArea, (m) => m.SignedInArea);

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

export function AppRouter() {
  return (
    <Lazy>
      <Switch>
        <Route path={ROUTES.home}>
          <LandingPage />
        </Route>
        <Route path={ROUTES.privacyPolicy}>
          <PrivacyPolicyPage />
        </Route>
        <Route path={ROUTES.notFound}>
          <Guard access="signedIn">
            <NotFoundPage />
          </Guard>
        </Route>
        <Route path={ROUTES.login}>
          <Guard access="signedOutOnly">
            <LoginPage />
          </Guard>
        </Route>
        <Route path={ROUTES.forgotPassword}>
          <Guard access="signedOutOnly">
            <ForgotPasswordPage />
          </Guard>
        </Route>
        <Route path={ROUTES.resetPassword}>
          <Guard access="signedOutOnly">
            <ResetPasswordPage />
          </Guard>
        </Route>
        <Route>
          <Guard access="signedIn">
            <SignedInArea />
          </Guard>
        </Route>
      </Switch>
    </Lazy>
  );
}

/**
 * Screens of the signed-in area, inside the layout, in matching order; unknown paths go to the
 * video list. Each loader is also used to fetch a screen before the first render. `chakra`: the
 * screen renders Chakra components, so Chakra loads with it (the video list renders none).
 */
const SIGNED_IN_SCREENS: { path: string; chakra: boolean; load: () => Promise<ComponentType> }[] = [
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

/**
 * Fetches (and runs) the code of a signed-in page before the first render: the layout, the screen
 * of `pathname` and Chakra when that screen uses it, at once instead of one after the other as each lazy part renders. Its
 * first paint then shows the whole frame and the main thread is not blocked by module start-up
 * after it (issue 8). Paths outside the signed-in area load nothing.
 */
export async function preloadSignedInPage(pathname: string): Promise<void> {
  if (PUBLIC_PATHS.includes(pathname) || SIGNED_OUT_ONLY_PATHS.includes(pathname)) return;
  if (pathname === ROUTES.notFound) return; // signed-in, but a blank page outside the layout
  const screen = SIGNED_IN_SCREENS.find(({ path }) => matchesPath(path, pathname));
  await Promise.all([
    loadSignedInArea(),
    screen?.chakra ? loadChakraScope() : null,
    screen?.load(),
  ]);
}

/** Wouter's pattern syntax through URLPattern where the browser has it (else no screen). */
function matchesPath(pattern: string, pathname: string): boolean {
  if (typeof URLPattern === 'undefined') return false;
  return new URLPattern({ pathname: pattern }).test({ pathname });
}
