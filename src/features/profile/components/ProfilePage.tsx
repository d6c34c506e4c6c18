// Profile (product-spec section 2): a side menu of five sections chosen by ?type=.
import { Box, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useSearch } from 'wouter';
import { AppLink } from '../../../components/AppLink';
import { PROFILE_SECTIONS, profilePath, type ProfileSection } from '../../../config/routes';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import { useGetProfileQuery } from '../api';
import { ChangePasswordSection } from './ChangePasswordSection';

const LABELS: Record<ProfileSection, MessageId> = {
  ACCOUNT: 'profile.menu.account',
  CHANGE_EMAIL: 'profile.menu.changeEmail',
  CHANGE_PASSWORD: 'profile.menu.changePassword',
  EXPORT_PROFILE: 'profile.menu.exportProfile',
  DELETE_ACCOUNT: 'profile.menu.deleteAccount',
};

export function sectionFromQuery(search: string): ProfileSection {
  const type = new URLSearchParams(search).get('type')?.toUpperCase();
  return PROFILE_SECTIONS.find((section) => section === type) ?? 'ACCOUNT';
}

export function ProfilePage() {
  const t = useT();
  const section = sectionFromQuery(useSearch());
  const { data: profile } = useGetProfileQuery();
  // The page stays blank until the profile arrives (product-spec section 2).
  if (!profile) return null;

  return (
    <Box>
      <Heading as="h1" size="2xl" mb="6">
        {t('profile.title')}
      </Heading>
      <Flex direction={{ base: 'column', md: 'row' }} gap="8">
        <Box as="nav" aria-label={t('profile.sections')} minW="13rem">
          <Stack as="ul" listStyleType="none" gap="1">
            {PROFILE_SECTIONS.map((entry) => (
              <li key={entry}>
                <AppLink
                  href={profilePath(entry)}
                  aria-current={entry === section ? 'page' : undefined}
                  display="block"
                  px="3"
                  py="2"
                  borderRadius="l2"
                  bg={entry === section ? 'blue.50' : undefined}
                  color={entry === section ? 'blue.800' : 'gray.800'}
                  fontWeight={entry === section ? 'semibold' : 'normal'}
                >
                  {t(LABELS[entry])}
                </AppLink>
              </li>
            ))}
          </Stack>
        </Box>
        <Box flex="1" maxW="32rem">
          {section === 'CHANGE_PASSWORD' ? (
            <ChangePasswordSection />
          ) : (
            <>
              <Heading as="h2" size="lg" mb="3">
                {t(LABELS[section])}
              </Heading>
              <Text color="gray.700">{t('profile.comingSoon')}</Text>
            </>
          )}
        </Box>
      </Flex>
    </Box>
  );
}
