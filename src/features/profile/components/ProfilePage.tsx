// Profile (product-spec section 2): a side menu of five sections chosen by ?type=.
import { Box, Flex, Heading, Stack } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useSearch } from 'wouter';
import { AppLink } from '../../../components/AppLink';
import { PROFILE_SECTIONS, profilePath, type ProfileSection } from '../../../config/routes';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { useGetProfileQuery, type Profile } from '../api';
import { AccountSection } from './AccountSection';
import { ChangeEmailSection } from './ChangeEmailSection';
import { ChangePasswordSection } from './ChangePasswordSection';
import { DeleteAccountSection } from './DeleteAccountSection';
import { ExportProfileSection } from './ExportProfileSection';

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
  const search = useSearch();
  const section = sectionFromQuery(search);
  const { data: profile } = useGetProfileQuery();
  const type = new URLSearchParams(search).get('type');

  // The query names the section in lower case (product-spec section 2): ?type=ACCOUNT or an
  // unknown value is rewritten in place.
  useEffect(() => {
    if (type !== null && type !== section.toLowerCase()) {
      navigateTo(profilePath(section), { replace: true });
    }
  }, [type, section]);

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
        <Box flex="1" maxW="40rem">
          <SectionBody section={section} profile={profile} />
        </Box>
      </Flex>
    </Box>
  );
}

function SectionBody({ section, profile }: { section: ProfileSection; profile: Profile }) {
  switch (section) {
    case 'ACCOUNT':
      return <AccountSection profile={profile} />;
    case 'CHANGE_EMAIL':
      return <ChangeEmailSection />;
    case 'CHANGE_PASSWORD':
      return <ChangePasswordSection />;
    case 'EXPORT_PROFILE':
      return <ExportProfileSection profile={profile} />;
    case 'DELETE_ACCOUNT':
      return <DeleteAccountSection profile={profile} />;
  }
}
