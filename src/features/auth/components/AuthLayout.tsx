// The blank layout of the sign-in pages: a centred card with the language switcher.
import { Box, Flex, Heading, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { AppLink } from '../../../components/AppLink';
import { LanguageSwitcher } from '../../../components/LanguageSwitcher';
import { ROUTES } from '../../../config/routes';
import { useT } from '../../../lib/locale-context';

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const t = useT();
  return (
    <Flex minH="100dvh" direction="column" bg="gray.50">
      <Flex as="header" justify="space-between" align="center" px="6" py="4">
        <AppLink href={ROUTES.home} fontWeight="bold" color="blue.800">
          {t('app.name')}
        </AppLink>
        <LanguageSwitcher />
      </Flex>
      <Flex as="main" flex="1" align="center" justify="center" px="4" pb="16">
        <Box
          bg="white"
          borderRadius="l3"
          boxShadow="md"
          p={{ base: '6', md: '10' }}
          w="full"
          maxW="26rem"
        >
          <Heading as="h1" size="2xl" mb="6">
            {title}
          </Heading>
          {children}
        </Box>
      </Flex>
      <Text as="footer" textAlign="center" fontSize="sm" pb="4">
        <AppLink href={ROUTES.privacyPolicy} color="gray.700">
          {t('nav.privacy')}
        </AppLink>
      </Text>
    </Flex>
  );
}
