// The slide-in menu on small screens (Chakra's Drawer): its dialog machinery loads when the menu
// is first opened, not with every signed-in page (issue 8).
import { CloseButton, Drawer, Portal } from '@chakra-ui/react';
import { useT } from '../../lib/locale-context';
import { NavContent, type Identity } from './NavContent';

const BG = 'blue.900';

interface MobileMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  identity: Identity | null;
}

export function MobileMenu({ open, onOpenChange, identity }: MobileMenuProps) {
  const t = useT();
  return (
    <Drawer.Root
      open={open}
      onOpenChange={(event) => onOpenChange(event.open)}
      placement="start"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content bg={BG} color="white" maxW="18rem">
            <Drawer.Header>
              <Drawer.Title>{t('app.name')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body pb="6">
              <NavContent identity={identity} onNavigate={() => onOpenChange(false)} />
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton aria-label={t('nav.closeMenu')} color="white" size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
