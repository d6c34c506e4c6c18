// The privacy policy in the active language (product-spec sections 1 and 2).
import { Box, Container, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { AppLink } from '../../../components/AppLink';
import { LanguageSwitcher } from '../../../components/LanguageSwitcher';
import { withInset } from '../../../components/safe-area';
import { ROUTES } from '../../../config/routes';
import { PRIVACY_LAST_UPDATED } from '../../../config/site';
import { formatDate } from '../../../lib/dates';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import { selectIsSignedIn } from '../../../lib/session-slice';
import { useAppSelector } from '../../../lib/store-hooks';
import privacyEnglish from '../../../../lang/en.json?ns=privacy';
import { ExtraMessages } from '../../../lib/extra-messages';

// Face data (issue 30) is section 7: it came after the numbered keys, which keep their names.
const SECTION_KEYS = ['s1', 's2', 's3', 's4', 's5', 's6', 'faces', 's7', 's8', 's9', 's10', 's11'];
const SECTIONS = SECTION_KEYS.map((key) => ({
  title: `privacy.${key}.title` as MessageId,
  body: `privacy.${key}.body` as MessageId,
}));

function PrivacyPolicyPageContent() {
  const t = useT();
  const signedIn = useAppSelector(selectIsSignedIn);
  const lastUpdated = formatDate(PRIVACY_LAST_UPDATED) || t('privacy.unknown');
  return (
    <Box minH="100dvh" ps="env(safe-area-inset-left)" pe="env(safe-area-inset-right)">
      <Flex
        as="header"
        justify="space-between"
        align="center"
        px="6"
        pt={withInset(4, 'top')}
        pb="4"
        borderBottomWidth="1px"
      >
        <AppLink href={ROUTES.videoList} fontWeight="bold" color="blue.800">
          {t('privacy.home')}
        </AppLink>
        <Flex gap="4" align="center">
          <LanguageSwitcher />
          {signedIn ? null : (
            <AppLink href={ROUTES.login} color="blue.700">
              {t('privacy.login')}
            </AppLink>
          )}
        </Flex>
      </Flex>
      <Container as="main" maxW="3xl" pt="10" pb={withInset(10, 'bottom')}>
        <Heading as="h1" size="3xl" mb="2">
          {t('privacy.title')}
        </Heading>
        <Text color="gray.700" mb="8">
          {t('privacy.lastUpdated', { date: lastUpdated })}
        </Text>
        <Stack gap="8">
          {SECTIONS.map((section) => (
            <Box as="section" key={section.title}>
              <Heading as="h2" size="lg" mb="2">
                {t(section.title)}
              </Heading>
              {t(section.body)
                .split('\n')
                .map((paragraph) => (
                  <Text key={paragraph} mb="2">
                    {paragraph}
                  </Text>
                ))}
            </Box>
          ))}
        </Stack>
      </Container>
    </Box>
  );
}

/** The page carries its own English texts, which are not in the entry (first-screen budget). */
export function PrivacyPolicyPage() {
  return (
    <ExtraMessages english={privacyEnglish}>
      <PrivacyPolicyPageContent />
    </ExtraMessages>
  );
}
