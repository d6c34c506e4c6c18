// The language choice shown on every screen that has one (product-spec sections 1 and 2).
import { NativeSelect } from '@chakra-ui/react';
import { LOCALES, type AppLocale } from '../lib/i18n';
import { useLocale, useT } from '../lib/locale-context';

const LANGUAGE_NAMES = { en: 'common.languageEnglish', ja: 'common.languageJapanese' } as const;

export function LanguageSwitcher({ width = '8.5rem' }: { width?: string }) {
  const { locale, setLocale } = useLocale();
  const t = useT();
  return (
    <NativeSelect.Root size="sm" width={width}>
      <NativeSelect.Field
        aria-label={t('common.language')}
        value={locale}
        onChange={(event) => setLocale(event.currentTarget.value as AppLocale)}
      >
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {t(LANGUAGE_NAMES[code])}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
