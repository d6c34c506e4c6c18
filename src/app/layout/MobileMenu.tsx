// The slide-in menu on small screens (Chakra's Drawer): its dialog machinery loads when the menu
// is first opened, not with every signed-in page (issue 8). Chakra's drawer knows no safe areas:
// at the screen's start edge, top to bottom, it pads itself off notches and the home indicator.
import { CloseButton, Drawer, Portal } from '@chakra-ui/react';
import { withInset } from '../../components/safe-area';
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
            <Drawer.Header pt={withInset(6, 'top')} ps={withInset(6, 'left')}>
              <Drawer.Title>{t('app.name')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body pb={withInset(6, 'bottom')} ps={withInset(6, 'left')}>
              <NavContent identity={identity} onNavigate={() => onOpenChange(false)} />
            </Drawer.Body>
            <Drawer.CloseTrigger asChild top={withInset(3, 'top')}>
              <CloseButton aria-label={t('nav.closeMenu')} color="white" size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
