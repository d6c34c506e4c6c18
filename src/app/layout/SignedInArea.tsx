// The signed-in layout (product-spec section 2): a collapsible sidebar on large screens, a
// slide-in menu on mobile, and a full-screen loading indicator while requests run.
import { Box, CloseButton, Drawer, Flex, IconButton, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FullScreenLoader } from '../../components/FullScreenLoader';
import { ChevronIcon, MenuIcon } from '../../components/Icons';
import { useGetProfileQuery } from '../../features/profile/api';
import { InstallButton } from '../../features/pwa/InstallButton';
import { OfflineBanner } from '../../features/pwa/OfflineBanner';
import { UpdatePrompt } from '../../features/pwa/UpdatePrompt';
import { DeferredMessages } from '../../lib/deferred-messages';
import { useT } from '../../lib/locale-context';
import { selectCurrentUser } from '../../lib/session-slice';
import { selectAnyRequestPending, useAppSelector } from '../../lib/store-hooks';
import { SignedInRoutes } from '../router';
import { NavContent, type Identity } from './NavContent';

const SIDEBAR_BG = 'blue.900';
// Installed on a phone the app runs edge to edge (viewport-fit=cover): keep content off notches.
const SAFE_LEFT_BASE = 'calc(1rem + env(safe-area-inset-left))';
const SAFE_LEFT_MD = 'calc(2rem + env(safe-area-inset-left))';
const SAFE_RIGHT_BASE = 'calc(1rem + env(safe-area-inset-right))';
const SAFE_RIGHT_MD = 'calc(2rem + env(safe-area-inset-right))';

export function SignedInArea() {
  const t = useT();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const sessionUser = useAppSelector(selectCurrentUser);
  const { data: profile } = useGetProfileQuery();
  const source = profile ?? sessionUser?.user;
  const identity: Identity | null = source
    ? { email: source.email, teamName: source.team?.name ?? '' }
    : null;

  return (
    <DeferredMessages>
      <Flex minH="100dvh">
        <Flex
          as="aside"
          display={{ base: 'none', lg: 'flex' }}
          direction="column"
          bg={SIDEBAR_BG}
          color="white"
          w={collapsed ? '4.5rem' : '16rem'}
          transition="width 0.2s"
          p="3"
          ps="calc(0.75rem + env(safe-area-inset-left))"
          pt="calc(0.75rem + env(safe-area-inset-top))"
          pb="calc(0.75rem + env(safe-area-inset-bottom))"
          position="sticky"
          top="0"
          h="100dvh"
          flexShrink={0}
        >
          <Flex justify={collapsed ? 'center' : 'space-between'} align="center" mb="6" minH="10">
            {collapsed ? null : (
              <Text fontWeight="bold" px="2">
                {t('app.name')}
              </Text>
            )}
            <IconButton
              aria-label={collapsed ? t('nav.expand') : t('nav.collapse')}
              aria-expanded={!collapsed}
              variant="ghost"
              color="white"
              size="sm"
              _hover={{ bg: 'whiteAlpha.200' }}
              onClick={() => setCollapsed((value) => !value)}
            >
              <ChevronIcon flipped={collapsed} />
            </IconButton>
          </Flex>
          {collapsed ? null : (
            <Box mb="4">
              <InstallButton />
            </Box>
          )}
          <NavContent collapsed={collapsed} identity={identity} />
        </Flex>

        <Box flex="1" minW="0">
          <Flex
            as="header"
            display={{ base: 'flex', lg: 'none' }}
            align="center"
            gap="3"
            px="4"
            py="3"
            ps="calc(1rem + env(safe-area-inset-left))"
            pe="calc(1rem + env(safe-area-inset-right))"
            pt="calc(0.75rem + env(safe-area-inset-top))"
            bg={SIDEBAR_BG}
            color="white"
          >
            <IconButton
              aria-label={t('nav.openMenu')}
              variant="ghost"
              color="white"
              _hover={{ bg: 'whiteAlpha.200' }}
              onClick={() => setDrawerOpen(true)}
            >
              <MenuIcon />
            </IconButton>
            <Text fontWeight="bold" flex="1">
              {t('app.name')}
            </Text>
            <InstallButton />
          </Flex>
          <OfflineBanner />
          <Box
            as="main"
            p={{ base: '4', md: '8' }}
            ps={{ base: SAFE_LEFT_BASE, md: SAFE_LEFT_MD, lg: '8' }}
            pe={{ base: SAFE_RIGHT_BASE, md: SAFE_RIGHT_MD }}
            pb="calc(2rem + env(safe-area-inset-bottom))"
          >
            <SignedInRoutes />
          </Box>
        </Box>

        <Drawer.Root
          open={drawerOpen}
          onOpenChange={(event) => setDrawerOpen(event.open)}
          placement="start"
          lazyMount
          unmountOnExit
        >
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner>
              <Drawer.Content bg={SIDEBAR_BG} color="white" maxW="18rem">
                <Drawer.Header>
                  <Drawer.Title>{t('app.name')}</Drawer.Title>
                </Drawer.Header>
                <Drawer.Body pb="6">
                  <NavContent identity={identity} onNavigate={() => setDrawerOpen(false)} />
                </Drawer.Body>
                <Drawer.CloseTrigger asChild>
                  <CloseButton aria-label={t('nav.closeMenu')} color="white" size="sm" />
                </Drawer.CloseTrigger>
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
        <UpdatePrompt />
        <BusyOverlay />
      </Flex>
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
