// The route table of product-spec section 2. Every screen is its own lazily loaded chunk.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { ROUTES } from '../config/routes';
import { Guard, RedirectTo } from './Guard';

function screen<M, P extends object = object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
) {
  return lazy(async () => ({ default: pick(await load()) }));
}

const LandingPage = screen(
  () => import('../features/landing/components/LandingPage'),
  (m) => m.LandingPage,
);
const LoginPage = screen(
  () => import('../features/auth/components/LoginPage'),
  (m) => m.LoginPage,
);
const ForgotPasswordPage = screen(
  () => import('../features/auth/components/ForgotPasswordPage'),
  (m) => m.ForgotPasswordPage,
);
const ResetPasswordPage = screen(
  () => import('../features/auth/components/ResetPasswordPage'),
  (m) => m.ResetPasswordPage,
);
const PrivacyPolicyPage = screen(
  () => import('../features/privacy/components/PrivacyPolicyPage'),
  (m) => m.PrivacyPolicyPage,
);
const NotFoundPage = screen(
  () => import('../features/not-found/components/NotFoundPage'),
  (m) => m.NotFoundPage,
);
const SignedInArea = screen(
  () => import('./layout/SignedInArea'),
  (m) => m.SignedInArea,
);

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
          <NotFoundPage />
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

/** Screens of the signed-in area, inside the layout; unknown paths go to the video list. */
const VideoListScreen = screen(
  () => import('./screens/VideoListScreen'),
  (m) => m.VideoListScreen,
);
const ProfilePage = screen(
  () => import('../features/profile/components/ProfilePage'),
  (m) => m.ProfilePage,
);
const VideoDetailScreen = screen(
  () => import('./screens/VideoDetailScreen'),
  (m) => m.VideoDetailScreen,
);
const SceneFramesPage = screen(
  () => import('../features/videos/components/SceneFramesPage'),
  (m) => m.SceneFramesPage,
);
const AdvancedSearchScreen = screen(
  () => import('./screens/AdvancedSearchScreen'),
  (m) => m.AdvancedSearchScreen,
);
const SimilarVideoScreen = screen(
  () => import('./screens/SimilarVideoScreen'),
  (m) => m.SimilarVideoScreen,
);

export function SignedInRoutes() {
  return (
    <Lazy>
      <Switch>
        <Route path={ROUTES.videoList}>
          <VideoListScreen />
        </Route>
        <Route path={ROUTES.profile}>
          <ProfilePage />
        </Route>
        <Route path={ROUTES.similarVideo}>
          <SimilarVideoScreen />
        </Route>
        <Route path={ROUTES.sceneFrames}>
          <SceneFramesPage />
        </Route>
        <Route path={ROUTES.videoDetail}>
          <VideoDetailScreen />
        </Route>
        <Route path={ROUTES.advancedSearch}>
          <AdvancedSearchScreen />
        </Route>
        <Route>
          <RedirectTo to={ROUTES.videoList} />
        </Route>
      </Switch>
    </Lazy>
  );
}
