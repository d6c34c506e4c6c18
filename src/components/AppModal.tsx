// The generic modal of product-spec section 2: success, error, warning (Cancel / Delete) and
// email (check your email).
import { Box, Button, Dialog, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { MessageId } from '../lib/i18n';
import { useT } from '../lib/locale-context';
import { ModalFrame } from './ModalFrame';

export type ModalType = 'success' | 'error' | 'warning' | 'email';

const TITLES: Record<ModalType, MessageId> = {
  success: 'modal.successTitle',
  error: 'modal.errorTitle',
  warning: 'modal.warningTitle',
  email: 'modal.emailTitle',
};

const ACCENTS: Record<ModalType, string> = {
  success: 'green.600',
  error: 'red.600',
  warning: 'orange.600',
  email: 'blue.600',
};

interface AppModalProps {
  open: boolean;
  type: ModalType;
  title?: string;
  /** Each line becomes a paragraph. */
  lines?: string[];
  children?: ReactNode;
  onClose: () => void;
  /** Warning modals: the destructive action. */
  onConfirm?: () => void;
  confirmLabel?: string;
}

export function AppModal({
  open,
  type,
  title,
  lines = [],
  children,
  onClose,
  onConfirm,
  confirmLabel,
}: AppModalProps) {
  const t = useT();
  const isWarning = type === 'warning';
  return (
    <ModalFrame
      open={open}
      onClose={onClose}
      role={type === 'error' || isWarning ? 'alertdialog' : 'dialog'}
      modalType={type}
    >
      <Box h="1" bg={ACCENTS[type]} borderTopRadius="l3" />
      <Dialog.Header>
        <Dialog.Title>{title ?? t(TITLES[type])}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        {lines.map((line) => (
          <Text key={line} mb="2" whiteSpace="pre-line">
            {line}
          </Text>
        ))}
        {children}
      </Dialog.Body>
      <Dialog.Footer>
        {isWarning ? (
          <>
            <Button variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button colorPalette="red" onClick={onConfirm}>
              {confirmLabel ?? t('common.delete')}
            </Button>
          </>
        ) : (
          <Button colorPalette="blue" onClick={onConfirm ?? onClose}>
            {confirmLabel ?? t('common.ok')}
          </Button>
        )}
      </Dialog.Footer>
    </ModalFrame>
  );
}
