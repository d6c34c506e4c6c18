// Home (product-spec section 2): what the product does, and the ways in.
import { Box, Button, Container, Flex, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import { AppLink } from '../../../components/AppLink';
import { LanguageSwitcher } from '../../../components/LanguageSwitcher';
import { ROUTES } from '../../../config/routes';
import { CONTACT_INQUIRY_PARAM, CONTACT_URLS, PROVIDER_HOME_URL } from '../../../config/site';
import type { MessageId } from '../../../lib/i18n';
import { useLocale, useT } from '../../../lib/locale-context';
import { selectIsSignedIn } from '../../../lib/session-slice';
import { useAppSelector } from '../../../lib/store-hooks';
import landingEnglish from '../../../../lang/en.json?ns=landing';
import { ExtraMessages } from '../../../lib/extra-messages';

interface Section {
  id: string;
  title: MessageId;
  body: MessageId;
  items?: MessageId[];
}

const SECTIONS: Section[] = [
  { id: 'trailer', title: 'landing.trailer.title', body: 'landing.trailer.body' },
  { id: 'report', title: 'landing.report.title', body: 'landing.report.body' },
  { id: 'search', title: 'landing.search.title', body: 'landing.search.body' },
  {
    id: 'cloud',
    title: 'landing.cloud.title',
    body: 'landing.cloud.body',
    items: ['landing.cloud.item1', 'landing.cloud.item2', 'landing.cloud.item3'],
  },
];

const BENEFITS: MessageId[] = [
  'landing.benefits.item1',
  'landing.benefits.item2',
  'landing.benefits.item3',
  'landing.benefits.item4',
];

export function contactUrl(locale: 'en' | 'ja', inquiry: string): string {
  const url = new URL(CONTACT_URLS[locale]);
  url.searchParams.set(CONTACT_INQUIRY_PARAM, inquiry);
  return url.toString();
}

function LandingPageContent() {
  const t = useT();
  const { locale } = useLocale();
  const signedIn = useAppSelector(selectIsSignedIn);
  const contact = (
    <Button asChild colorPalette="blue" variant="outline">
      <a
        href={contactUrl(locale, t('landing.contactInquiry'))}
        target="_blank"
        rel="noopener noreferrer"
      >
        {t('landing.contact')}
        <Box as="span" srOnly>
          {t('landing.contactNewTab')}
        </Box>
      </a>
    </Button>
  );

  return (
    <Box minH="100dvh">
      <Flex as="header" justify="space-between" align="center" px="6" py="4" gap="4" wrap="wrap">
        <Link href={PROVIDER_HOME_URL} fontWeight="bold" color="blue.800">
          {t('landing.nav.home')}
        </Link>
        <Flex gap="3" align="center">
          <LanguageSwitcher />
          <Button asChild colorPalette="blue">
            <AppLink href={signedIn ? ROUTES.videoList : ROUTES.login} color="white">
              {signedIn ? t('landing.goToApp') : t('landing.login')}
            </AppLink>
          </Button>
        </Flex>
      </Flex>
      <Box as="main">
        <Box as="section" bg="blue.900" color="white" py={{ base: '16', md: '24' }}>
          <Container maxW="4xl">
            <Heading as="h1" size={{ base: '3xl', md: '5xl' }} mb="6">
              {t('landing.intro.title')}
            </Heading>
            <Text fontSize="lg" mb="8">
              {t('landing.intro.body')}
            </Text>
          </Container>
        </Box>
        <Container maxW="4xl" py="12">
          <Stack gap="12">
            {SECTIONS.map((section) => (
              <Box as="section" key={section.id} aria-labelledby={`landing-${section.id}`}>
                <Heading as="h2" size="2xl" mb="3" id={`landing-${section.id}`}>
                  {t(section.title)}
                </Heading>
                <Text>{t(section.body)}</Text>
                {section.items ? (
                  <List.Root as="ul" mt="3" ps="5">
                    {section.items.map((item) => (
                      <List.Item key={item}>{t(item)}</List.Item>
                    ))}
                  </List.Root>
                ) : null}
              </Box>
            ))}
            <Box as="section" aria-labelledby="landing-benefits">
              <Heading as="h2" size="2xl" mb="3" id="landing-benefits">
                {t('landing.benefits.title')}
              </Heading>
              <List.Root as="ul" ps="5">
                {BENEFITS.map((item) => (
                  <List.Item key={item}>{t(item)}</List.Item>
                ))}
              </List.Root>
            </Box>
            <Box as="section" aria-labelledby="landing-demo" bg="blue.50" p="8" borderRadius="l3">
              <Heading as="h2" size="2xl" mb="3" id="landing-demo">
                {t('landing.demo.title')}
              </Heading>
              <Text mb="6">{t('landing.demo.body')}</Text>
              {contact}
            </Box>
          </Stack>
        </Container>
      </Box>
      <Flex as="footer" justify="center" gap="6" py="6" borderTopWidth="1px">
        <AppLink href={ROUTES.privacyPolicy} color="gray.700">
          {t('landing.nav.privacy')}
        </AppLink>
      </Flex>
    </Box>
  );
}

/** The page carries its own English texts, which are not in the entry (first-screen budget). */
export function LandingPage() {
  return (
    <ExtraMessages english={landingEnglish}>
      <LandingPageContent />
    </ExtraMessages>
  );
}
