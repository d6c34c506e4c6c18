// Export profile (product-spec section 2): profile.csv, built in the browser from the profile.
import { Button, Heading, Text } from '@chakra-ui/react';
import { useT } from '../../../lib/locale-context';
import type { Profile } from '../api';
import { downloadProfileCsv } from '../profile-csv';

export function ExportProfileSection({ profile }: { profile: Profile }) {
  const t = useT();
  return (
    <>
      <Heading as="h2" size="lg" mb="3">
        {t('profile.menu.exportProfile')}
      </Heading>
      <Text color="gray.700" mb="5">
        {t('profile.export.description')}
      </Text>
      <Button colorPalette="blue" onClick={() => downloadProfileCsv(profile)}>
        {t('profile.export.download')}
      </Button>
    </>
  );
}
