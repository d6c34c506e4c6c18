// The 404 message page (product-spec section 8).
import { Flex, Heading, Text } from '@chakra-ui/react';
import { AppLink } from '../../../components/AppLink';
import { withInset } from '../../../components/safe-area';
import { ROUTES } from '../../../config/routes';
import { useT } from '../../../lib/locale-context';

export function NotFoundPage() {
  const t = useT();
  return (
    <Flex
      as="main"
      minH="100dvh"
      direction="column"
      align="center"
      justify="center"
      gap="4"
      pt={withInset(6, 'top')}
      pb={withInset(6, 'bottom')}
      ps={withInset(6, 'left')}
      pe={withInset(6, 'right')}
    >
      <Heading as="h1" size="3xl">
        {t('notFound.title')}
      </Heading>
      <Text>{t('notFound.body')}</Text>
      <AppLink href={ROUTES.videoList} color="blue.700">
        {t('notFound.back')}
      </AppLink>
    </Flex>
  );
}
