// The route table of product-spec section 2. The first screens (landing, login) are in the entry:
// the build prerenders them and the browser hydrates them at once (issue 8). Every other screen
// is its own lazily loaded chunk, and those built with Chakra load it with them.
import { lazy, type ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { loadChakraScope, lazyWithChakra } from '../components/lazy-with-chakra';
import { PUBLIC_PATHS, ROUTES, SIGNED_OUT_ONLY_PATHS } from '../config/routes';
import { LoginPage } from '../features/auth/components/LoginPage';
import { LandingPage } from '../features/landing/components/LandingPage';
import { Guard } from './Guard';
import { Lazy, SIGNED_IN_SCREENS } from './signed-in-routes';

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
