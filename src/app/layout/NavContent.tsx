// The entries of the signed-in menu, shared by the sidebar and the mobile drawer. Plain elements
// with a CSS module: part of every signed-in page load (issue 8).
import type { ReactElement } from 'react';
import { useLocation } from 'wouter';
import {
  LogoutIcon,
  PeopleIcon,
  SearchIcon,
  ShieldIcon,
  UserIcon,
  VideoIcon,
} from '../../components/Icons';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { PlainButton } from '../../components/PlainButton';
import { RouteLink } from '../../components/RouteLink';
import { ROUTES } from '../../config/routes';
import type { MessageId } from '../../lib/i18n';
import { useT } from '../../lib/locale-context';
import { logout } from '../../lib/session';
import { useAppDispatch } from '../../lib/store-hooks';
import hidden from '../../components/visually-hidden.module.css';
import styles from './NavContent.module.css';

interface Entry {
  href: string;
  label: MessageId;
  icon: ReactElement;
  active: (path: string) => boolean;
}

const MAIN: Entry[] = [
  {
    href: ROUTES.videoList,
    label: 'nav.video',
    icon: <VideoIcon />,
    active: (path) => path === ROUTES.videoList || path.startsWith('/video-detail'),
  },
  {
    href: '/advanced-search',
    label: 'nav.advancedSearch',
    icon: <SearchIcon />,
    active: (path) => path.startsWith('/advanced-search') || path.startsWith('/video/similar'),
  },
  {
    href: ROUTES.people,
    label: 'nav.people',
    icon: <PeopleIcon />,
    active: (path) => path === ROUTES.people || path.startsWith(`${ROUTES.people}/`),
  },
];

const SECONDARY: Entry[] = [
  {
    href: ROUTES.privacyPolicy,
    label: 'nav.privacy',
    icon: <ShieldIcon />,
    active: () => false,
  },
  {
    href: ROUTES.profile,
    label: 'nav.profile',
    icon: <UserIcon />,
    active: (path) => path === ROUTES.profile,
  },
];

export interface Identity {
  email: string;
  teamName: string;
}

interface NavContentProps {
  collapsed?: boolean;
  identity: Identity | null;
  onNavigate?: () => void;
}

export function NavContent({ collapsed = false, identity, onNavigate }: NavContentProps) {
  const t = useT();
  const dispatch = useAppDispatch();
  const [path] = useLocation();

  const renderEntry = (entry: Entry) => {
    const active = entry.active(path);
    return (
      <li key={entry.label}>
        <RouteLink
          href={entry.href}
          onClick={onNavigate}
          className={styles.entry}
          aria-current={active ? 'page' : undefined}
          aria-label={collapsed ? t(entry.label) : undefined}
          title={collapsed ? t(entry.label) : undefined}
        >
          {entry.icon}
          {collapsed ? null : <span>{t(entry.label)}</span>}
        </RouteLink>
      </li>
    );
  };

  return (
    <div className={styles.nav}>
      <nav aria-label={t('nav.main')}>
        <ul className={styles.list}>{MAIN.map(renderEntry)}</ul>
      </nav>
      <div className={styles.spacer} />
      {collapsed ? null : (
        <div className={styles.account}>
          <LanguageSwitcher width="100%" />
          {identity ? (
            <div>
              <p className={hidden.srOnly}>{t('nav.email')}</p>
              <p className={styles.email} data-testid="user-email">
                {identity.email}
              </p>
              <p className={hidden.srOnly}>{t('nav.team')}</p>
              <p data-testid="team-name">{identity.teamName}</p>
            </div>
          ) : null}
        </div>
      )}
      <ul className={styles.list}>
        {SECONDARY.map(renderEntry)}
        <li>
          <PlainButton
            variant="onDark"
            className={styles.logout}
            aria-label={t('nav.logout')}
            onClick={() => void dispatch(logout())}
          >
            <LogoutIcon />
            {collapsed ? null : t('nav.logout')}
          </PlainButton>
        </li>
      </ul>
    </div>
  );
}
