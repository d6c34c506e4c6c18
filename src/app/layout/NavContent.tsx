// The entries of the signed-in menu, shared by the sidebar and the mobile drawer.
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import type { ReactElement } from 'react';
import { useLocation } from 'wouter';
import { AppLink } from '../../components/AppLink';
import { LogoutIcon, SearchIcon, ShieldIcon, UserIcon, VideoIcon } from '../../components/Icons';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { ROUTES } from '../../config/routes';
import type { MessageId } from '../../lib/i18n';
import { useT } from '../../lib/locale-context';
import { logout } from '../../lib/session';
import { useAppDispatch } from '../../lib/store-hooks';

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
        <AppLink
          href={entry.href}
          onClick={onNavigate}
          aria-current={active ? 'page' : undefined}
          aria-label={collapsed ? t(entry.label) : undefined}
          title={collapsed ? t(entry.label) : undefined}
          display="flex"
          alignItems="center"
          gap="3"
          px="3"
          py="2"
          borderRadius="l2"
          color="white"
          bg={active ? 'whiteAlpha.300' : undefined}
          _hover={{ bg: 'whiteAlpha.200', textDecoration: 'none' }}
        >
          {entry.icon}
          {collapsed ? null : <span>{t(entry.label)}</span>}
        </AppLink>
      </li>
    );
  };

  return (
    <Flex direction="column" h="full" gap="4">
      <Box as="nav" aria-label={t('nav.main')}>
        <Stack as="ul" listStyleType="none" gap="1">
          {MAIN.map(renderEntry)}
        </Stack>
      </Box>
      <Box flex="1" />
      {collapsed ? null : (
        <Stack gap="3" color="whiteAlpha.900" fontSize="sm">
          <LanguageSwitcher width="full" />
          {identity ? (
            <Box>
              <Text srOnly>{t('nav.email')}</Text>
              <Text fontWeight="semibold" wordBreak="break-all" data-testid="user-email">
                {identity.email}
              </Text>
              <Text srOnly>{t('nav.team')}</Text>
              <Text data-testid="team-name">{identity.teamName}</Text>
            </Box>
          ) : null}
        </Stack>
      )}
      <Stack as="ul" listStyleType="none" gap="1">
        {SECONDARY.map(renderEntry)}
        <li>
          <Button
            variant="ghost"
            color="white"
            justifyContent="flex-start"
            w="full"
            px="3"
            gap="3"
            _hover={{ bg: 'whiteAlpha.200' }}
            aria-label={t('nav.logout')}
            onClick={() => void dispatch(logout())}
          >
            <LogoutIcon />
            {collapsed ? null : t('nav.logout')}
          </Button>
        </li>
      </Stack>
    </Flex>
  );
}
