// The language choice shown on every screen that has one (product-spec sections 1 and 2).
// A plain styled <select>: Chakra's NativeSelect pulls field machinery into the first screen.
import { chakra } from '@chakra-ui/react';
import { LOCALES, type AppLocale } from '../lib/i18n';
import { useLocale, useT } from '../lib/locale-context';

const LANGUAGE_NAMES = { en: 'common.languageEnglish', ja: 'common.languageJapanese' } as const;

const Select = chakra('select', {
  base: {
    appearance: 'auto',
    h: '8',
    px: '2',
    borderWidth: '1px',
    borderColor: 'gray.400',
    borderRadius: 'l2',
    bg: 'white',
    color: 'gray.900',
    fontSize: 'sm',
    cursor: 'pointer',
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.600', outlineOffset: '1px' },
  },
});

export function LanguageSwitcher({ width = '8.5rem' }: { width?: string }) {
  const { locale, setLocale } = useLocale();
  const t = useT();
  return (
    <Select
      aria-label={t('common.language')}
      width={width}
      value={locale}
      onChange={(event) => setLocale(event.currentTarget.value as AppLocale)}
    >
      {LOCALES.map((code) => (
        <option key={code} value={code} lang={code}>
          {t(LANGUAGE_NAMES[code])}
        </option>
      ))}
    </Select>
  );
}
