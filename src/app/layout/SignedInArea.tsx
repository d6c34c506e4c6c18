// The signed-in layout (product-spec section 2): a collapsible sidebar on large screens, a
// slide-in menu on mobile, and a full-screen loading indicator while requests run. Plain
// elements with a CSS module: it renders on every signed-in page load (issue 8).
import { Suspense, useState } from 'react';
import { FullScreenLoader } from '../../components/FullScreenLoader';
import { ChevronIcon, MenuIcon } from '../../components/Icons';
import { lazyWithChakra } from '../../components/lazy-with-chakra';
import { PlainButton } from '../../components/PlainButton';
import { useGetProfileQuery } from '../../features/profile/api';
import { InstallButton } from '../../features/pwa/InstallButton';
import { OfflineBanner } from '../../features/pwa/OfflineBanner';
import { UpdatePrompt } from '../../features/pwa/UpdatePrompt';
import { DeferredMessages } from '../../lib/deferred-messages';
import { useT } from '../../lib/locale-context';
import { selectCurrentUser } from '../../lib/session-slice';
import { selectAnyRequestPending, useAppSelector } from '../../lib/store-hooks';
import { SignedInRoutes } from '../signed-in-routes';
import { NavContent, type Identity } from './NavContent';
import styles from './SignedInArea.module.css';

const MobileMenu = lazyWithChakra(async () => (await import('./MobileMenu')).MobileMenu);

export function SignedInArea() {
  const t = useT();
  const [collapsed, setCollapsed] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const sessionUser = useAppSelector(selectCurrentUser);
  const { data: profile } = useGetProfileQuery();
  const source = profile ?? sessionUser?.user;
  const identity: Identity | null = source
    ? { email: source.email, teamName: source.team?.name ?? '' }
    : null;

  return (
    <DeferredMessages>
      <div className={styles.layout}>
        <aside className={collapsed ? `${styles.sidebar} ${styles.collapsed}` : styles.sidebar}>
          <div className={styles.sidebarTop}>
            {collapsed ? null : <p className={styles.appName}>{t('app.name')}</p>}
            <PlainButton
              variant="onDark"
              size="sm"
              icon
              aria-label={collapsed ? t('nav.expand') : t('nav.collapse')}
              aria-expanded={!collapsed}
              onClick={() => setCollapsed((value) => !value)}
            >
              <ChevronIcon flipped={collapsed} />
            </PlainButton>
          </div>
          {collapsed ? null : (
            <div className={styles.install}>
              <InstallButton />
            </div>
          )}
          <NavContent collapsed={collapsed} identity={identity} />
        </aside>

        <div className={styles.content}>
          <header className={styles.topbar}>
            <PlainButton
              variant="onDark"
              icon
              aria-label={t('nav.openMenu')}
              onClick={() => {
                setMenuLoaded(true);
                setMenuOpen(true);
              }}
            >
              <MenuIcon />
            </PlainButton>
            <p className={styles.topbarTitle}>{t('app.name')}</p>
            <InstallButton />
          </header>
          <OfflineBanner />
          <main className={styles.main}>
            <SignedInRoutes />
          </main>
        </div>

        {menuLoaded ? (
          <Suspense fallback={null}>
            <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} identity={identity} />
          </Suspense>
        ) : null}
        <UpdatePrompt />
        <BusyOverlay />
      </div>
    </DeferredMessages>
  );
}

/**
 * The loading indicator in a component of its own: when a request starts or ends only this
 * re-renders, not the whole layout and the page inside it.
 */
function BusyOverlay() {
  const busy = useAppSelector(selectAnyRequestPending);
  return busy ? <FullScreenLoader /> : null;
}
